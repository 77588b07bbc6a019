import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolCallBlock, toolResultMessage, userMessage } from "../messages/index.ts";
import type { Message } from "../messages/index.ts";
import { estimateTextTokens, measureMessage, messageMeasureText, utf8ByteLength } from "./context-measure.ts";

describe("utf8ByteLength", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["é", 2],
    ["€", 3],
    ["😀", 4],
    ["\uD800", 3],
    ["a\uDC00b", 5],
  ])("counts %j as %i bytes", (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
  });

  it("agrees with TextEncoder for any string, lone surrogates included (seed 21)", () => {
    const encoder = new TextEncoder();
    // Any UTF-16 code unit (lone surrogates included) mixed with well-formed astral characters.
    const unit = fc.oneof(fc.nat(0xffff).map((c) => String.fromCharCode(c)), fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)));
    fc.assert(
      fc.property(fc.string({ unit }), (text) => {
        expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
      }),
      { seed: 21, numRuns: 100 },
    );
  });
});

describe("measured text", () => {
  it.each<[string, Message, string]>([
    ["text blocks joined by newlines", { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }, "a\nb"],
    ["a tool call as name(arguments)", { role: "assistant", content: [toolCallBlock("c1", "search", { q: "x" })] }, 'search({"q":"x"})'],
    ["a string tool result verbatim", toolResultMessage("c1", "search", "found"), "found"],
    ["a JSON tool result as JSON", toolResultMessage("c1", "search", { ok: true }), '{"ok":true}'],
    ["media by data or url", { role: "user", content: [{ type: "image", url: "https://x/i.png" }, { type: "audio", data: "AAAA" }] }, "https://x/i.png\nAAAA"],
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
