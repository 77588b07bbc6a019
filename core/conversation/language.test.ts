import { describe, expect, it } from "vitest";
import type { Message } from "../messages/index.ts";
import { assistantMessage, userMessage } from "../messages/index.ts";
import { messageLanguage, resolveResponseLanguage } from "./language.ts";

const userIn = (language: string | undefined, text = "hi"): Message =>
  language === undefined ? userMessage(text) : { ...userMessage(text), metadata: { language } };

describe("resolveResponseLanguage", () => {
  it.each([
    [
      "the latest user language in history",
      [userIn("fr"), assistantMessage("x"), userIn("de")],
      { "client.language": "en" },
      "de",
    ],
    [
      "an older user language when the latest user message has none",
      [userIn("fr"), userIn(undefined)],
      { "client.language": "en" },
      "fr",
    ],
    ["the client language when no user message has one", [userIn(undefined)], { "client.language": "en" }, "en"],
    ["an empty string when nothing is known", [userIn(undefined)], {}, ""],
    ["an empty string without metadata", [], undefined, ""],
    [
      "the client language, ignoring assistant languages",
      [{ ...assistantMessage("x"), metadata: { language: "it" } }],
      { "client.language": "en" },
      "en",
    ],
    ["the client language when the history's are blank", [userIn("  ")], { "client.language": " pt " }, "pt"],
    ["nothing from a non-string client language", [], { "client.language": 42 }, ""],
  ] as const)("prefers %s", (_what, history, metadata, expected) => {
    expect(resolveResponseLanguage(history as readonly Message[], metadata)).toBe(expected);
  });

  it("reads a message's language from metadata.language, trimmed", () => {
    expect(messageLanguage(userIn(" en-GB "))).toBe("en-GB");
    expect(messageLanguage(userIn(undefined))).toBeUndefined();
  });
});
