import fc from "fast-check";
import { countTokens as cl100kCount } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200kCount } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { loadOpenAIEncoding } from "./index.ts";
import { EDGE_CASES, asciiText, mixedText } from "./test-support/split-text.ts";

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Several random texts joined, so that pieces repeat and come from the piece cache. */
const longerText = fc.array(fc.oneof(asciiText, mixedText), { maxLength: 12 }).map((parts) => parts.join(""));

describe.each([
  ["o200k_base", o200kCount],
  ["cl100k_base", cl100kCount],
] as const)("the %s tokenizer", (encoding, reference) => {
  const expected = (text: string) => reference(text, PLAIN_TEXT);

  it("counts the edge cases as gpt-tokenizer does", async () => {
    const { count } = await loadOpenAIEncoding(encoding);
    for (const text of EDGE_CASES) expect([text, count(text)]).toEqual([text, expected(text)]);
  });

  it("counts any text as gpt-tokenizer does (property, seeds 210, 211, 212)", async () => {
    const { count } = await loadOpenAIEncoding(encoding);
    const property = fc.property(fc.oneof(asciiText, mixedText), (text) => {
      expect(count(text)).toBe(expected(text));
    });
    fc.assert(property, { seed: 210, numRuns: 1500 });
    fc.assert(
      fc.property(longerText, (text) => {
        expect(count(text)).toBe(expected(text));
      }),
      { seed: 211, numRuns: 300 },
    );
    // the same texts again: now every piece's count comes from the cache
    fc.assert(property, { seed: 210, numRuns: 1500 });
    fc.assert(property, { seed: 212, numRuns: 1500 });
  });
});
