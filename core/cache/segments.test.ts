import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenEstimatorError } from "../tokens/errors.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { providerArb, requestArb } from "../test-support/arbitraries.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { sha256Hex } from "../util/hash.ts";
import { utf8Length } from "../util/utf8.ts";
import { segmentRequest, serializeRequest } from "./segments.ts";
import { countedMeasure, segmentCounted } from "./counted.ts";
import { plainTextBytes, plainTextJson } from "./segment-json.ts";
import { keepsPlainText, plainSegment, segmentJson } from "./segment-record.ts";
import { commonPrefix, commonSegments, toTurn, type Turn } from "./compare.ts";
import { FULL_COUNT_KIT } from "../tokens/count-kit.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { createOpenAITokenizer } from "../tokenizers/openai/index.ts";
import { continuedMessages } from "../tokens/count.ts";
import { samples } from "../test-support/samples.ts";

function wire(value: unknown): NormalizedRequest {
  const p = parseRequest(value);
  if (p.format === "strata") throw new Error("expected a wire request");
  return p.request;
}

const mixed: NormalizedRequest = {
  model: { provider: "openai", model: "gpt-4o" },
  tools: [{ name: "t", inputSchema: { type: "object" } }],
  providerOptions: { tool_choice: "auto", toolConfig: { mode: "ANY" } },
  messages: [
    { role: "system", content: [{ type: "text", text: "sys" }] },
    { role: "user", content: [{ type: "text", text: "hi" }] },
    { role: "system", content: [{ type: "text", text: "summary" }] },
    { role: "user", content: [{ type: "text", text: "again" }] },
  ],
};

describe("segmentRequest", () => {
  it.each([
    [
      "anthropic",
      [
        "tools[0]",
        "messages[0]",
        "messages[0].content[0]",
        "providerOptions.tool_choice",
        "messages[1]",
        "messages[1].content[0]",
        "messages[2]",
        "messages[2].content[0]",
        "messages[3]",
        "messages[3].content[0]",
      ],
    ],
    [
      "openai",
      [
        "tools[0]",
        "providerOptions.tool_choice",
        "messages[0]",
        "messages[0].content[0]",
        "messages[1]",
        "messages[1].content[0]",
        "messages[2]",
        "messages[2].content[0]",
        "messages[3]",
        "messages[3].content[0]",
      ],
    ],
    [
      "gemini",
      [
        "tools[0]",
        "providerOptions.toolConfig",
        "messages[0]",
        "messages[0].content[0]",
        "messages[1]",
        "messages[1].content[0]",
        "messages[2]",
        "messages[2].content[0]",
        "messages[3]",
        "messages[3].content[0]",
      ],
    ],
  ] as const)("puts a %s request in that provider's prompt order", (provider, paths) => {
    expect(segmentRequest(mixed, { provider }).segments.map((s) => s.path)).toEqual(paths);
  });

  it("marks the cache levels and the blocks that carry breakpoints", () => {
    const seg = segmentRequest(wire(conversationTurns[0]), { provider: "anthropic" });
    expect(seg.segments.map((s) => s.region)).toEqual([
      ...Array(8).fill("tools"),
      "system",
      "system",
      "messages",
      "messages",
    ]);
    expect(seg.segments.filter((s) => s.cacheBreakpoint).map((s) => s.path)).toEqual([
      "tools[7]",
      "messages[0].content[0]",
      "messages[1].content[0]",
    ]);
  });

  it("hashes each segment's UTF-8 bytes, and cache markers change no hash", () => {
    const req = wire(conversationTurns[0]);
    const seg = segmentRequest(req, { provider: "anthropic" });
    seg.segments.forEach((s, i) => expect(s.sha256).toBe(sha256Hex(seg.texts[i]!)));
    const unmarked = { ...req, tools: req.tools.map(({ cache: _c, ...t }) => t) };
    expect(segmentRequest(unmarked, { provider: "anthropic" }).segments.map((s) => s.sha256)).toEqual(
      seg.segments.map((s) => s.sha256),
    );
  });

  it("uses an injected token estimator and rejects a bad one", () => {
    const seg = segmentRequest(mixed, { provider: "openai", tokenEstimator: () => 2 });
    expect(seg.totalTokens).toBe(2 * seg.segments.length);
    expect(() => segmentRequest(mixed, { provider: "openai", tokenEstimator: () => -1 })).toThrow(TokenEstimatorError);
    expect(() => segmentRequest(mixed, { provider: "openai", tokenEstimator: () => Number.NaN })).toThrow(
      /finite, non-negative/,
    );
  });

  it("byte offsets and lengths add up to the serialized length (property)", () => {
    fc.assert(
      fc.property(requestArb, providerArb, (req, provider) => {
        const seg = segmentRequest(req, { provider });
        const serialized = serializeRequest(req, { provider });
        let offset = 0;
        for (const s of seg.segments) {
          expect(s.byteOffset).toBe(offset);
          offset += s.byteLength;
        }
        expect(offset).toBe(utf8Length(serialized));
        expect(seg.totalBytes).toBe(offset);
      }),
      { seed: 5005, numRuns: 150 },
    );
  });

  it("is linear: a long history segments without re-measuring", () => {
    const messages = Array.from(
      { length: 2000 },
      (_, i) => ({ role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `message ${i}` }] }) as const,
    );
    const seg = segmentRequest(
      { model: { provider: "x", model: "m" }, tools: [], messages },
      { provider: "anthropic" },
    );
    expect(seg.segments.length).toBe(4000);
  });
});

describe("segmentCounted with the previous turn as twin", () => {
  // A session keeps each turn's segments plain and hands them to the next turn as its twin: when
  // the count goes on from the twin's, the segments of the messages the twin already had are taken
  // from it. They must be exactly the segments a fresh segmentation writes.
  const turns = samples.flatMap((s) => {
    const parsed = parseRequest(s.data);
    if (parsed.format === "strata") return [];
    const request = parsed.request;
    const n = request.messages.length;
    return n < 2 ? [] : [{ id: s.id, request, previous: { ...request, messages: request.messages.slice(0, n - 1) } }];
  });

  it("takes the segments from the twin when the count went on from it, and they are the fresh ones", () => {
    let continued = 0;
    for (const { request, previous } of turns)
      for (const provider of ["openai", "anthropic", "gemini"] as const) {
        const alone = segmentCounted(request, { provider });
        // The previous turn as a session has it: re-read from JSON, so its pieces are equal, not the same objects.
        const twin = segmentCounted(JSON.parse(JSON.stringify(previous)) as NormalizedRequest, { provider });
        const next = segmentCounted(request, { provider }, twin);
        if (continuedMessages(next.count) === previous.messages.length) continued++;
        expect(next.segments).toEqual(alone.segments);
        expect(next.texts).toEqual(alone.texts);
        expect(next.count).toEqual(alone.count);
        // A previous turn whose first message was edited lends nothing it does not share.
        const edited = structuredClone(previous);
        edited.messages[0] = { ...edited.messages[0]!, content: [{ type: "text", text: "edited" }] };
        const afterEdit = segmentCounted(request, { provider }, segmentCounted(edited, { provider }));
        expect(continuedMessages(afterEdit.count)).toBe(-1);
        expect(afterEdit.segments).toEqual(alone.segments);
        expect(afterEdit.texts).toEqual(alone.texts);
      }
    // Most samples end with a plain append (the others' last message closes a tool loop with reasoning).
    expect(continued).toBeGreaterThanOrEqual(12);
  });
});

describe("a turn segmented with the other turn's records as its twin (as inspect does)", () => {
  // Where a segment repeats and reads the same, the twin's record itself stands in this turn; a
  // segment whose figures differ (the last one of the shorter turn carries the reply's framing in
  // an exact OpenAI count) must get a record of its own. Either way: the fresh segments.
  const requests = samples.flatMap((s) => {
    const parsed = parseRequest(s.data);
    return parsed.format === "strata" || parsed.request.messages.length < 2 ? [] : [parsed.request];
  });
  // And one whose first message's blocks are cached for an hour (`ttl1h` lists them), with
  // Anthropic's automatic caching for an hour too (its last block is listed).
  const first = requests[0]!;
  const head = first.messages[0]!;
  const hour: NormalizedRequest = {
    ...first,
    providerOptions: { ...first.providerOptions, cache_control: { type: "ephemeral", ttl: "1h" } },
    messages: [
      { ...head, content: head.content.map((b) => ({ ...b, cache: { type: "ephemeral", ttl: "1h" } as const })) },
      ...first.messages.slice(1),
    ],
  };
  requests.push(hour);
  const reply = { role: "assistant" as const, content: [{ type: "text" as const, text: "Done." }] };

  it("gives the segments a fresh segmentation gives, estimated and counted exactly", async () => {
    const tokenizer = await createOpenAITokenizer("gpt-4o");
    let reused = 0;
    let ttl1h = 0;
    for (const request of requests)
      for (const provider of ["openai", "anthropic", "gemini"] as const)
        for (const options of [{}, ...(provider === "openai" ? [{ tokenizer }] : [])]) {
          const measure = countedMeasure(provider, estimateTextTokens, FULL_COUNT_KIT, options);
          const shorter = { ...request, messages: request.messages.slice(0, -1) };
          const longer = { ...request, messages: [...request.messages, reply] };
          // An earlier message of another length: the same texts later on sit at other offsets.
          const first = request.messages[0]!;
          const edited = {
            ...request,
            messages: [
              { ...first, content: [{ type: "text" as const, text: "edited!" }] },
              ...request.messages.slice(1),
            ],
          };
          for (const [a, b] of [
            [shorter, request],
            [request, longer],
            [edited, request],
            [request, request], // the same request again: every segment is the twin's
            // Another tool choice before the same messages: every later segment sits elsewhere.
            [
              { ...shorter, providerOptions: { ...shorter.providerOptions, tool_choice: "auto" } },
              { ...request, providerOptions: { ...request.providerOptions, tool_choice: "required" } },
            ],
          ] as const) {
            const twin = measure.segment(a);
            const next = measure.segment(b, twin);
            const alone = measure.segment(b);
            expect(next.segments.map(plainSegment)).toEqual(alone.segments.map(plainSegment));
            expect(next.texts).toEqual(alone.texts);
            expect([next.ttl1h, next.totalBytes, next.totalTokens]).toEqual([
              alone.ttl1h,
              alone.totalBytes,
              alone.totalTokens,
            ]);
            ttl1h += next.ttl1h.length;
            reused += next.segments.filter((x, i) => x === twin.segments[i]).length;
          }
        }
    // The twin's records are taken for most of the history, blocks cached for an hour included.
    expect(reused).toBeGreaterThan(500);
    expect(ttl1h).toBeGreaterThan(0);
  });
});

describe("plain text blocks kept as their own text (counted segmentation)", () => {
  // A counted segmentation keeps a plain text block's own text instead of its JSON: its size is
  // measured without writing the JSON, and the JSON is written only to hash or show it. Every figure
  // must be the one a segmentation that writes the JSON gives.
  const requests = samples.flatMap((s) => {
    const parsed = parseRequest(s.data);
    return parsed.format === "strata" ? [] : [parsed.request];
  });
  // Texts JSON escapes in every way: quotes, backslashes, \n \r \t, \b \f, other controls, lone
  // surrogates (written as \u escapes), astral characters, U+2028 (not escaped).
  const awkward = fc.oneof(
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.string({
      unit: fc.constantFrom(
        '"',
        "\\",
        "\n",
        "\r",
        "\t",
        "\b",
        "\f",
        "\u0000",
        "\u001f",
        "\ud800",
        "\udc00",
        "😀",
        "\u2028",
        "é",
        "a",
      ),
      maxLength: 40,
    }),
  );

  it("measures a plain text block's JSON exactly without writing it (property)", () => {
    fc.assert(
      fc.property(awkward, (text) => {
        const json = plainTextJson(text);
        expect(json).toBe(JSON.stringify({ type: "text", text }));
        expect(plainTextBytes(text)).toBe(utf8Length(json));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives every segment the size, hashes and JSON of a segmentation that writes JSON", async () => {
    const tokenizer = await createOpenAITokenizer("gpt-4o");
    let kept = 0;
    const withAwkward = (r: NormalizedRequest): NormalizedRequest => ({
      ...r,
      messages: [
        ...r.messages,
        { role: "user", content: [{ type: "text", text: 'a "quote", \\ \n\t\r \b\u0001 \ud800 😀' }] },
      ],
    });
    for (const request of [...requests.map(withAwkward), ...requests])
      for (const provider of ["openai", "anthropic", "gemini"] as const)
        for (const options of [{}, ...(provider === "openai" ? [{ tokenizer }] : [])]) {
          const counted = countedMeasure(provider, estimateTextTokens, FULL_COUNT_KIT, options).segment(request);
          const written = segmentRequest(request, { provider });
          expect(counted.segments.length).toBe(written.segments.length);
          counted.segments.forEach((s, i) => {
            if (keepsPlainText(s)) kept++;
            expect(segmentJson(s, counted.texts[i]!)).toBe(written.texts[i]);
            const w = written.segments[i]!;
            expect([s.byteOffset, s.byteLength, s.sha256, s.canonicalSha256]).toEqual([
              w.byteOffset,
              w.byteLength,
              w.sha256,
              w.canonicalSha256,
            ]);
          });
          expect(counted.totalBytes).toBe(written.totalBytes);
          // What leaves the engine is JSON.
          expect(segmentCounted(request, { provider }).texts).toEqual(written.texts);
        }
    expect(kept).toBeGreaterThan(100);
  });

  it("compares a kept text with the same block written as JSON (a session's or a caller's segments)", () => {
    for (const request of requests)
      for (const provider of ["openai", "anthropic", "gemini"] as const) {
        const measure = countedMeasure(provider, estimateTextTokens, FULL_COUNT_KIT);
        const kept = toTurn(measure.segment(request), provider, estimateTextTokens);
        const json = toTurn(segmentCounted(request, { provider }), provider, estimateTextTokens);
        expect(commonSegments(kept, json)).toBe(kept.segments.length);
        expect(commonSegments(json, kept)).toBe(kept.segments.length);
        // Taken as the twin, the JSON segments lend themselves where a kept text repeats them.
        const next = measure.segment(request, segmentCounted(request, { provider }));
        expect(next.segments.map(plainSegment)).toEqual(measure.segment(request).segments.map(plainSegment));
        // An edit inside a plain text shows at the same character, whichever way each side is kept.
        const last = request.messages.length - 1;
        const block = request.messages[last]!.content.findIndex(
          (b) => b.type === "text" && b.providerFields === undefined,
        );
        if (block < 0) continue;
        const edited = structuredClone(request);
        const b = edited.messages[last]!.content[block] as { text: string };
        b.text = `${b.text}!`;
        const prefix = (x: Turn, y: Turn) => commonPrefix(x, y, estimateTextTokens);
        const editedKept = toTurn(measure.segment(edited), provider, estimateTextTokens);
        const editedJson = toTurn(segmentCounted(edited, { provider }), provider, estimateTextTokens);
        expect(prefix(kept, editedKept)).toEqual(prefix(json, editedJson));
        expect(prefix(kept, editedJson)).toEqual(prefix(json, editedJson));
      }
  });

  it("segments a request past the presized size, or over several chunks below it, as one small request: no holes, texts aligned", () => {
    // 22,000 messages of three blocks each: 88,000 segments, past PRESIZED_FROM (65,536); 5,000
    // messages: 20,002 segments, appended over three chunks of 8,192 and joined.
    const request = (count: number): NormalizedRequest =>
      ({
        model: { provider: "openai", model: "gpt-4o" },
        tools: [{ name: "lookup", description: "finds", inputSchema: { type: "object" } }],
        providerOptions: { tool_choice: "auto" },
        messages: Array.from({ length: count }, (_, i) => ({
          role: i % 2 === 0 ? "user" : "assistant",
          content: [
            { type: "text", text: `question ${i}` },
            { type: "text", text: "same" },
            { type: "text", text: `tail ${i % 7}` },
          ],
        })),
      }) as unknown as NormalizedRequest;
    for (const count of [2_000, 5_000, 22_000]) {
      const seg = segmentRequest(request(count), { provider: "openai" });
      const expected = 1 + 1 + count * 4; // the tool, the tool choice, a header and three blocks per message
      expect(seg.segments).toHaveLength(expected);
      expect(Object.keys(seg.segments)).toHaveLength(expected); // no holes
      expect(Object.keys(seg.texts)).toHaveLength(expected);
      expect(seg.segments.every((s, i) => s.index === i)).toBe(true);
      expect(seg.segments.at(-1)!.path).toBe(`messages[${count - 1}].content[2]`);
      // Each text is its segment's, across the chunk boundaries too.
      const req = request(count);
      for (const i of [8_191, 8_192, 8_193, 16_383, 16_384, 20_001, expected - 1].filter((i) => i < expected)) {
        const s = seg.segments[i]!;
        const m = req.messages[s.messageIndex!]!;
        expect(JSON.parse(seg.texts[i]!)).toEqual(
          s.kind === "message"
            ? { role: m.role }
            : { type: "text", text: (m.content[Number(/\[(\d+)\]$/.exec(s.path)![1])] as { text: string }).text },
        );
      }
      expect(seg.texts.every((t, i) => utf8Length(t) === seg.segments[i]!.byteLength)).toBe(true);
      expect(
        seg.segments.every(
          (s, i) => i === 0 || s.byteOffset === seg.segments[i - 1]!.byteOffset + seg.segments[i - 1]!.byteLength,
        ),
      ).toBe(true);
    }
  });
});
