import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { messageArb, providerArb, requestArb } from "../test-support/arbitraries.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { compareRequests, windowShiftOf } from "./compare.ts";
import { toFingerprintBundle } from "./fingerprints.ts";
import { segmentRequest } from "./segments.ts";

function wire(value: unknown): NormalizedRequest {
  const p = parseRequest(value);
  if (p.format === "strata") throw new Error("expected a wire request");
  return p.request;
}
const turns = conversationTurns.map(wire);
const anthropic = { provider: "anthropic" } as const;

const base: NormalizedRequest = {
  model: { provider: "openai", model: "gpt-4o" },
  tools: [
    { name: "a", inputSchema: { type: "object", properties: { x: { type: "string" } } } },
    { name: "b", inputSchema: { type: "object" } },
  ],
  messages: [
    { role: "system", content: [{ type: "text", text: "You are terse." }] },
    { role: "user", content: [{ type: "text", text: "one" }] },
    { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "a", arguments: { x: "1", y: 2 } }] },
    { role: "tool", content: [{ type: "tool_result", toolCallId: "c1", name: "a", result: "ok" }] },
    { role: "user", content: [{ type: "text", text: "two" }] },
    { role: "assistant", content: [{ type: "text", text: "done" }] },
  ],
};
const withMessages = (messages: NormalizedRequest["messages"]): NormalizedRequest => ({ ...base, messages });

describe("compareRequests on the four-turn conversation", () => {
  it("turn 1 → 2 only appends: the whole of turn 1 is the common prefix", () => {
    const r = compareRequests(turns[0]!, turns[1]!, anthropic);
    expect(r.divergence).toMatchObject({
      cause: "appended",
      bustsCache: false,
      path: "messages[2]",
      previousPath: null,
      segmentIndex: 12,
      byteOffset: 7579,
    });
    expect(r.commonPrefix).toEqual({ bytes: 7579, segments: 12, tokens: 1899 });
    expect(r.commonPrefix).toEqual(r.previous);
  });

  it("turn 2 → 3 busts the cache at the timestamp in the system prompt", () => {
    const r = compareRequests(turns[1]!, turns[2]!, anthropic);
    expect(r.divergence).toMatchObject({
      cause: "system_changed",
      bustsCache: true,
      path: "messages[0].content[0]",
      segmentIndex: 9,
    });
    // The request's own text, not the JSON Strata hashes (no escaped newlines, no closing quote).
    expect(r.divergence!.excerpt).toEqual({
      common: "access.\n\nSession started: 2026-11-29 09:",
      previous: "14 CET. Dispatcher desk: Rotterdam.",
      next: "21 CET. Dispatcher desk: Rotterdam.",
    });
    expect(r.divergence!.detail).toContain("looks like a date or time");
    expect(r.commonPrefix).toEqual({ bytes: 7459, segments: 9, tokens: 1868 });
    // Byte-exact: the 9 shared segments plus the shared start of the system block (up to "09:").
    const seg = segmentRequest(turns[2]!, anthropic);
    const shared = seg.texts[9]!.slice(0, seg.texts[9]!.indexOf("09:21") + 3);
    expect(r.commonPrefix.bytes).toBe(seg.segments[9]!.byteOffset + new TextEncoder().encode(shared).length);
  });

  it("turn 3 → 4 busts the cache at the first reordered tool", () => {
    const r = compareRequests(turns[2]!, turns[3]!, anthropic);
    expect(r.divergence).toMatchObject({ cause: "tool_order_changed", path: "tools[3]", segmentIndex: 3 });
    expect(r.commonPrefix.segments).toBe(3);
  });

  it("says volatile_template_value when the system prompt comes from a template with volatile values", () => {
    const r = compareRequests(turns[1]!, turns[2]!, {
      ...anthropic,
      template: { volatileVariables: ["system.current_time"] },
    });
    expect(r.divergence!.cause).toBe("volatile_template_value");
    expect(r.divergence!.detail).toContain("system.current_time");
  });
});

describe("compareRequests causes", () => {
  const openai = { provider: "openai" } as const;
  it.each<[string, NormalizedRequest, string, string]>([
    ["tools_changed", { ...base, tools: [...base.tools, { name: "c" }] }, "tools_changed", "tools[2]"],
    ["tool_order_changed", { ...base, tools: [base.tools[1]!, base.tools[0]!] }, "tool_order_changed", "tools[0]"],
    [
      "json_key_order_changed in a tool schema",
      {
        ...base,
        tools: [{ name: "a", inputSchema: { properties: { x: { type: "string" } }, type: "object" } }, base.tools[1]!],
      },
      "json_key_order_changed",
      "tools[0]",
    ],
    [
      "json_key_order_changed in tool-call arguments",
      withMessages(
        base.messages.map((m, i) =>
          i === 2 ? { ...m, content: [{ type: "tool_call", id: "c1", name: "a", arguments: { y: 2, x: "1" } }] } : m,
        ),
      ),
      "json_key_order_changed",
      "messages[2].content[0]",
    ],
    [
      "system_changed",
      withMessages([
        { role: "system", content: [{ type: "text", text: "You are verbose." }] },
        ...base.messages.slice(1),
      ]),
      "system_changed",
      "messages[0].content[0]",
    ],
    [
      "history_window_shifted",
      withMessages([
        base.messages[0]!,
        ...base.messages.slice(4),
        { role: "user", content: [{ type: "text", text: "three" }] },
      ]),
      "history_window_shifted",
      "messages[1].content[0]",
    ],
    [
      "message_edited",
      withMessages(base.messages.map((m, i) => (i === 4 ? { ...m, content: [{ type: "text", text: "TWO" }] } : m))),
      "message_edited",
      "messages[4].content[0]",
    ],
    ["truncated", withMessages(base.messages.slice(0, 4)), "truncated", "messages[4]"],
    ["model_changed", { ...base, model: { provider: "openai", model: "gpt-4o-mini" } }, "model_changed", "model"],
  ])("classifies %s", (_name, next, cause, path) => {
    const r = compareRequests(base, next, openai);
    expect(r.divergence).toMatchObject({ cause, path });
    expect(r.divergence!.bustsCache).toBe(cause !== "truncated");
  });

  it("compares a fingerprint bundle with a request to segment precision, without text", () => {
    const bundle = toFingerprintBundle(segmentRequest(turns[1]!, anthropic));
    expect(JSON.stringify(bundle)).not.toContain("Session started");
    const r = compareRequests(bundle, turns[2]!, anthropic);
    expect(r.divergence).toMatchObject({
      cause: "system_changed",
      path: "messages[0].content[0]",
      excerpt: null,
      byteOffset: 4307,
    });
    expect(r.commonPrefix).toEqual({ bytes: 4307, segments: 9, tokens: 1080 });
    expect(r.commonPrefix.bytes).toBe(bundle.segments[9]!.byteOffset);
    expect(compareRequests(turns[2]!, bundle, anthropic).identical).toBe(false);
    expect(compareRequests(turns[1]!, bundle, anthropic).identical).toBe(true);
    expect(compareRequests(bundle, bundle, anthropic).identical).toBe(true);
  });

  it("refuses a bundle made for another provider", () => {
    const bundle = toFingerprintBundle(segmentRequest(base, { provider: "openai" }));
    expect(() => compareRequests(bundle, base, anthropic)).toThrow(InvalidInputError);
  });
});

describe("compareRequests properties", () => {
  it("a request compared with itself is a full match", () => {
    fc.assert(
      fc.property(requestArb, providerArb, (req, provider) => {
        const r = compareRequests(req, structuredClone(req), { provider });
        expect(r.identical).toBe(true);
        expect(r.divergence).toBeNull();
        expect(r.commonPrefix).toEqual(r.next);
      }),
      { seed: 5101, numRuns: 150 },
    );
  });

  it("counts a plain text's tokens by its JSON's length, as an estimator that reads the JSON does (property, seed 5103)", () => {
    // The default estimator is given no JSON for a plain text block (its length is counted): the
    // same figures as a host estimator that computes ceil(length / 4) on the JSON it is given.
    const quarter = (text: string) => Math.ceil(text.length / 4);
    const texts = fc.oneof(
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.constantFrom(
        '"quoted" \\ back',
        "line\nfeed\ttab\rreturn",
        "bell\u0007 form\u000c",
        "lone \ud800",
        "\udc00",
        "é漢🙂",
      ),
    );
    const turn = (parts: string[]): NormalizedRequest => ({
      model: { provider: "openai", model: "gpt-4o" },
      tools: [],
      messages: parts.map((text, i) => ({ role: i % 2 ? "assistant" : "user", content: [{ type: "text", text }] })),
    });
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 8 }), texts, providerArb, (parts, edit, provider) => {
        const a = turn(parts);
        const b = turn([...parts.slice(0, -1), edit, ...parts.slice(1)]);
        expect(compareRequests(a, b, { provider })).toEqual(
          compareRequests(a, b, { provider, tokenEstimator: quarter }),
        );
        // Any other estimator is given each segment's JSON, as segmentRequest gives it.
        const chars = (text: string) => text.length;
        const seg = segmentRequest(b, { provider, tokenEstimator: chars });
        expect(compareRequests(a, b, { provider, tokenEstimator: chars }).next).toEqual({
          bytes: seg.totalBytes,
          segments: seg.segments.length,
          tokens: seg.totalTokens,
        });
      }),
      { seed: 5103, numRuns: 300 },
    );
  });

  it("appending a message gives cause appended and keeps the whole previous request", () => {
    fc.assert(
      fc.property(requestArb, messageArb, providerArb, (req, extra, provider) => {
        const next = { ...req, messages: [...req.messages, extra] };
        // Anthropic and Gemini hoist system messages: an appended system message is not at the end.
        fc.pre(provider === "openai" || extra.role !== "system");
        const r = compareRequests(req, next, { provider });
        expect(r.divergence?.cause).toBe("appended");
        expect(r.commonPrefix).toEqual(r.previous);
      }),
      { seed: 5102, numRuns: 150 },
    );
  });
});

describe("divergence excerpts read like the request", () => {
  it("show the request's own text around a change, never Strata's normalized JSON", () => {
    const body = (question: string) => ({
      model: "gpt-4.1",
      messages: [
        { role: "developer", content: "Answer briefly." },
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
            { type: "text", text: question },
          ],
        },
      ],
    });
    const r = compareRequests(wire(body("What is in the picture?")), wire(body("What is in the photo?")), {
      provider: "openai",
    });
    expect(r.divergence!.excerpt).toEqual({
      common: "tps://example.com/a.png What is in the p",
      previous: "icture?",
      next: "hoto?",
    });
    expect(JSON.stringify(r.divergence!.excerpt)).not.toContain("providerFields");
  });
});

describe("window-shift detection", () => {
  /** The definition, checked offset by offset: the least d ≥ 1 where a[d..] and b agree while both last. */
  function naiveShift(a: readonly string[], b: readonly string[]): number {
    if (b.length === 0 || a[0] === b[0]) return 0;
    for (let d = 1; d < a.length; d++) {
      let i = 0;
      while (d + i < a.length && i < b.length && a[d + i] === b[i]) i++;
      if (d + i === a.length || i === b.length) return d;
    }
    return 0;
  }

  it("finds the same shift as the offset-by-offset definition", () => {
    // Few distinct keys, so histories repeat and near-misses are common.
    const keys = fc.array(fc.constantFrom("u", "a", "x", "y"), { maxLength: 24 });
    fc.assert(
      fc.property(keys, keys, (a, b) => {
        expect(windowShiftOf(a, b)).toBe(naiveShift(a, b));
      }),
      { seed: 5103, numRuns: 2000 },
    );
    fc.assert(
      fc.property(keys, fc.integer({ min: 1, max: 6 }), keys, (history, d, added) => {
        const shifted = [...history.slice(d), ...added];
        expect(windowShiftOf(history, shifted)).toBe(naiveShift(history, shifted));
      }),
      { seed: 5104, numRuns: 2000 },
    );
  });

  const text = (role: "user" | "assistant", t: string) => ({ role, content: [{ type: "text" as const, text: t }] });
  const pairs = Array.from({ length: 2000 }, () => [
    text("user", "Same question?"),
    text("assistant", "Same answer."),
  ]).flat();
  const turn = (messages: NormalizedRequest["messages"]): NormalizedRequest => ({ ...base, tools: [], messages });

  it("a repeated history whose last message also changed is an edit, not a shift", () => {
    // [first, (user, assistant) × m, END-A] → [(user, assistant) × m, END-B]: next agrees with previous
    // shifted by one until its very last message, the shape a restart-per-offset search is quadratic on.
    const r = compareRequests(
      turn([text("user", "The first message."), ...pairs, text("user", "END-A")]),
      turn([...pairs, text("user", "END-B")]),
      { provider: "openai" },
    );
    expect(r.divergence).toMatchObject({ cause: "message_edited", path: "messages[0].content[0]" });
  });

  it("finds the same shift or move whether a turn keeps its texts as text (a request) or as JSON (segmentRequest)", () => {
    const openai = { provider: "openai" } as const;
    const few = pairs.slice(0, 40);
    const distinct = Array.from({ length: 30 }, (_, i) => text(i % 2 ? "assistant" : "user", `Line ${i} "quoted"\n`));
    for (const [previous, next] of [
      [turn([text("user", "The first message."), ...few]), turn([...few, text("user", "END-B")])],
      [turn(distinct), turn([text("user", "inserted"), ...distinct, text("user", "new")])],
      [turn(distinct), turn([...distinct.slice(3), text("user", "new")])],
      [turn([...few, text("user", "END-A")]), turn([...few, text("user", "END-B")])],
    ] as const) {
      const direct = compareRequests(previous, next, openai);
      expect(compareRequests(segmentRequest(previous, openai), next, openai)).toEqual(direct);
      expect(compareRequests(previous, segmentRequest(next, openai), openai)).toEqual(direct);
    }
  });

  it("the same history with only the first message dropped is a window shift", () => {
    const r = compareRequests(
      turn([text("user", "The first message."), ...pairs]),
      turn([...pairs, text("user", "END-B")]),
      { provider: "openai" },
    );
    expect(r.divergence).toMatchObject({ cause: "history_window_shifted", path: "messages[0].content[0]" });
    expect(r.divergence!.detail).toContain("dropped 1 message(s)");
  });
});
