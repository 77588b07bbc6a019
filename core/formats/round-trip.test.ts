import { describe, expect, it } from "vitest";
import {
  anthropicSample,
  geminiSample,
  openaiChatSample,
  openaiResponsesSample,
} from "../test-support/samples-wire.ts";
import { samples } from "../test-support/samples.ts";
import { toAnthropic } from "./anthropic.ts";
import { toGemini } from "./gemini.ts";
import { toOpenAIChat } from "./openai-chat.ts";
import { toOpenAIResponses } from "./openai-responses.ts";
import { parseWireRequest } from "./parse.ts";

const cases = [
  ["openai-chat", openaiChatSample, toOpenAIChat],
  ["openai-responses", openaiResponsesSample, toOpenAIResponses],
  ["anthropic", anthropicSample, toAnthropic],
  ["gemini", geminiSample, toGemini],
] as const;

describe("wire → normalized → wire", () => {
  it.each(cases)("detects %s and writes the canonical sample back byte for byte", (format, sample, to) => {
    const text = JSON.stringify(sample);
    const parsed = parseWireRequest(text);
    expect(parsed.format).toBe(format);
    expect(JSON.stringify(to(parsed.request).body)).toBe(text);
  });

  it.each(cases)("parses %s the same from text and from a value", (_format, sample) => {
    expect(parseWireRequest(sample)).toEqual(parseWireRequest(JSON.stringify(sample, null, 2)));
  });
});

describe("unknown wire fields named like Object.prototype members", () => {
  // JSON.parse makes "__proto__" an own key; copying it by assignment would drop it.
  it.each([
    [
      "openai-chat",
      toOpenAIChat,
      '{"model":"m","__proto__":{"a":1},"messages":[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"b":2}},{"type":"text","text":"x","toString":"t"}],"__proto__":{"c":3}}]}',
    ],
    [
      "openai-responses",
      toOpenAIResponses,
      '{"model":"m","__proto__":{"a":1},"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi","__proto__":{"b":2}}],"constructor":"c"}]}',
    ],
    [
      "anthropic",
      toAnthropic,
      '{"model":"m","max_tokens":5,"__proto__":{"a":1},"system":[{"type":"text","text":"s","__proto__":{"b":2}}],"messages":[{"role":"user","content":"hi","hasOwnProperty":1}]}',
    ],
    [
      "gemini",
      toGemini,
      '{"__proto__":{"a":1},"contents":[{"role":"user","parts":[{"text":"hi","__proto__":{"b":2}}],"valueOf":0}]}',
    ],
  ] as const)("keeps them through %s byte for byte", (format, to, text) => {
    const parsed = parseWireRequest(text);
    expect(parsed.format).toBe(format);
    expect(JSON.stringify(to(parsed.request).body)).toBe(text);
  });
});

describe("cross-format conversion", () => {
  const wireSamples = samples.filter((s) => s.format !== "strata");
  const targets = [
    ["openai-chat", toOpenAIChat],
    ["openai-responses", toOpenAIResponses],
    ["anthropic", toAnthropic],
    ["gemini", toGemini],
  ] as const;
  it.each(wireSamples.flatMap((s) => targets.map(([name, to]) => [s.id, name, s.data, to] as const)))(
    "%s → %s is stable through the parser",
    (_id, target, data, to) => {
      const parsed = parseWireRequest(data);
      const once = JSON.stringify(to(parsed.request).body);
      const again = parseWireRequest(once, { format: target });
      expect(JSON.stringify(to(again.request).body)).toBe(once);
    },
  );
});
