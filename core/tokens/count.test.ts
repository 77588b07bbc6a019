import fc from "fast-check";
import { functionCallingTestCases } from "gpt-tokenizer/fixtures/functionCallingTestCases";
import { beforeAll, describe, expect, it } from "vitest";
import { segmentRequest } from "../cache/segments.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { parseRequest } from "../request/parse-request.ts";
import { createOpenAITokenizer, type OpenAITokenizer } from "../tokenizers/openai/index.ts";
import { messageArb, requestArb } from "../test-support/arbitraries.ts";
import { TOKEN_COUNT_KEYS } from "../test-support/token-count.ts";
import type { Message } from "../messages/types.ts";
import { pdfBase64, pngBase64 } from "../test-support/images.ts";
import { samples } from "../test-support/samples.ts";
import { InvalidInputError } from "../util/errors.ts";
import { continuedMessages, countRequestTokens, countTokensWith, segmentOrderOf } from "./count.ts";
import { type CountFigures, countFigures } from "./count-prefix.ts";
import { SegmentWalk } from "./segment-order.ts";
import { leadingSystemCount } from "../formats/system-placement.ts";
import { completeCountKit, lazyCountKit } from "./count-lazy.ts";
import { FULL_COUNT_KIT } from "./count-kit.ts";
import { requestHasMedia } from "./segment-content.ts";
import type { TokenCount, TokenProvider } from "./types.ts";

/** A count's figures as [tokens, kind] per segment, whatever runs they are kept in. */
const flatFigures = (figures: CountFigures) =>
  figures.runs.flatMap((run) => run.tokens.map((tokens, i) => [tokens, run.kinds.kind(i)]));

let o200k: OpenAITokenizer;
let cl100k: OpenAITokenizer;
beforeAll(async () => {
  o200k = await createOpenAITokenizer("gpt-4o");
  cl100k = await createOpenAITokenizer("gpt-4-0613");
});

const wireSamples = samples.flatMap((s) => {
  const p = parseRequest(s.data);
  return p.format === "strata" ? [] : [{ id: s.id, request: p.request }];
});

const text = (t: string) => ({ type: "text" as const, text: t });
const request = (
  messages: NormalizedRequest["messages"],
  extra: Partial<NormalizedRequest> = {},
): NormalizedRequest => ({
  model: { provider: "openai", model: "gpt-4o" },
  messages,
  tools: [],
  ...extra,
});

const sum = (c: TokenCount) => c.leading + c.perSegment.reduce((s, x) => s + x.tokens, 0) + c.trailing;
const PROVIDERS: readonly TokenProvider[] = ["openai", "anthropic", "gemini", "bedrock"];

describe("countRequestTokens: segments", () => {
  it.each(wireSamples)(
    "lines up with segmentRequest's segments for the $id sample, for every provider",
    ({ request }) => {
      for (const provider of PROVIDERS) {
        const count = countRequestTokens(request, { provider });
        const segments = segmentRequest(request, { provider: segmentOrderOf(provider) }).segments;
        expect(count.perSegment.map((s) => [s.index, s.path, s.kind])).toEqual(
          segments.map((s) => [s.index, s.path, s.kind]),
        );
        expect(sum(count)).toBe(count.total);
      }
    },
  );

  it("lines up with segmentRequest on arbitrary requests, and its total is the sum of its parts", () => {
    fc.assert(
      fc.property(requestArb, fc.constantFrom(...PROVIDERS), (req, provider) => {
        const count = countRequestTokens(req, { provider });
        const segments = segmentRequest(req, { provider: segmentOrderOf(provider) }).segments;
        expect(count.perSegment.map((s) => s.path)).toEqual(segments.map((s) => s.path));
        expect(sum(count)).toBe(count.total);
        expect(count.low).toBeLessThanOrEqual(count.total);
        expect(count.high).toBeGreaterThanOrEqual(count.total);
        for (const s of count.perSegment) expect(Number.isInteger(s.tokens) && s.tokens >= 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("counts a request that appends to an earlier count's request from where that one ended, with the same result", () => {
    // A next turn as inspect simulates it: the same message objects, then more messages.
    fc.assert(
      fc.property(
        requestArb,
        fc.array(fc.array(messageArb, { maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...PROVIDERS),
        (req, appends, provider) => {
          let request = req;
          let count = countTokensWith(request, { provider }, FULL_COUNT_KIT);
          for (const tail of appends) {
            request = { ...request, messages: [...request.messages, ...tail] };
            const goneOn = countTokensWith(request, { provider }, FULL_COUNT_KIT, { count });
            const freshCount = countRequestTokens(request, { provider });
            const fresh = JSON.stringify(freshCount);
            expect(JSON.stringify(goneOn)).toBe(fresh);
            // The figures the cache layer reads, run by run: the same, and the earlier count's runs
            // are held, not copied, when the count went on.
            expect(flatFigures(countFigures(goneOn))).toEqual(flatFigures(countFigures(freshCount)));
            if (continuedMessages(goneOn) >= 0) {
              const earlier = countFigures(count).runs;
              earlier.forEach((run, k) => expect(countFigures(goneOn).runs[k]).toBe(run));
            }
            // The same request read again (a session's next entry): pieces compared by their JSON.
            const reread = JSON.parse(JSON.stringify(request)) as NormalizedRequest;
            const byContent = { count, same: (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b) };
            expect(JSON.stringify(countTokensWith(reread, { provider }, FULL_COUNT_KIT, byContent))).toBe(fresh);
            count = goneOn;
          }
        },
      ),
      { numRuns: 300 },
    );
    const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
    const base: NormalizedRequest = {
      model: { provider: "anthropic", model: "claude-sonnet-4-5" },
      tools: [],
      messages: [user("Where is my parcel?")],
    };
    const reply: Message = { role: "assistant", content: [{ type: "text", text: "In Rotterdam." }] };
    const first = countTokensWith(base, { provider: "anthropic" }, FULL_COUNT_KIT);
    const next = { ...base, messages: [...base.messages, reply, user("And now?")] };
    // Went on: the earlier count's one message was taken, not walked again.
    const goneOn = countTokensWith(next, { provider: "anthropic" }, FULL_COUNT_KIT, { count: first });
    expect(continuedMessages(goneOn)).toBe(1);
    expect(continuedMessages(first)).toBe(-1);
    expect(goneOn).toEqual(countRequestTokens(next, { provider: "anthropic" }));
    // Reasoning in the loop the next input closes changes its features: counted again, from the start.
    const thinking: Message = {
      role: "assistant",
      content: [{ type: "thinking", text: "Look it up.", signature: "sig" }],
    };
    const looped = { ...base, messages: [...base.messages, thinking] };
    const loopedCount = countTokensWith(looped, { provider: "anthropic" }, FULL_COUNT_KIT);
    const closed = { ...looped, messages: [...looped.messages, user("Thanks")] };
    const recount = countTokensWith(closed, { provider: "anthropic" }, FULL_COUNT_KIT, { count: loopedCount });
    expect(continuedMessages(recount)).toBe(-1);
    expect(recount).toEqual(countRequestTokens(closed, { provider: "anthropic" }));
    // One more leading system message moves Anthropic's tool_choice segment: counted again.
    const system: Message = { role: "system", content: [{ type: "text", text: "Be brief." }] };
    const chosen: NormalizedRequest = {
      ...base,
      messages: [system],
      providerOptions: { tool_choice: { type: "auto" } },
    };
    const twoSystems = { ...chosen, messages: [system, system, user("Hi")] };
    for (const provider of ["anthropic", "gemini"] as const)
      expect(
        countTokensWith(twoSystems, { provider }, FULL_COUNT_KIT, {
          count: countTokensWith(chosen, { provider }, FULL_COUNT_KIT),
        }),
      ).toEqual(countRequestTokens(twoSystems, { provider }));
  });

  it("gives the same result every time", () => {
    for (const { request: r } of wireSamples)
      expect(JSON.stringify(countRequestTokens(r, { provider: "anthropic" }))).toBe(
        JSON.stringify(countRequestTokens(r, { provider: "anthropic" })),
      );
  });

  it("writes an estimate's perSegment when it is read, as it would have been written at once", () => {
    const keys = TOKEN_COUNT_KEYS;
    fc.assert(
      fc.property(
        requestArb,
        fc.constantFrom("openai", "anthropic", "gemini") as fc.Arbitrary<"openai" | "anthropic" | "gemini">,
        fc.boolean(),
        fc.nat(8),
        (r, provider, choice, from) => {
          const request: NormalizedRequest = choice
            ? { ...r, providerOptions: { tool_choice: { type: "auto" }, toolConfig: { mode: "AUTO" } } }
            : r;
          const order = segmentOrderOf(provider);
          // The walk places every segment as the cache layer's segmenter does (written apart from it).
          const walk = new SegmentWalk(request, order);
          const cut = segmentRequest(request, { provider: order }).segments;
          const segmented = (from: number) =>
            cut
              .filter((x) => from < 0 || (x.messageIndex !== null && x.messageIndex >= from))
              .map((x) => [x.kind, x.path, x.kind === "tool" || x.kind === "tool_choice" ? null : x.messageIndex]);
          const walked = (w: SegmentWalk) =>
            Array.from({ length: w.length }, (_, i) => [
              w.kind(i),
              w.path(i),
              w.kind(i).startsWith("tool") ? null : w.index(i),
            ]);
          expect(walked(walk)).toEqual(segmented(-1));
          const start = Math.min(from, request.messages.length);
          // From a message on: only the messages' segments, after the leading system messages (as a
          // continued count walks them).
          if (provider === "openai" || start >= leadingSystemCount(request.messages)) {
            const tail = new SegmentWalk(request, order, start);
            expect(walked(tail)).toEqual(segmented(start));
          }

          const count = countRequestTokens(request, { provider });
          const figures = countFigures(count);
          expect(Object.keys(count)).toEqual(keys);
          const list = count.perSegment;
          expect(count.perSegment).toBe(list); // written once, then kept
          expect(list.map((x) => [x.index, x.path, x.kind])).toEqual(cut.map((x, i) => [i, x.path, x.kind]));
          expect(figures.length).toBe(list.length);
          expect(flatFigures(figures)).toEqual(list.map((x) => [x.tokens, x.kind]));
          expect(list.every((x) => x.method === "estimate")).toBe(true);
          // What leaves the process: JSON and structured clone see the list like any other field.
          const again = countRequestTokens(request, { provider });
          expect(structuredClone(again)).toEqual(JSON.parse(JSON.stringify(count)));
          expect(JSON.stringify({ ...again })).toBe(JSON.stringify(count));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("countRequestTokens: OpenAI exact", () => {
  const cookbook = request([
    {
      role: "system",
      content: [
        text("You are a helpful, pattern-following assistant that translates corporate jargon into plain English."),
      ],
    },
    { role: "system", name: "example_user", content: [text("New synergies will help drive top-line growth.")] },
    {
      role: "system",
      name: "example_assistant",
      content: [text("Things working well together will increase revenue.")],
    },
    {
      role: "system",
      name: "example_user",
      content: [
        text("Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage."),
      ],
    },
    {
      role: "system",
      name: "example_assistant",
      content: [text("Let's talk later when we're less busy about how to do better.")],
    },
    {
      role: "user",
      content: [text("This late pivot means we don't have time to boil the ocean for the client deliverable.")],
    },
  ]);

  it("matches the OpenAI cookbook's API-checked example: 129 tokens on gpt-4-0613, 124 with o200k_base", () => {
    expect(countRequestTokens(cookbook, { provider: "openai", model: "gpt-4-0613", tokenizer: cl100k })).toMatchObject({
      total: 129,
      method: "exact",
      low: 129,
      high: 129,
      encoding: "cl100k_base",
    });
    expect(countRequestTokens(cookbook, { provider: "openai", tokenizer: o200k }).total).toBe(124);
  });

  it("primes the reply with 2 tokens instead of 3 on reasoning models", () => {
    const gpt4o = countRequestTokens(cookbook, { provider: "openai", tokenizer: o200k });
    const gpt5 = countRequestTokens(cookbook, { provider: "openai", model: "gpt-5", tokenizer: o200k });
    expect(gpt5.total).toBe(gpt4o.total - 1);
    expect(gpt5.trailing).toBe(2);
  });

  it("counts special-token strings in user text as the text they are, without throwing", () => {
    const r = request([{ role: "user", content: [text("Say <|endoftext|> and <|im_start|> please")] }]);
    const count = countRequestTokens(r, { provider: "openai", tokenizer: o200k });
    expect(count.perSegment[1]!.tokens).toBe(o200k.count("Say <|endoftext|> and <|im_start|> please"));
    expect(count.perSegment[1]!.tokens).toBeGreaterThan(5);
  });

  // gpt-tokenizer 4.0.0's function-calling fixtures: hmarr/openai-chat-tokens' cases, checked
  // against the live API, re-based for gpt-4o. Legacy `function` role messages and assistant
  // `function_call`s are left out: Strata frames tool calls and results by fitted constants.
  const cases = functionCallingTestCases.filter(
    (c) => !c.messages.some((m) => m.role === "function" || m.function_call !== undefined),
  );

  it.each(cases.map((c, i) => ({ i, c })))("matches function-calling fixture $i exactly", ({ c }) => {
    const choice = c.function_call;
    const r = request(
      c.messages.map((m) => ({
        role: m.role as "system" | "user" | "assistant",
        content: [text(m.content)],
        ...(m.name === undefined ? {} : { name: m.name }),
      })),
      {
        tools: (c.functions ?? []).map((f) => ({
          name: f.name,
          ...(f.description === undefined ? {} : { description: f.description }),
          ...(f.parameters === undefined ? {} : { inputSchema: f.parameters as never }),
        })),
        ...(choice === undefined
          ? {}
          : {
              providerOptions: {
                tool_choice:
                  typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } },
              },
            }),
      },
    );
    expect(countRequestTokens(r, { provider: "openai", tokenizer: o200k }).total).toBe(c.tokens);
  });

  it("marks tool definitions as estimates: OpenAI does not publish their rendering", () => {
    const r = request([{ role: "user", content: [text("hi")] }], {
      tools: [
        {
          name: "lookup",
          description: "Look it up",
          inputSchema: { type: "object", properties: { q: { type: "string" } } },
        },
      ],
    });
    const count = countRequestTokens(r, { provider: "openai", tokenizer: o200k });
    expect(count.method).toBe("estimate");
    expect(count.perSegment[0]).toMatchObject({ path: "tools[0]", method: "estimate" });
    expect(count.low).toBeLessThan(count.total);
    expect(count.high).toBeGreaterThan(count.total);
  });

  it("notes a tokenizer of the wrong encoding and widens the band", () => {
    const count = countRequestTokens(cookbook, { provider: "openai", model: "gpt-4", tokenizer: o200k });
    expect(count.method).toBe("estimate");
    expect(count.notes.map((n) => n.code)).toContain("tokenizer_mismatch");
    expect(count.high).toBeGreaterThan(count.total);
  });

  it("uses Responses framing when the request came from a Responses body", () => {
    const p = parseRequest({ model: "gpt-4o", instructions: "Be brief.", input: "Hello there" });
    if (p.format === "strata") throw new Error("expected a wire request");
    const count = countRequestTokens(p.request, { provider: "openai", tokenizer: o200k });
    expect(count.format).toBe("openai-responses");
    // instructions as a system message + one user message + priming
    expect(count.total).toBe(3 + 1 + o200k.count("Be brief.") + 3 + 1 + o200k.count("Hello there") + 3);
  });
});

describe("countRequestTokens: images and documents", () => {
  const imageRequest = (model: string, data: string, mimeType = "image/png"): NormalizedRequest => ({
    model: { provider: "x", model },
    tools: [],
    messages: [{ role: "user", content: [text("What is this?"), { type: "image", mimeType, data }] }],
  });
  const image = pngBase64(1024, 768);

  it.each([
    ["anthropic", "claude-sonnet-4-5", 1049], // 1024·768/750
    ["bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", 1049],
    ["openai", "gpt-4o", 765], // 85 + 4 tiles × 170
    ["openai", "gpt-4.1-mini", 1245], // 768 patches × 1.62
    ["openai", "gpt-5.4", 922], // 768 patches × 1.2
    ["gemini", "gemini-2.5-flash", 516], // 2 tiles × 258
    ["gemini", "gemini-3-flash-preview", 1120], // HIGH, the default
  ] as const)("bills a 1024×768 PNG on %s %s at the documented %i tokens", (provider, model, tokens) => {
    const count = countRequestTokens(imageRequest(model, image), { provider });
    const seg = count.perSegment.find((s) => s.path === "messages[0].content[1]")!;
    expect(seg.media).toEqual([expect.objectContaining({ kind: "image", tokens, width: 1024, height: 768 })]);
    expect(seg.tokens).toBeGreaterThanOrEqual(tokens);
    expect(count.notes).toEqual([]);
  });

  it("counts an image by its cost, not its base64 length", () => {
    const big = pngBase64(4000, 3000) + "A".repeat(300_000); // a large payload after the header
    const count = countRequestTokens(imageRequest("claude-sonnet-4-5", big), { provider: "anthropic" });
    expect(count.total).toBeLessThan(1700);
  });

  it("assumes a large photo for an image by URL, with a note and a wide band", () => {
    const r: NormalizedRequest = {
      ...imageRequest("gpt-4o", ""),
      messages: [{ role: "user", content: [{ type: "image", url: "https://example.com/cat.jpg" }] }],
    };
    const count = countRequestTokens(r, { provider: "openai", tokenizer: o200k });
    expect(count.perSegment[1]!.media[0]).toMatchObject({ tokens: 765, width: null });
    expect(count.notes).toEqual([
      expect.objectContaining({ code: "media_size_unknown", path: "messages[0].content[0]" }),
    ]);
    expect(count.high - count.total).toBeGreaterThanOrEqual(1445 - 765);
  });

  it("falls back with a note when image data is corrupt", () => {
    const count = countRequestTokens(imageRequest("claude-sonnet-4-5", btoa("not an image at all")), {
      provider: "anthropic",
    });
    expect(count.notes[0]).toMatchObject({ code: "media_size_unknown" });
    expect(count.notes[0]!.message).toContain("could not be read");
  });

  it("bills PDFs per page", () => {
    const pdf = (pages: number): NormalizedRequest => ({
      model: { provider: "x", model: "gemini-2.5-flash" },
      tools: [],
      messages: [
        { role: "user", content: [{ type: "document", mimeType: "application/pdf", data: pdfBase64(pages) }] },
      ],
    });
    const media = (pages: number) => countRequestTokens(pdf(pages), { provider: "gemini" }).perSegment[1]!.media[0]!;
    expect(media(1)).toMatchObject({ kind: "pdf", pages: 1, tokens: 258 });
    expect(media(3)).toMatchObject({ kind: "pdf", pages: 3, tokens: 774 });
  });

  it("notes media it cannot count instead of dropping it silently", () => {
    const r: NormalizedRequest = {
      model: { provider: "x", model: "gemini-2.5-flash" },
      tools: [],
      messages: [{ role: "user", content: [{ type: "audio", mimeType: "audio/wav", data: btoa("RIFF....WAVE") }] }],
    };
    const count = countRequestTokens(r, { provider: "gemini" });
    expect(count.notes).toEqual([
      expect.objectContaining({ code: "media_not_counted", path: "messages[0].content[0]" }),
    ]);
  });
});

describe("countRequestTokens: estimates", () => {
  it("reads Claude's documented tool-use system prompt by model and tool_choice", () => {
    const withTools = (model: string, toolChoice?: unknown): NormalizedRequest => ({
      model: { provider: "anthropic", model },
      tools: [{ name: "t", inputSchema: { type: "object" } }],
      messages: [{ role: "user", content: [text("hi")] }],
      ...(toolChoice === undefined ? {} : { providerOptions: { tool_choice: toolChoice as never } }),
    });
    const leading = (model: string, choice?: unknown) =>
      countRequestTokens(withTools(model, choice), { provider: "anthropic" }).leading;
    expect(leading("claude-opus-4-7")).toBeGreaterThan(leading("claude-opus-4-8"));
    expect(leading("claude-sonnet-4-5", { type: "any" })).toBeGreaterThan(
      leading("claude-sonnet-4-5", { type: "auto" }),
    );
  });

  it("grows with the text, and counts Chinese far above ÷4 of its length", () => {
    const zh = "这是一个用于测试的中文句子，它包含一些常见的汉字。".repeat(20);
    const count = countRequestTokens(request([{ role: "user", content: [text(zh)] }]), { provider: "anthropic" });
    expect(count.total).toBeGreaterThan(zh.length / 2);
  });

  it("notes a tool the provider runs itself", () => {
    const p = parseRequest({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      tools: [{ type: "web_search_20250305", name: "web_search" }],
      messages: [{ role: "user", content: "news?" }],
    });
    if (p.format === "strata") throw new Error("expected a wire request");
    const count = countRequestTokens(p.request, { provider: "anthropic" });
    expect(count.notes).toEqual([expect.objectContaining({ code: "server_tool", path: "tools[0]" })]);
  });

  const gemini = (contents: unknown[]) => {
    const p = parseRequest({ model: "gemini-2.5-flash", contents });
    if (p.format === "strata") throw new Error("expected a wire request");
    return p.request;
  };

  it("counts a Gemini thought part sent back as text, in an earlier turn too", () => {
    const thought = "Let me list the primes below 400 and look for 79 in each of them, one range at a time.";
    const history = (part: object) => [
      { role: "user", parts: [{ text: "How many primes below 400 contain 79?" }] },
      { role: "model", parts: [part, { text: "3" }] },
      { role: "user", parts: [{ text: "Which ones?" }] },
    ];
    const withThought = countRequestTokens(gemini(history({ text: thought, thought: true })), { provider: "gemini" });
    const without = countRequestTokens(gemini(history({ text: "", thought: true })), { provider: "gemini" });
    const asText = countRequestTokens(gemini(history({ text: thought })), { provider: "gemini" });
    expect(withThought.total - without.total).toBeGreaterThan(thought.length / 8);
    expect(Math.abs(withThought.total - asText.total)).toBeLessThanOrEqual(2);
  });

  it("notes media inside a Gemini functionResponse instead of dropping it silently", () => {
    const r = gemini([
      { role: "user", parts: [{ text: "Show me the chart." }] },
      { role: "model", parts: [{ functionCall: { name: "chart", args: {} } }] },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "chart",
              response: { ok: true },
              parts: [{ inlineData: { mimeType: "image/png", data: pngBase64(64, 64) } }],
            },
          },
        ],
      },
    ]);
    const count = countRequestTokens(r, { provider: "gemini" });
    expect(count.notes).toEqual([
      expect.objectContaining({ code: "media_not_counted", path: "messages[2].content[0]" }),
    ]);
  });

  it("notes that an OpenAI tokenizer does not make another provider exact", () => {
    const count = countRequestTokens(request([{ role: "user", content: [text("hi")] }]), {
      provider: "gemini",
      tokenizer: o200k,
    });
    expect(count.method).toBe("estimate");
    expect(count.notes[0]).toMatchObject({ code: "tokenizer_mismatch" });
  });
});

describe("countRequestTokens: invalid options", () => {
  const r = request([{ role: "user", content: [text("hi")] }]);

  it("rejects an unknown provider, naming the field", () => {
    expect(() => countRequestTokens(r, { provider: "mistral" as never })).toThrow(InvalidInputError);
    expect(() => countRequestTokens(r, { provider: "mistral" as never })).toThrow(/^provider: expected one of/);
  });

  it("rejects something that is not a Strata tokenizer", () => {
    expect(() => countRequestTokens(r, { provider: "openai", tokenizer: { count: () => 1 } as never })).toThrow(
      /^tokenizer: must be a tokenizer from prompt-strata\/tokenizers\/openai/,
    );
  });

  it("rejects a tokenizer whose count is not a whole number", () => {
    const bad = { kind: "strata-tokenizer", provider: "openai", encoding: "o200k_base", count: () => 1.5 } as const;
    expect(() => countRequestTokens(r, { provider: "openai", tokenizer: bad })).toThrow(/returned 1.5/);
  });

  it("checks the request's shape with the shared message check", () => {
    expect(() =>
      countRequestTokens({ ...r, messages: [{ role: "user", content: "hi" }] } as never, { provider: "openai" }),
    ).toThrow(/messages\[0\]\.content/);
  });
});

describe("countTokensWith: the counter with its optional parts loaded on demand", () => {
  const requests = samples
    .map((s) => parseRequest(s.data))
    .filter((p) => p.format !== "strata")
    .map((p) => p.request as NormalizedRequest);
  const withImage: NormalizedRequest = {
    model: { provider: "anthropic", model: "claude-sonnet-4-5" },
    tools: [],
    messages: [{ role: "user", content: [{ type: "image", data: pngBase64(640, 480), mimeType: "image/png" }] }],
  };

  it("says a request has media exactly when its count prices some", () => {
    for (const request of [...requests, withImage])
      for (const provider of ["openai", "anthropic", "gemini"] as const) {
        const priced = countRequestTokens(request, { provider }).perSegment.some((s) => s.media.length > 0);
        expect(requestHasMedia(request)).toBe(priced);
      }
    expect(requestHasMedia(withImage)).toBe(true);
  });

  it("gives countRequestTokens' count once the kit is completed, and refuses media without the rules", async () => {
    for (const request of [...requests, withImage]) {
      const kit = lazyCountKit();
      await completeCountKit(kit, request, false);
      expect(kit.exact).toBeNull();
      expect(countTokensWith(request, { provider: "anthropic" }, kit)).toEqual(
        countRequestTokens(request, { provider: "anthropic" }),
      );
    }
    expect(() => countTokensWith(withImage, { provider: "anthropic" }, lazyCountKit())).toThrow(InvalidInputError);
    const tokenizer = await createOpenAITokenizer("gpt-4o");
    const kit = lazyCountKit();
    await completeCountKit(kit, requests[0]!, true);
    expect(countTokensWith(requests[0]!, { provider: "openai", tokenizer }, kit)).toEqual(
      countRequestTokens(requests[0]!, { provider: "openai", tokenizer }),
    );
  });
});
