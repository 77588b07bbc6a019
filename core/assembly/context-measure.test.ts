import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textBlock, toolCallBlock, toolResultBlock, toolResultMessage, userMessage } from "../messages/index.ts";
import type { ContentBlock, Message } from "../messages/index.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { linkToolBlocks, measureMessage, measureMessages, messageMeasureText } from "./context-measure.ts";
import type { ToolBlocks, ToolLinks } from "./context-measure.ts";

describe("measured text", () => {
  it.each<[string, Message, string]>([
    [
      "text blocks joined by newlines",
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      "a\nb",
    ],
    [
      "a tool call as name(arguments)",
      { role: "assistant", content: [toolCallBlock("c1", "search", { q: "x" })] },
      'search({"q":"x"})',
    ],
    ["a string tool result verbatim", toolResultMessage("c1", "search", "found"), "found"],
    ["a JSON tool result as JSON", toolResultMessage("c1", "search", { ok: true }), '{"ok":true}'],
    [
      "media by data or url",
      {
        role: "user",
        content: [
          { type: "image", url: "https://x/i.png" },
          { type: "audio", data: "AAAA" },
        ],
      },
      "https://x/i.png\nAAAA",
    ],
    ["a text document by its text", { role: "user", content: [{ type: "document", text: "doc", url: "u" }] }, "doc"],
  ])("measures %s", (_, message, text) => {
    expect(messageMeasureText(message)).toBe(text);
  });

  it("uses ceil(UTF-16 length / 4) by default and counts UTF-8 bytes", () => {
    expect(estimateTextTokens("")).toBe(0);
    expect(estimateTextTokens("abcde")).toBe(2);
    expect(measureMessage(userMessage("héllo😀"))).toEqual({ chars: 7, bytes: 10, tokens: 2 });
  });
});

/** Links as sorted "result→call" pairs, so two pairings compare whatever order they were found in. */
function pairs(links: ToolBlocks | ToolLinks): string[] {
  if (!("result" in links)) throw new Error("expected paired tool blocks");
  return Array.from(links.result, (r, k) => `${r}→${links.call[k]}`).sort();
}

/** The rule written out plainly: a result goes with the first message holding a call of its id. */
function referencePairs(messages: readonly Message[]): string[] {
  const owner = new Map<string, number>();
  messages.forEach((m, i) =>
    m.content.forEach((b) => {
      if (b.type === "tool_call" && !owner.has(b.id)) owner.set(b.id, i);
    }),
  );
  const out: string[] = [];
  messages.forEach((m, i) =>
    m.content.forEach((b) => {
      const call = b.type === "tool_result" ? owner.get(b.toolCallId) : undefined;
      if (call !== undefined && call !== i) out.push(`${i}→${call}`);
    }),
  );
  return out.sort();
}

const assistant = (...content: ContentBlock[]): Message => ({ role: "assistant", content });

describe("measureMessages", () => {
  const history: Message[] = [
    userMessage("héllo😀 wörld"),
    assistant(textBlock("let me look"), toolCallBlock("c1", "search", { q: "café" })),
    toolResultMessage("c1", "search", { ok: true, text: "東京\n" }),
    toolResultMessage("c9", "search", "answered before it was asked"),
    assistant(toolCallBlock("c9", "search"), toolCallBlock("c1", "search")),
    toolResultMessage("c1", "search", "a second result for c1"),
    toolResultMessage("zz", "search", "no call has this id"),
    assistant(toolCallBlock("c7", "f"), toolResultBlock("c7", "f", "in the same message")),
  ];

  it("without bytes gives the same chars, tokens and tool pairs, and leaves bytes 0", () => {
    const full = measureMessages(history, estimateTextTokens);
    const lean = measureMessages(history, estimateTextTokens, false);
    expect([...lean.chars]).toEqual([...full.chars]);
    expect([...lean.tokens]).toEqual([...full.tokens]);
    expect([...lean.bytes]).toEqual(history.map(() => 0));
    expect(pairs(lean.toolBlocks)).toEqual(pairs(full.toolBlocks));
    history.forEach((m, i) => {
      const one = measureMessage(m);
      expect([full.chars[i], full.bytes[i], full.tokens[i]]).toEqual([one.chars, one.bytes, one.tokens]);
    });
    const custom = (text: string) => text.length;
    expect([...measureMessages(history, custom, false).tokens]).toEqual([...measureMessages(history, custom).tokens]);
  });

  it("pairs each result with the first message naming its call, wherever that message is", () => {
    // 2 answers 1; 3 answers 4 (the call comes later); 5 answers 1 (the first to name c1, not 4).
    expect(pairs(measureMessages(history, estimateTextTokens).toolBlocks)).toEqual(["2→1", "3→4", "5→1"]);
  });

  it("pairs as the plain rule does, and as linkToolBlocks does from the blocks (seed 1009)", () => {
    const id = fc.constantFrom("a", "b", "c", "d");
    const block = fc.oneof(
      id.map((x) => toolCallBlock(x, "f")),
      id.map((x) => toolResultBlock(x, "f", "r")),
      fc.constant(textBlock("t")),
    );
    fc.assert(
      fc.property(fc.array(fc.array(block, { minLength: 1, maxLength: 3 }), { maxLength: 30 }), (contents) => {
        const messages = contents.map((content) => assistant(...content));
        const expected = referencePairs(messages);
        expect(pairs(measureMessages(messages, estimateTextTokens, false).toolBlocks)).toEqual(expected);
        const blocks: ToolBlocks = { at: [], isCall: [], id: [] };
        messages.forEach((m, i) =>
          m.content.forEach((b) => {
            if (b.type !== "tool_call" && b.type !== "tool_result") return;
            blocks.at.push(i);
            blocks.isCall.push(b.type === "tool_call");
            blocks.id.push(b.type === "tool_call" ? b.id : b.toolCallId);
          }),
        );
        expect(pairs(linkToolBlocks(blocks))).toEqual(expected);
      }),
      { seed: 1009, numRuns: 300 },
    );
  });
});
