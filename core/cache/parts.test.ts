import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toAnthropic } from "../formats/anthropic.ts";
import { toGemini } from "../formats/gemini.ts";
import { toBedrock } from "../formats/bedrock.ts";
import { toOpenAIChat } from "../formats/openai-chat.ts";
import { toOpenAIResponses } from "../formats/openai-responses.ts";
import type { NormalizedRequest, WireFormat } from "../formats/types.ts";
import type { ContentBlock, Message } from "../messages/types.ts";
import { parseRequest } from "../request/parse-request.ts";
import {
  anthropicSample,
  anthropicSplitTurn,
  geminiSample,
  openaiChatSample,
  openaiResponsesSample,
} from "../test-support/samples-wire.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { evictParts } from "./part-budget.ts";
import { outOfPlace, partsAsSent, partsNextTurn, relayBlocker, relayParts, requestFromParts } from "./part-layout.ts";
import { requestParts } from "./parts.ts";
import { inferCacheProvider } from "./provider.ts";
import { segmentWith } from "./segments.ts";
import { foldWhitespace, safeSlice } from "../util/text.ts";
import type { RequestPart } from "./types.ts";

const WRITERS: Record<WireFormat, (r: NormalizedRequest) => unknown> = {
  "openai-chat": (r) => toOpenAIChat(r).body,
  "openai-responses": (r) => toOpenAIResponses(r).body,
  anthropic: (r) => toAnthropic(r).body,
  gemini: (r) => toGemini(r).body,
  "bedrock-converse": (r) => toBedrock(r).body,
};

function partsOf(body: unknown) {
  const parsed = parseRequest(body);
  if (parsed.format === "strata") throw new Error("expected a wire request");
  const provider = inferCacheProvider(parsed.format, "", "");
  const request = parsed.request;
  return {
    format: parsed.format,
    request,
    provider,
    parts: requestParts(request, segmentWith(request, provider, estimateTextTokens)),
  };
}

const kinds = (parts: readonly RequestPart[]) => parts.map((p) => `${p.path} ${p.kind}`);

describe("requestParts classifies every format", () => {
  it("an OpenAI Chat request: tools, developer instructions, history with a tool exchange, the current input", () => {
    const { parts } = partsOf(openaiChatSample);
    expect(kinds(parts)).toEqual([
      "tools[0] tools",
      "tools[1] tools",
      "messages[0] instructions",
      "messages[1] history",
      "messages[2] tool_call",
      "messages[3] tool_result",
      "messages[4] history",
      "messages[5] input",
    ]);
    expect(parts.map((p) => p.source).slice(2)).toEqual([
      "instructions",
      "history:1",
      "history:2",
      "history:3",
      "history:4",
      "input",
    ]);
  });

  it.each([
    [
      "openai-responses",
      openaiResponsesSample,
      ["tools", "tools", "instructions", "history", "tool_call", "tool_result", "history", "input"],
    ],
    [
      "anthropic",
      anthropicSample,
      ["tools", "instructions", "history", "tool_call", "tool_result", "history", "input"],
    ],
    [
      "gemini",
      geminiSample,
      ["tools", "tools", "tools", "instructions", "history", "tool_call", "tool_result", "history", "input"],
    ],
  ] as const)("the %s sample", (_format, body, expected) => {
    expect(partsOf(body).parts.map((p) => p.kind)).toEqual(expected);
  });

  it("sizes every part from the segments, so the parts add up to the request", () => {
    for (const body of [openaiChatSample, openaiResponsesSample, anthropicSample, geminiSample]) {
      const { request, provider, parts } = partsOf(body);
      const seg = segmentWith(request, provider, estimateTextTokens);
      expect(parts.reduce((a, p) => a + p.tokens, 0)).toBe(seg.totalTokens);
      expect(parts.reduce((a, p) => a + p.bytes, 0)).toBe(seg.totalBytes);
    }
  });

  it("splits an Anthropic user turn of [tool_result, text]: this turn's tool result, then the input", () => {
    const { request, provider, parts } = partsOf(anthropicSplitTurn);
    expect(parts.map((p) => [p.path, p.kind, p.source])).toEqual([
      ["messages[0]", "history", "history:0"],
      ["messages[1]", "tool_call", "history:1"],
      ["messages[2].content[0]", "tool_result", "toolResult:t1"],
      ["messages[2].content[1]", "input", "input"],
    ]);
    // Each part is sized by its own segments; the message's header counts with its first part.
    const seg = segmentWith(request, provider, estimateTextTokens);
    const at = (path: string) => seg.segments.find((x) => x.path === path)!;
    expect([parts[2]!.bytes, parts[3]!.bytes]).toEqual([
      at("messages[2]").byteLength + at("messages[2].content[0]").byteLength,
      at("messages[2].content[1]").byteLength,
    ]);
    expect([parts[2]!.tokens, parts[3]!.tokens]).toEqual([
      at("messages[2]").tokens + at("messages[2].content[0]").tokens,
      at("messages[2].content[1]").tokens,
    ]);
  });

  it("previews each part: its blocks joined by spaces, whitespace folded, cut at 80 characters", () => {
    const long = `${"word ".repeat(30)}end`;
    const spaced = `line one\n\n  line two\t${"x".repeat(100)}`;
    const pair = `${"y".repeat(79)}🙂 tail`;
    const { parts } = partsOf({
      model: "gpt-4.1",
      messages: [
        { role: "user", content: long },
        { role: "assistant", content: spaced },
        { role: "user", content: pair },
        { role: "assistant", content: "short\nreply" },
        {
          role: "user",
          content: [
            { type: "text", text: "first block\n" },
            { type: "text", text: " second  block" },
          ],
        },
      ],
    });
    expect(parts.map((p) => p.preview)).toEqual([
      long.slice(0, 80),
      `line one line two ${"x".repeat(62)}`,
      "y".repeat(79), // never the first half of a surrogate pair alone
      "short reply",
      "first block second block",
    ]);
  });

  it("previews a tool call's and a result's long texts as if each were joined whole, then cut", () => {
    // The texts are cut before they are joined to the name or the arrow: the preview must be what
    // cutting the whole joined string gives, surrogate pairs and whitespace runs at the cut included.
    const reference = (s: string) => safeSlice(foldWhitespace(safeSlice(s, 0, 120)), 0, 80);
    const unit = fc.constantFrom("a", " ", "  ", "\n", "\ud83d\ude00", String.fromCharCode(0xd83d), "é");
    const text = fc.array(unit, { minLength: 40, maxLength: 200, size: "max" }).map((u) => u.join(""));
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), text, text, (name, args, result) => {
        const request: NormalizedRequest = {
          model: { provider: "openai", model: "gpt-4.1" },
          tools: [],
          messages: [
            { role: "user", content: [{ type: "text", text: "go" }] },
            { role: "assistant", content: [{ type: "tool_call", id: "c1", name, arguments: args }] },
            { role: "tool", content: [{ type: "tool_result", toolCallId: "c1", name, result }] },
            { role: "user", content: [{ type: "text", text: "next" }] },
          ],
        };
        const parts = requestParts(request, segmentWith(request, "openai", estimateTextTokens));
        const previews = parts.map((p) => p.preview);
        expect(previews[1]).toBe(reference(`${name}(${args})`));
        expect(previews[2]).toBe(reference(`→ ${result}`));
      }),
      { numRuns: 300 },
    );
  });

  it("makes the images ahead of the current input's text attachments", () => {
    const { parts } = partsOf({
      model: "gpt-4.1",
      messages: [
        { role: "system", content: "Describe images." },
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.com/b.png" } },
            { type: "text", text: "What differs?" },
          ],
        },
      ],
    });
    expect(kinds(parts)).toEqual([
      "messages[0] instructions",
      "messages[1].content[0..1] attachment",
      "messages[1].content[2] input",
    ]);
  });

  it("recognizes Strata's own summary and attachment shapes, and a later system message as context", () => {
    const request: NormalizedRequest = {
      model: { provider: "openai", model: "gpt-4.1" },
      tools: [],
      messages: [
        { role: "system", content: [{ type: "text", text: "You help." }] },
        { role: "system", content: [{ type: "text", text: "Summary:\nThey asked about A." }] },
        { role: "user", content: [{ type: "text", text: "Attachment notes.md:\nA is 3." }] },
        { role: "user", content: [{ type: "text", text: "Hi" }] },
        { role: "assistant", content: [{ type: "text", text: "Hello" }] },
        { role: "system", content: [{ type: "text", text: "The user is on mobile." }] },
        { role: "user", content: [{ type: "text", text: "What is A?" }] },
      ],
    };
    const parts = requestParts(request, segmentWith(request, "openai", estimateTextTokens));
    expect(parts.map((p) => p.kind)).toEqual([
      "instructions",
      "summary",
      "attachment",
      "history",
      "history",
      "context",
      "input",
    ]);
  });

  it("says unknown, and places nothing, for a message with a block of a type it does not know", () => {
    const opaque = {
      type: "opaque",
      providerFields: { anthropic: { type: "server_tool_use" } },
    } as unknown as ContentBlock;
    const request: NormalizedRequest = {
      model: { provider: "anthropic", model: "claude-sonnet-4-5" },
      tools: [],
      messages: [
        { role: "user", content: [{ type: "text", text: "Search." }] },
        { role: "assistant", content: [opaque, { type: "text", text: "Found it." }] },
        { role: "user", content: [{ type: "text", text: "Thanks" }] },
      ],
    };
    const parts = requestParts(request, segmentWith(request, "anthropic", estimateTextTokens));
    expect(parts[1]).toMatchObject({ kind: "unknown", source: "unknown", path: "messages[1]" });
    expect(parts[1]!.rule).toContain("opaque");
    expect(relayBlocker(parts)).toMatch(/^messages\[1\] is of a kind Strata cannot tell/);
    // Unknown parts are protected: a budget drops the history around them, never them.
    const floor = parts[1]!.tokens + parts[2]!.tokens;
    const b = evictParts(parts, request, { maxInputTokens: floor });
    expect(b.omitted).toEqual([0]);
    expect(() => evictParts(parts, request, { maxInputTokens: floor - 1 })).toThrow(/other kept messages/);
  });
});

describe("layouts over the parts", () => {
  it("finds that every sample follows both layouts", () => {
    for (const body of [openaiChatSample, openaiResponsesSample, anthropicSample, geminiSample]) {
      const { parts } = partsOf(body);
      expect([outOfPlace(parts, "cache_aware"), outOfPlace(parts, "legacy")]).toEqual([null, null]);
    }
  });

  const legacyShaped = {
    model: "gpt-4.1",
    messages: [
      { role: "system", content: "Answer from the attached page." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello" },
      {
        role: "user",
        content: [
          { type: "text", text: "What does the page say?" },
          { type: "image_url", image_url: { url: "https://example.com/page.png" } },
        ],
      },
    ],
  };

  it("names the first part out of place for a layout the request does not follow", () => {
    // The current input has an image ahead of its text, after the history: cache_aware wants it up front.
    const body = structuredClone(legacyShaped);
    body.messages[3]!.content = [
      { type: "image_url", image_url: { url: "https://example.com/page.png" } },
      { type: "text", text: "What does the page say?" },
    ];
    const { parts } = partsOf(body);
    expect(outOfPlace(parts, "legacy")?.path).toBe("messages[3].content[1]");
    expect(outOfPlace(parts, "cache_aware")).toMatchObject({
      path: "messages[3].content[0]",
      kind: "attachment",
      afterPath: "messages[2]",
      afterKind: "history",
    });
    expect(outOfPlace(parts, "cache_aware")!.message).toBe(
      "messages[3].content[0] (attachment) comes after messages[2] (history); cache_aware puts attachments before summaries, history.",
    );
  });

  it("re-lays the parts in cache_aware order and exports them in the request's own format, which parses back", () => {
    const body = structuredClone(legacyShaped);
    body.messages[3]!.content = [
      { type: "image_url", image_url: { url: "https://example.com/page.png" } },
      { type: "text", text: "What does the page say?" },
    ];
    const { request, parts } = partsOf(body);
    const relaid = requestFromParts(request, parts, relayParts(parts, "cache_aware"));
    expect(relaid.messages.map((m) => [m.role, m.content.map((b) => b.type).join("+")])).toEqual([
      ["system", "text"],
      ["user", "image"],
      ["user", "text"],
      ["assistant", "text"],
      ["user", "text"],
    ]);
    const back = parseRequest(toOpenAIChat(relaid).body);
    expect(back.format).toBe("openai-chat");
    expect((back.request as NormalizedRequest).messages).toEqual(relaid.messages);
  });

  it("rebuilds each sample unchanged from its parts in their own order", () => {
    for (const body of [openaiChatSample, openaiResponsesSample, anthropicSample, geminiSample]) {
      const { format, request, parts } = partsOf(body);
      const rebuilt = requestFromParts(request, parts, partsAsSent(parts));
      expect(rebuilt).toEqual(request);
      expect(WRITERS[format](rebuilt)).toEqual(body);
    }
  });

  it("simulates the next turn as sent and re-laid: legacy moves the attachment behind the next input", () => {
    const body = structuredClone(legacyShaped);
    body.messages[3]!.content = [
      { type: "image_url", image_url: { url: "https://example.com/page.png" } },
      { type: "text", text: "What does the page say?" },
    ];
    const { request, parts, provider } = partsOf(body);
    const edit = {
      reply: { role: "assistant", content: [{ type: "text", text: "It says hi." }] } as Message,
      nextInput: [{ role: "user", content: [{ type: "text", text: "Thanks" }] } as Message],
    };
    const legacy = partsNextTurn(request, parts, "legacy", edit, provider, estimateTextTokens);
    const cacheAware = partsNextTurn(request, parts, "cache_aware", edit, provider, estimateTextTokens);
    const appended = partsNextTurn(request, parts, "appended", edit, provider, estimateTextTokens);
    expect(cacheAware.comparison.divergence?.cause).toBe("appended");
    expect(appended.comparison.divergence?.cause).toBe("appended");
    expect(legacy.comparison.divergence?.bustsCache).toBe(true);
    expect(legacy.stablePrefixRatio).toBeLessThan(cacheAware.stablePrefixRatio);
  });
});

describe("the context budget over a wire request's parts", () => {
  it("drops the oldest history first and reports the arithmetic, as assembly does", () => {
    const { request, parts } = partsOf(anthropicSample);
    const b = evictParts(parts, request, { maxInputTokens: 200 });
    expect(b.report.omitted.map((o) => [o.kind, o.source, o.sources])).toEqual([
      ["history", "history:1", ["history:1"]],
      ["history", "history:2", ["history:2", "history:3"]],
    ]);
    expect(b.omissionParts).toEqual([[2], [3, 4]]);
    expect(b.report.keptTokens).toBeLessThanOrEqual(200);
    expect(b.report.protectedTokens).toBe(
      parts.filter((p) => ["tools", "instructions", "input"].includes(p.kind)).reduce((a, p) => a + p.tokens, 0),
    );
  });

  it("refuses a cap below the protected parts, saying by how much", () => {
    const { request, parts } = partsOf(openaiChatSample);
    expect(() => evictParts(parts, request, { maxInputTokens: 100 })).toThrow(/raise maxInputTokens by at least \d+/);
  });

  it("exports the trimmed request in its own format, and it parses back", () => {
    const { request, parts } = partsOf(geminiSample);
    const b = evictParts(parts, request, { maxInputTokens: 200 });
    const kept = partsAsSent(parts).filter((k) => !b.omitted.includes(k));
    const trimmed = requestFromParts(request, parts, kept);
    const back = parseRequest(toGemini(trimmed).body);
    expect(back.format).toBe("gemini");
    expect((back.request as NormalizedRequest).messages).toEqual(trimmed.messages);
    expect(trimmed.messages.length).toBeLessThan(request.messages.length);
  });

  it("never keeps a tool call without its result, or a result without its call (property, seed 1402)", () => {
    const turn = fc.record({
      question: fc.string({ minLength: 1, maxLength: 60 }),
      calls: fc.array(fc.string({ minLength: 1, maxLength: 80 }), { maxLength: 2 }),
      answer: fc.string({ minLength: 1, maxLength: 60 }),
    });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 400 }), (turns, cap) => {
        const messages: unknown[] = [];
        let id = 0;
        for (const t of turns) {
          messages.push({ role: "user", content: t.question });
          if (t.calls.length > 0) {
            const ids = t.calls.map(() => `call_${id++}`);
            messages.push({
              role: "assistant",
              content: null,
              tool_calls: ids.map((c) => ({ id: c, type: "function", function: { name: "f", arguments: "{}" } })),
            });
            t.calls.forEach((out, k) => messages.push({ role: "tool", tool_call_id: ids[k], content: out }));
          }
          messages.push({ role: "assistant", content: t.answer });
        }
        messages.push({ role: "user", content: "now?" });
        const { request, parts } = partsOf({ model: "gpt-4.1", messages });
        let b: ReturnType<typeof evictParts>;
        try {
          b = evictParts(parts, request, { maxInputTokens: cap });
        } catch {
          return; // the protected parts alone exceed this cap
        }
        const kept = requestFromParts(
          request,
          parts,
          partsAsSent(parts).filter((k) => !b.omitted.includes(k)),
        );
        const calls = new Set<string>();
        const results = new Set<string>();
        for (const m of kept.messages)
          for (const bl of m.content) {
            if (bl.type === "tool_call") calls.add(bl.id);
            if (bl.type === "tool_result") results.add(bl.toolCallId);
          }
        expect([...calls].sort()).toEqual([...results].sort());
      }),
      { seed: 1402, numRuns: 200 },
    );
  });
});

describe("the next turn of the parts", () => {
  it("segments only what an append adds, with the same result as segmenting the whole next turn", () => {
    const edit = {
      reply: { role: "assistant", content: [{ type: "text", text: "Sure." }] } as Message,
      nextInput: [{ role: "user", content: [{ type: "text", text: "Thanks" }] } as Message],
    };
    for (const body of [openaiChatSample, openaiResponsesSample, anthropicSample, geminiSample]) {
      const { request, parts, provider } = partsOf(body);
      const seg = segmentWith(request, provider, estimateTextTokens);
      const fast = partsNextTurn(request, parts, "appended", edit, provider, estimateTextTokens, seg);
      const slow = partsNextTurn(request, parts, "appended", edit, provider, estimateTextTokens);
      expect(fast).toEqual(slow);
      const whole = segmentWith(
        { ...request, messages: [...request.messages, edit.reply, ...edit.nextInput] },
        provider,
        estimateTextTokens,
      );
      expect(fast.nextTurn).toEqual({
        bytes: whole.totalBytes,
        segments: whole.segments.length,
        tokens: whole.totalTokens,
      });
      expect(fast.comparison.divergence).toMatchObject({
        cause: "appended",
        path: whole.segments[seg.segments.length]!.path,
        segmentIndex: seg.segments.length,
        byteOffset: seg.totalBytes,
      });
    }
  });
});
