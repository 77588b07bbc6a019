import fc from "fast-check";
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { describe, expect, it } from "vitest";
import { cl100kPieceEnd } from "./split-cl100k.ts";
import { o200kPieceEnd } from "./split-o200k.ts";
import { EDGE_CASES, asciiText, mixedText } from "./test-support/split-text.ts";

function pieces(text: string, pieceEnd: (text: string, i: number) => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const end = pieceEnd(text, i);
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

const regexPieces = (text: string, re: RegExp): string[] => text.match(re) ?? [];

describe.each([
  ["o200k_base", o200kPieceEnd, O200K_TOKEN_SPLIT_REGEX],
  ["cl100k_base", cl100kPieceEnd, CL100K_TOKEN_SPLIT_REGEX],
] as const)("the %s pre-tokenizer", (_name, pieceEnd, re) => {
  it.each(EDGE_CASES.map((t) => [JSON.stringify(t), t]))("splits %s as the regex does", (_label, text) => {
    expect(pieces(text, pieceEnd)).toEqual(regexPieces(text, re));
  });

  it("splits ASCII text as the regex does (property, seed 200)", () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        expect(pieces(text, pieceEnd)).toEqual(regexPieces(text, re));
      }),
      { seed: 200, numRuns: 3000 },
    );
  });

  it("splits text with non-ASCII letters, marks, numbers, spaces and surrogates as the regex does (property, seed 201)", () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(pieces(text, pieceEnd)).toEqual(regexPieces(text, re));
      }),
      { seed: 201, numRuns: 3000 },
    );
  });

  it("gives pieces that the regex splits, alone, into themselves (property, seed 202)", () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        for (const piece of pieces(text, pieceEnd)) expect(regexPieces(piece, re)).toEqual([piece]);
      }),
      { seed: 202, numRuns: 1000 },
    );
  });
});
