import { describe, expect, it } from "vitest";
import { toolCallBlock, toolResultMessage, userMessage } from "../messages/index.ts";
import type { Message } from "../messages/index.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { measureMessage, messageMeasureText } from "./context-measure.ts";

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
