import { describe, expect, it } from "vitest";
import { toTurn } from "../cache/compare.ts";
import { segmentRequest } from "../cache/segments.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { parseWireRequest } from "../formats/parse.ts";
import { anthropicSample, geminiSample, openaiChatSample } from "../test-support/samples-wire.ts";
import { compactTurn, expandTurn } from "./compact-turn.ts";

describe("compactTurn", () => {
  it.each([
    ["anthropic", anthropicSample],
    ["openai", openaiChatSample],
    ["gemini", geminiSample],
  ] as const)("gives back the same %s segments, without texts", (provider, sample) => {
    const seg = segmentRequest(parseWireRequest(sample).request, { provider });
    const turn = toTurn(seg, provider, estimateTextTokens);
    expect(expandTurn(compactTurn(turn, provider))).toEqual({ ...turn, texts: null });
  });
});
