import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { requestArb } from "../test-support/arbitraries.ts";
import { assertMessage, assertProviderRequest, checkMessage, isPlainMessage } from "./validate.ts";

const ok = { role: "user", content: [{ type: "text", text: "hi" }] };
const request = { model: { provider: "openai", model: "gpt-4o" }, messages: [ok], tools: [] };

/** The `field` of the InvalidInputError `f` throws. */
function fieldOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as InvalidInputError).field;
  }
  throw new Error("expected an InvalidInputError");
}

describe("the shared message-shape check", () => {
  it.each<[string, unknown, string]>([
    ["a message that is null", null, "m"],
    ["an unknown role", { ...ok, role: "robot" }, "m.role"],
    ["content as a string", { ...ok, content: "hi" }, "m.content"],
    ["a block that is a string", { ...ok, content: ["hi"] }, "m.content[0]"],
    ["an unknown block type", { ...ok, content: [ok.content[0], { type: "video" }] }, "m.content[1].type"],
    ["a text block without text", { ...ok, content: [{ type: "text" }] }, "m.content[0].text"],
    [
      "a tool call with a numeric id",
      { role: "assistant", content: [{ type: "tool_call", id: 1, name: "f", arguments: {} }] },
      "m.content[0].id",
    ],
    [
      "a tool result without a name",
      { role: "tool", content: [{ type: "tool_result", toolCallId: "c", result: "ok" }] },
      "m.content[0].name",
    ],
    [
      "a tool result with a string isError",
      { role: "tool", content: [{ type: "tool_result", toolCallId: "c", name: "f", result: "x", isError: "yes" }] },
      "m.content[0].isError",
    ],
    ["an image with numeric data", { ...ok, content: [{ type: "image", data: 42 }] }, "m.content[0].data"],
    [
      "a document with a non-string name",
      { ...ok, content: [{ type: "document", text: "t", name: ["a"] }] },
      "m.content[0].name",
    ],
    [
      "thinking with a string redacted flag",
      { role: "assistant", content: [{ type: "thinking", text: "t", redacted: "no" }] },
      "m.content[0].redacted",
    ],
    [
      "a cache marker of the wrong type",
      { ...ok, content: [{ type: "text", text: "t", cache: { type: "persistent" } }] },
      "m.content[0].cache",
    ],
    [
      "provider fields that are not objects",
      { ...ok, content: [{ type: "text", text: "t", providerFields: { anthropic: "x" } }] },
      "m.content[0].providerFields.anthropic",
    ],
    [
      "provider fields under a non-identifier key",
      { ...ok, providerFields: { "openai-chat": 1 } },
      'm.providerFields["openai-chat"]',
    ],
    ["a numeric name", { ...ok, name: 7 }, "m.name"],
    ["metadata that is an array", { ...ok, metadata: [] }, "m.metadata"],
  ])("names the first bad field: %s", (_, value, field) => {
    expect(fieldOf(() => assertMessage(value, "m"))).toBe(field);
  });

  it.each<[string, unknown, string]>([
    ["undefined", undefined, "request"],
    ["a model id string instead of a model", { ...request, model: "gpt-4o" }, "model"],
    ["a model without its id", { ...request, model: { provider: "openai" } }, "model.model"],
    ["missing tools", { model: request.model, messages: [ok] }, "tools"],
    ["a tool without a name", { ...request, tools: [{ description: "d" }] }, "tools[0].name"],
    ["messages as an object", { ...request, messages: {} }, "messages"],
    [
      "a deep bad block",
      { ...request, messages: [ok, ok, ok, { role: "assistant", content: [ok.content[0], { type: 3 }] }] },
      "messages[3].content[1].type",
    ],
    ["providerOptions as a string", { ...request, providerOptions: "fast" }, "providerOptions"],
    ["a numeric cacheKey", { ...request, cacheKey: 1 }, "cacheKey"],
  ])("checks a request from its root: %s", (_, value, field) => {
    expect(fieldOf(() => assertProviderRequest(value))).toBe(field);
  });

  it("puts a prefix before every field name", () => {
    expect(fieldOf(() => assertProviderRequest({ ...request, messages: [{ role: 1 }] }, "previous."))).toBe(
      "previous.messages[0].role",
    );
    expect(fieldOf(() => assertProviderRequest(null, "next."))).toBe("next");
  });

  it("accepts every well-formed request (property, seed 2201)", () => {
    fc.assert(
      fc.property(requestArb, (req) => {
        expect(() => assertProviderRequest(req)).not.toThrow();
      }),
      { seed: 2201, numRuns: 150 },
    );
  });
});

describe("the quick check of common messages", () => {
  const anyValue = fc.oneof(
    fc.constantFrom(
      undefined,
      null,
      0,
      true,
      "",
      "user",
      "text",
      [],
      {},
      { type: "ephemeral" },
      { anthropic: {} },
      { anthropic: 1 },
    ),
    fc.string({ maxLength: 6 }),
  );
  // Mostly well-formed, sometimes not: each field is usually right, or absent when optional.
  const usually = <T>(good: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: anyValue });
  const rarely = usually(fc.constant(undefined));
  const str = fc.string({ maxLength: 6 });
  const blockArb = fc.oneof(
    { weight: 1, arbitrary: anyValue },
    {
      weight: 8,
      arbitrary: fc.record({
        type: usually(fc.constantFrom("text", "tool_call", "tool_result", "thinking")),
        text: usually(str),
        id: usually(str),
        name: usually(str),
        toolCallId: usually(str),
        isError: usually(fc.constantFrom(undefined, true, false)),
        cache: rarely,
        providerFields: rarely,
      }),
    },
  );
  const messageLike = fc.record({
    role: usually(fc.constantFrom("user", "assistant", "tool", "system")),
    content: usually(fc.array(blockArb, { maxLength: 3 })),
    name: usually(fc.constantFrom(undefined, "n")),
    metadata: rarely,
    cache: rarely,
    providerFields: rarely,
  });

  it("never accepts a message the full check rejects (property, seed 2202)", () => {
    fc.assert(
      fc.property(messageLike, (value) => {
        if (isPlainMessage(value)) expect(() => checkMessage(value, "m")).not.toThrow();
      }),
      { seed: 2202, numRuns: 200 },
    );
  });

  it.each<[string, unknown, boolean]>([
    ["a text message (quick check)", ok, true],
    [
      "a tool call (quick check)",
      {
        role: "assistant",
        content: [
          { type: "text", text: "" },
          { type: "tool_call", id: "c", name: "f", arguments: {} },
        ],
      },
      true,
    ],
    [
      "a tool result (quick check)",
      {
        role: "tool",
        name: "n",
        content: [{ type: "tool_result", toolCallId: "c", name: "f", result: "x", isError: false }],
      },
      true,
    ],
    ["a message with metadata (full check)", { ...ok, metadata: {} }, false],
    [
      "a cache marker (full check)",
      { ...ok, content: [{ type: "text", text: "t", cache: { type: "ephemeral" } }] },
      false,
    ],
    ["a thinking block (full check)", { role: "assistant", content: [{ type: "thinking", text: "t" }] }, false],
  ])("accepts %s", (_, value, quick) => {
    expect(isPlainMessage(value)).toBe(quick);
    expect(() => checkMessage(value, "m")).not.toThrow();
  });
});
