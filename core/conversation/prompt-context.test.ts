import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import type { Message } from "../messages/index.ts";
import { buildPromptContext } from "./prompt-context.ts";
import { goDuration, systemArguments } from "./system-clock.ts";

const NOW = new Date("2024-05-06T07:08:09.123Z");

describe("buildPromptContext", () => {
  it("builds every namespace of the spec", () => {
    const message: Message = {
      role: "user",
      content: [
        { type: "text", text: "Hi" },
        { type: "text", text: "there" },
      ],
      metadata: { language: " de " },
    };
    expect(
      buildPromptContext({
        now: NOW,
        assistant: { id: 42n, name: "Helper", language: "en", description: "Helps" },
        conversation: {
          id: 7,
          identifier: "c-7",
          source: "phone",
          direction: "outbound",
          createdDate: new Date("2024-05-06T07:00:00Z"),
          updatedDate: "2024-05-06T07:05:00Z",
        },
        session: { mode: "audio" },
        message,
        args: { name: "Ada" },
      }),
    ).toEqual({
      system: {
        current_date: "2024-05-06",
        current_time: "07:08:09",
        current_datetime: "2024-05-06T07:08:09Z",
        day_of_week: "Monday",
        date_rfc1123: "Mon, 06 May 2024 07:08:09 UTC",
        date_unix: 1714979289,
        date_unix_ms: 1714979289123,
      },
      assistant: { name: "Helper", id: "42", language: "en", description: "Helps" },
      conversation: {
        id: "7",
        identifier: "c-7",
        source: "phone",
        direction: "outbound",
        created_date: "2024-05-06T07:00:00Z",
        updated_date: "2024-05-06T07:05:00Z",
        duration: "8m9s",
      },
      session: { mode: "audio" },
      message: { text: "Hi\nthere", language: "de" },
      args: { name: "Ada" },
      name: "Ada",
    });
  });

  it("always gives system.* and args, and omits what was not given", () => {
    expect(Object.keys(buildPromptContext({ now: NOW }))).toEqual(["system", "args"]);
    expect(buildPromptContext({ now: NOW, session: {} })).not.toHaveProperty("session");
  });

  it("uses the current time when now is absent", () => {
    const before = Date.now();
    const { system } = buildPromptContext();
    expect(system.date_unix_ms).toBeGreaterThanOrEqual(before);
    expect(system.date_unix_ms).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    [new Date("2025-01-07T00:00:00Z"), "Tue, 07 Jan 2025 00:00:00 UTC", "Tuesday"],
    [new Date("1969-12-31T23:59:59.500Z"), "Wed, 31 Dec 1969 23:59:59 UTC", "Wednesday"],
    [new Date("2000-02-29T12:30:05Z"), "Tue, 29 Feb 2000 12:30:05 UTC", "Tuesday"],
  ])("formats %s in UTC with English names", (now, rfc1123, weekday) => {
    const system = systemArguments(now);
    expect(system.date_rfc1123).toBe(rfc1123);
    expect(system.day_of_week).toBe(weekday);
    expect(system.date_unix).toBe(Math.floor(now.getTime() / 1000));
  });

  it.each([
    [0, "0s"],
    [45_900, "45s"],
    [125_000, "2m5s"],
    [3_600_000, "1h0m0s"],
    [90_061_000, "25h1m1s"],
    [-5_000, "0s"],
  ])("prints a duration of %i ms as %s (Go style)", (ms, text) => {
    expect(goDuration(ms)).toBe(text);
  });

  it("computes duration only from an exact instant, and keeps a given duration", () => {
    expect(
      buildPromptContext({ now: NOW, conversation: { createdDate: "2024-05-06T07:08:00Z" } }).conversation?.duration,
    ).toBe("9s");
    expect(buildPromptContext({ now: NOW, conversation: { createdDate: "May 6, 2024" } }).conversation).toEqual({
      created_date: "May 6, 2024",
    });
    expect(buildPromptContext({ now: NOW, conversation: { duration: "long" } }).conversation).toEqual({
      duration: "long",
    });
  });

  it("keeps namespaces at the root: an argument named like one stays under args only", () => {
    const context = buildPromptContext({ now: NOW, args: { system: "spoofed", args: 1, message: "m", topic: "x" } });
    expect(context.system.current_date).toBe("2024-05-06");
    expect(context.args).toEqual({ system: "spoofed", args: 1, message: "m", topic: "x" });
    expect(context["topic"]).toBe("x");
    expect(context).not.toHaveProperty("message");
  });

  it("deep-clones: mutating the input or one copy never leaks", () => {
    const args = { profile: { tags: ["a"] } };
    const context = buildPromptContext({ now: NOW, args });
    args.profile.tags.push("b");
    expect(context.args["profile"]).toEqual({ tags: ["a"] });
    (context.args["profile"] as { tags: string[] }).tags.push("c");
    expect(context["profile"]).toEqual({ tags: ["a"] });
  });

  it("keeps a __proto__ argument as data", () => {
    const context = buildPromptContext({
      now: NOW,
      args: JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>,
    });
    expect(Object.getPrototypeOf(context)).toBe(Object.prototype);
    expect(Object.keys(context)).toContain("__proto__");
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });

  it.each([
    ["an invalid now", { now: new Date(Number.NaN) }, "now"],
    ["a function argument", { args: { f: () => 1 } }, "args.f"],
    ["a non-integer id", { assistant: { id: 1.5 } }, "assistant.id"],
    ["an invalid creation date", { conversation: { createdDate: new Date("nope") } }, "conversation.createdDate"],
    ["a non-string message text", { message: { text: 3 as unknown as string } }, "message.text"],
  ])("rejects %s", (_what, input, field) => {
    expect(() => buildPromptContext(input as never)).toThrow(InvalidInputError);
    expect(() => buildPromptContext(input as never)).toThrow(field);
  });
});
