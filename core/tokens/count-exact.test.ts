import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { segmentRequest } from "../cache/segments.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import { pdfBase64, pngBase64 } from "../test-support/images.ts";
import { TOKEN_COUNT_KEYS } from "../test-support/token-count.ts";
import { createOpenAITokenizer, type OpenAITokenizer } from "../tokenizers/openai/index.ts";
import { type CountPrefix, continuedMessages, countRequestTokens, countTokensWith } from "./count.ts";
import { OPENAI_FITTED_FRAMING } from "./coefficients.ts";
import { FULL_COUNT_KIT } from "./count-kit.ts";
import { countFigures } from "./count-prefix.ts";
import type { CountTokensOptions, Tokenizer } from "./types.ts";

let o200k: OpenAITokenizer;
let cl100k: OpenAITokenizer;
beforeAll(async () => {
  o200k = await createOpenAITokenizer("gpt-4o");
  cl100k = await createOpenAITokenizer("gpt-4");
});

const byJson: CountPrefix["same"] = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const fresh = (r: NormalizedRequest, o: CountTokensOptions) => countRequestTokens(r, o);
const goOn = (r: NormalizedRequest, o: CountTokensOptions, prefix: CountPrefix) =>
  countTokensWith(r, o, FULL_COUNT_KIT, prefix);

// ——— OpenAI requests as the parsers normalize them ———

const words = fc.constantFrom("Lisbon", "rain", "sunny", "¿qué tal?", "東京", "tool", " ", "\n", "forecast 21°C");
const text = fc.array(words, { maxLength: 6 }).map((w) => w.join(" "));

const reasoning = fc.record({ summary: text, encrypted: fc.string({ maxLength: 40 }) }).map(
  ({ summary, encrypted }): ContentBlock => ({
    type: "thinking",
    text: summary,
    signature: encrypted,
    providerFields: {
      "openai-responses": { item: { type: "reasoning", summary: [], encrypted_content: encrypted } },
    },
  }),
);

const toolResult: fc.Arbitrary<ContentBlock> = fc
  .oneof(
    text.map((t): JsonValue => t),
    fc.constant<JsonValue>({ today: { c: 19 } }),
    fc.constant<JsonValue>([
      { type: "input_text", text: "The chart:" },
      { type: "input_image", image_url: `data:image/png;base64,${pngBase64(640, 480)}` },
    ]),
  )
  .map((result): ContentBlock => ({ type: "tool_result", toolCallId: "call_1", name: "lookup", result }));

const block: fc.Arbitrary<ContentBlock> = fc.oneof(
  { arbitrary: text.map((t): ContentBlock => ({ type: "text", text: t })), weight: 4 },
  { arbitrary: reasoning, weight: 2 },
  { arbitrary: text.map((t): ContentBlock => ({ type: "thinking", text: t })), weight: 1 },
  {
    arbitrary: fc
      .record({ name: fc.constantFrom("lookup", "get_weather"), q: text })
      .map(({ name, q }): ContentBlock => ({ type: "tool_call", id: "call_1", name, arguments: { q } })),
    weight: 2,
  },
  { arbitrary: toolResult, weight: 2 },
  {
    arbitrary: fc.constantFrom<ContentBlock>(
      { type: "image", mimeType: "image/png", data: pngBase64(1024, 768) },
      { type: "image", url: "https://example.com/photo.jpg" },
      { type: "document", mimeType: "application/pdf", data: pdfBase64(2) },
      {
        type: "opaque",
        format: "openai-responses",
        wireType: "item_reference",
        value: { type: "item_reference", id: "x" },
      },
    ),
    weight: 1,
  },
);

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant("user" as const), content: fc.array(block, { minLength: 1, maxLength: 3 }) }),
  fc.record({ role: fc.constant("assistant" as const), content: fc.array(block, { minLength: 1, maxLength: 3 }) }),
  fc.record({ role: fc.constant("tool" as const), content: fc.array(toolResult, { minLength: 1, maxLength: 2 }) }),
  fc.record({
    role: fc.constant("system" as const),
    content: fc.array(
      text.map((t): ContentBlock => ({ type: "text", text: t })),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  // A user turn of tool results only: it continues the tool loop.
  fc.record({ role: fc.constant("user" as const), content: fc.array(toolResult, { minLength: 1, maxLength: 2 }) }),
);

const TOOLS: readonly ToolDefinition[] = [
  {
    name: "get_weather",
    description: "Current weather for a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    providerFields: { openai: { strict: true } },
  },
  { name: "lookup", description: "Look a word up.", inputSchema: { type: "object", properties: {} } },
  { name: "web_search", providerFields: { "openai-responses": { type: "web_search" } } },
];

const OPTIONS: readonly (NormalizedRequest["providerOptions"] | undefined)[] = [
  undefined,
  { tool_choice: "required" },
  { tool_choice: "none" },
  { tool_choice: { type: "function", function: { name: "lookup" } } },
  { response_format: { type: "json_schema", json_schema: { name: "trip", schema: { type: "object" } } } },
  { text: { format: { type: "json_schema", name: "trip", schema: { type: "object" } } } },
];

/** A conversation and the points where its requests end: each request appends to the one before. */
const chainArb = fc.record({
  model: fc.constantFrom("gpt-4o", "gpt-4", "o3-mini"),
  encoding: fc.constantFrom("o200k", "cl100k"),
  format: fc.constantFrom("openai-chat", "openai-responses", undefined),
  tools: fc.subarray([...TOOLS]),
  options: fc.constantFrom(...OPTIONS),
  system: fc.boolean(),
  messages: fc.array(message, { maxLength: 12 }),
  cuts: fc.uniqueArray(fc.nat(12), { minLength: 1, maxLength: 4 }),
});

type Chain = typeof chainArb extends fc.Arbitrary<infer T> ? T : never;

function requestsOf(c: Chain): NormalizedRequest[] {
  const system: Message = { role: "system", content: [{ type: "text", text: "You plan city trips." }] };
  const messages = c.system ? [system, ...c.messages] : c.messages;
  const base = { model: { provider: "openai", model: c.model }, tools: c.tools };
  const full: NormalizedRequest =
    c.options === undefined ? { ...base, messages } : { ...base, messages, providerOptions: c.options };
  const cuts = [...new Set(c.cuts.map((n) => Math.min(n, messages.length)))].sort((a, b) => a - b);
  return [...cuts, messages.length].map((n) => ({ ...full, messages: messages.slice(0, n) }));
}

const optionsOf = (c: Chain): CountTokensOptions => ({
  provider: "openai",
  tokenizer: c.encoding === "o200k" ? o200k : cl100k,
  ...(c.format === undefined ? {} : { format: c.format }),
});

describe("exactCount: perSegment", () => {
  it("is written when read, as it would have been written at once, with each segment's method", () => {
    fc.assert(
      fc.property(chainArb, (c) => {
        const request = requestsOf(c).at(-1)!;
        const options = optionsOf(c);
        const count = fresh(request, options);
        expect(Object.keys(count)).toEqual(TOKEN_COUNT_KEYS);
        const list = count.perSegment;
        expect(count.perSegment).toBe(list); // written once, then kept
        const cut = segmentRequest(request, { provider: "openai" }).segments;
        expect(list.map((x) => [x.index, x.path, x.kind])).toEqual(cut.map((x, i) => [i, x.path, x.kind]));
        expect(count.leading + list.reduce((t, x) => t + x.tokens, 0) + count.trailing).toBe(count.total);
        const figures = countFigures(count);
        expect(figures.length).toBe(list.length);
        expect(figures.runs.flatMap((r) => r.tokens)).toEqual(list.map((x) => x.tokens));
        // With the model's own encoding, headers and plain text are exact; calls, results, media and tools are not.
        const trusted = (c.encoding === "o200k") === (c.model !== "gpt-4");
        list.forEach((x, i) => {
          const s = cut[i]!;
          const block =
            s.kind === "block"
              ? request.messages[s.messageIndex!]!.content[Number(/\[(\d+)\]$/.exec(s.path)![1])]!
              : null;
          if (!trusted || s.kind === "tool" || (block !== null && !["text", "thinking"].includes(block.type)))
            expect(x.method).toBe("estimate");
          else if (s.kind === "message" || block?.type === "text") expect(x.method).toBe("exact");
          if (x.media.length > 0) expect(["image", "document", "tool_result"]).toContain(block?.type);
          if (block?.type === "image" || block?.type === "document") expect(x.media.length).toBe(1);
        });
        // What leaves the process: JSON and structured clone see the list like any other field.
        const again = fresh(request, options);
        expect(structuredClone(again)).toEqual(JSON.parse(JSON.stringify(count)));
        expect(JSON.stringify({ ...again })).toBe(JSON.stringify(count));
      }),
      { numRuns: 150 },
    );
  });
});

describe("exactCount: framing that depends on a segment's neighbours", () => {
  const model = { provider: "openai", model: "gpt-4o" } as const;
  const call = (id: string, city: string): ContentBlock => ({
    type: "tool_call",
    id,
    name: "get_weather",
    arguments: { city },
  });
  const result = (id: string): ContentBlock => ({
    type: "tool_result",
    toolCallId: id,
    name: "get_weather",
    result: "21°C",
  });
  const user: Message = { role: "user", content: [{ type: "text", text: "Weather in Lisbon and Porto?" }] };
  const tokensOf = (messages: Message[], format: "openai-chat" | "openai-responses" = "openai-chat") => {
    const request = { model, tools: [], messages } as unknown as NormalizedRequest;
    const count = countRequestTokens(request, { provider: "openai", tokenizer: o200k, format });
    return new Map(count.perSegment.map((s) => [s.path, s.tokens]));
  };

  it("adds the fitted parallel-calls framing to the first call of a message with several, once", () => {
    for (const format of ["openai-chat", "openai-responses"] as const) {
      const alone = tokensOf([user, { role: "assistant", content: [call("a", "Lisbon")] }], format);
      const both = tokensOf([user, { role: "assistant", content: [call("a", "Lisbon"), call("b", "Lisbon")] }], format);
      const single = alone.get("messages[1].content[0]")!;
      expect(both.get("messages[1].content[0]")! - single).toBe(OPENAI_FITTED_FRAMING[format].parallelCalls);
      expect(both.get("messages[1].content[1]")).toBe(single);
    }
  });

  it("frames every result after the first in one tool message as a wire message of its own", () => {
    const segments = tokensOf([
      user,
      { role: "assistant", content: [call("a", "Lisbon"), call("b", "Porto")] },
      { role: "tool", content: [result("a"), result("b")] },
    ]);
    const first = segments.get("messages[2].content[0]")!;
    // The tool message's header holds the first result's framing: the second pays the same again.
    expect(segments.get("messages[2].content[1]")! - first).toBe(segments.get("messages[2]")!);
  });
});

describe("exactCount: going on from an earlier exact count", () => {
  it("gives the fresh count for every request of a chain of appends, the earlier request re-read or not", () => {
    let continuedSome = 0;
    fc.assert(
      fc.property(chainArb, (c) => {
        const options = optionsOf(c);
        const [first, ...rest] = requestsOf(c);
        let count = fresh(first!, options);
        let request = first!;
        for (const next of rest) {
          const expected = fresh(next, options);
          const goneOn = goOn(next, options, { count });
          expect(goneOn).toEqual(expected);
          if (continuedMessages(goneOn) >= 0) continuedSome++;
          // The same request read again (a session's next entry): pieces compared by their JSON.
          const reread = JSON.parse(JSON.stringify(next)) as NormalizedRequest;
          expect(goOn(reread, options, { count, same: byJson })).toEqual(expected);
          // And the earlier request re-read: its count (of other objects) lends where it ended.
          const earlier = goOn(JSON.parse(JSON.stringify(request)) as NormalizedRequest, options, { count });
          expect(goOn(next, options, { count: earlier, same: byJson })).toEqual(expected);
          count = goneOn;
          request = next;
        }
      }),
      { numRuns: 400 },
    );
    // Most chains go on (a refused continuation would pass the comparison above too).
    expect(continuedSome).toBeGreaterThan(300);
  });

  const user = (t: string): Message => ({ role: "user", content: [{ type: "text", text: t }] });
  const assistant = (...content: ContentBlock[]): Message => ({ role: "assistant", content });
  const thought: ContentBlock = {
    type: "thinking",
    text: "Check the weather first.",
    signature: "gAAAAABo8k2xQ0v1Zt3lTq9bN4uXhS7pYcR2mWdJ6eK0aF5iL8oV3gU1yE9sD4tH",
    providerFields: { "openai-responses": { item: { type: "reasoning", summary: [] } } },
  };
  const call: ContentBlock = { type: "tool_call", id: "c1", name: "get_weather", arguments: { city: "Lisbon" } };
  const result: Message = {
    role: "tool",
    content: [{ type: "tool_result", toolCallId: "c1", name: "get_weather", result: "21°C, clear" }],
  };
  const base: NormalizedRequest = {
    model: { provider: "openai", model: "gpt-4o" },
    tools: [TOOLS[0]!, TOOLS[2]!],
    messages: [user("What should I do in Lisbon on Saturday?"), assistant(thought, call), result],
  };

  /** Counts `next` on from `before`'s count: the fresh count, and whether it went on. */
  function onFrom(
    before: NormalizedRequest,
    next: NormalizedRequest,
    o: CountTokensOptions = { provider: "openai", tokenizer: o200k },
    n: CountTokensOptions = o,
  ): number {
    const goneOn = goOn(next, n, { count: fresh(before, o) });
    expect(goneOn).toEqual(fresh(next, n));
    return continuedMessages(goneOn);
  }
  const appended = (r: NormalizedRequest, ...more: Message[]) => ({ ...r, messages: [...r.messages, ...more] });

  it("walks only the appended messages, and says how many it took from the earlier count", () => {
    const before = fresh(base, { provider: "openai", tokenizer: o200k });
    const next = appended(base, assistant({ type: "text", text: "Sunny: go to Belém." }));
    const goneOn = goOn(next, { provider: "openai", tokenizer: o200k }, { count: before });
    // The earlier count's figures are shared, not walked again: its run, then the appended message's two segments.
    const runs = countFigures(goneOn).runs;
    expect(runs[0]).toBe(countFigures(before).runs[0]);
    expect(runs.map((r) => r.tokens.length)).toEqual([countFigures(before).length, 2]);
    expect(goneOn).toEqual(fresh(next, { provider: "openai", tokenizer: o200k }));
    expect(continuedMessages(goneOn)).toBe(3);
    // The reasoning item stays in the tool loop: still counted on.
    expect(onFrom(base, appended(base, assistant(thought, call), result))).toBe(3);
  });

  it("counts again when the tool loop moves past a reasoning item it counted", () => {
    // A user's next input closes the loop: the reasoning item is no longer billed.
    expect(onFrom(base, appended(base, user("Thanks!")))).toBe(-1);
    // Without reasoning in the loop, a moved loop changes nothing counted.
    const plain = { ...base, messages: [base.messages[0]!, assistant(call), result] };
    expect(onFrom(plain, appended(plain, user("Thanks!")))).toBe(3);
    // Reasoning counted two requests back, kept in the loop by the request between: still a moved loop.
    const middle = appended(base, assistant(call), result);
    const middleCount = goOn(
      middle,
      { provider: "openai", tokenizer: o200k },
      {
        count: fresh(base, { provider: "openai", tokenizer: o200k }),
      },
    );
    expect(continuedMessages(middleCount)).toBe(3);
    const closed = appended(middle, user("Thanks!"));
    const goneOn = goOn(closed, { provider: "openai", tokenizer: o200k }, { count: middleCount });
    expect(goneOn).toEqual(fresh(closed, { provider: "openai", tokenizer: o200k }));
    expect(continuedMessages(goneOn)).toBe(-1);
  });

  it("counts again when a first system message is appended: function definitions share it", () => {
    const system: Message = { role: "system", content: [{ type: "text", text: "Be brief." }] };
    expect(onFrom(base, appended(base, system))).toBe(-1);
    const withSystem = { ...base, messages: [system, base.messages[0]!, assistant(call), result] };
    expect(onFrom(withSystem, appended(withSystem, system, user("Hi")))).toBe(4);
  });

  it("counts again under another model, format or tokenizer, or with other tools or options", () => {
    // (The tool loop goes on: only the guard under test refuses.)
    const next = appended(base, assistant(call), result);
    const o = { provider: "openai", tokenizer: o200k } as const;
    expect(onFrom(base, next, o)).toBe(3);
    expect(onFrom(base, next, o, { ...o, model: "gpt-4" })).toBe(-1);
    expect(onFrom(base, next, o, { ...o, format: "openai-chat" })).toBe(-1);
    expect(onFrom(base, next, o, { ...o, tokenizer: cl100k })).toBe(-1);
    // Another tokenizer object of the same encoding: its counts are not known to be the same.
    const other: Tokenizer = { ...o200k, count: (t) => o200k.count(t) + 1 };
    expect(onFrom(base, next, o, { ...o, tokenizer: other })).toBe(-1);
    expect(onFrom(base, { ...next, tools: [TOOLS[1]!, ...base.tools] })).toBe(-1);
    expect(onFrom(base, { ...next, providerOptions: { tool_choice: "required" } })).toBe(-1);
    const edited = { ...next, messages: [user("What about Porto?"), ...next.messages.slice(1)] };
    expect(onFrom(base, edited)).toBe(-1);
    // An estimate does not lend its end to an exact count, nor an exact count to an estimate.
    expect(onFrom(base, next, { provider: "openai" }, o)).toBe(-1);
    expect(onFrom(base, next, o, { provider: "openai" })).toBe(-1);
  });

  it("keeps the notes in a fresh count's order: segments' notes, then the response schema's", () => {
    const schema = { response_format: { type: "json_schema", json_schema: { name: "t", schema: {} } } } as const;
    const withSchema: NormalizedRequest = {
      ...base,
      messages: [base.messages[0]!, assistant(call), result],
      providerOptions: schema,
    };
    const next = appended(withSchema, user("A photo:"), {
      role: "user",
      content: [{ type: "image", url: "https://example.com/p.jpg" }],
    });
    const goneOn = goOn(
      next,
      { provider: "openai", tokenizer: cl100k },
      {
        count: fresh(withSchema, { provider: "openai", tokenizer: cl100k }),
      },
    );
    expect(continuedMessages(goneOn)).toBe(3);
    expect(goneOn.notes.map((n) => n.code)).toEqual([
      "tokenizer_mismatch",
      "server_tool",
      "media_size_unknown",
      "framing_estimated",
    ]);
    expect(goneOn).toEqual(fresh(next, { provider: "openai", tokenizer: cl100k }));
  });
});
