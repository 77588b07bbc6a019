import fc from "fast-check";
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { describe, expect, it } from "vitest";
import { pieceCounter } from "./piece-counter.ts";
import { cl100kPieceEnd } from "./split-cl100k.ts";
import { o200kPieceEnd } from "./split-o200k.ts";
import { EDGE_CASES, asciiText, mixedText } from "./test-support/split-text.ts";

/** Pieces are the words of a text and the spaces before them. */
const wordEnd = (text: string, i: number): number => {
  let end = i + 1;
  while (end < text.length && text[end] !== " ") end++;
  return end;
};

function counting() {
  const calls: string[] = [];
  return { calls, countPiece: (piece: string) => (calls.push(piece), piece.length) };
}

describe("pieceCounter", () => {
  it("sums the counts of the pieces, counting each distinct piece once", () => {
    const { calls, countPiece } = counting();
    const count = pieceCounter(wordEnd, countPiece);
    expect(count("")).toBe(0);
    expect(count("ab ab ab c")).toBe(10);
    expect(count("c ab")).toBe(4);
    expect(calls).toEqual(["ab", " ab", " c", "c"]);
  });

  it("keeps at most two generations of pieces and takes back a piece of the old one", () => {
    const { calls, countPiece } = counting();
    const count = pieceCounter(wordEnd, countPiece, 2);
    count("a b");
    count(" c"); // young [" c"], old ["a", " b"]
    count(" b"); // from the old generation, back into the young one: young [" c", " b"]
    count(" d"); // young full: old [" c", " b"], young [" d"]; "a" is dropped
    expect(count("a")).toBe(1); // counted again: young [" d", "a"]
    expect(count(" b")).toBe(2); // still kept
    expect(calls).toEqual(["a", " b", " c", " d", "a"]);
  });

  it("tells apart pieces of one length with the same hash", () => {
    // FNV-1a gives "yacxc" and "glbvq" the same 32-bit hash (as it does "gvlpl" and "yomzz")
    const { calls, countPiece } = counting();
    const weigh = (piece: string) => (countPiece(piece), piece.charCodeAt(0));
    for (const words of [undefined, "cased", "any"] as const) {
      calls.length = 0;
      const count = pieceCounter(words === undefined ? wordEnd : o200kPieceEnd, weigh, undefined, words);
      expect(count("yacxc glbvq gvlpl yomzz")).toBe(
        count("yacxc") + count(" glbvq") + count(" gvlpl") + count(" yomzz"),
      );
      expect([count("glbvq"), count("yacxc"), count(" yomzz"), count(" gvlpl")]).toEqual([0x67, 0x79, 0x20, 0x20]);
      expect(calls).toEqual(["yacxc", " glbvq", " gvlpl", " yomzz", "glbvq"]);
    }
  });

  it("keeps the pieces it had when its store of code units grows", () => {
    const { calls, countPiece } = counting();
    const count = pieceCounter(wordEnd, countPiece, 4); // room for 128 code units at first
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(60));
    expect(count(`${a} ${b} ${c}`)).toBe(182); // the third piece grows the store
    expect(count(`${a} ${b} ${c}`)).toBe(182);
    expect(calls).toEqual([a, ` ${b}`, ` ${c}`]);
  });

  it("counts a long piece every time instead of keeping it", () => {
    const { calls, countPiece } = counting();
    const count = pieceCounter(wordEnd, countPiece);
    const long = "x".repeat(129);
    expect(count(long) + count(long)).toBe(258);
    expect(calls).toEqual([long, long]);
  });

  it.each([
    ["cased", "o200k_base", o200kPieceEnd, O200K_TOKEN_SPLIT_REGEX],
    ["any", "cl100k_base", cl100kPieceEnd, CL100K_TOKEN_SPLIT_REGEX],
  ] as const)(
    "finds ASCII words (%s, %s) where the regex does, kept or not (property, seed 203)",
    (words, _name, pieceEnd, re) => {
      // A count that tells pieces apart: a wrong boundary or a wrong key changes the sum.
      const weigh = (piece: string) => {
        let h = piece.length;
        for (let k = 0; k < piece.length; k++) h = (h * 31 + piece.charCodeAt(k)) % 1_000_003;
        return h;
      };
      const expected = (text: string) => (text.match(re) ?? []).reduce((sum, piece) => sum + weigh(piece), 0);
      const long = fc.constantFrom(" ", "x", "Ab", "'s", "\u0301").map((s) => s.repeat(130));
      const text = fc.array(fc.oneof(asciiText, mixedText, long), { maxLength: 6 }).map((parts) => parts.join(""));
      // generations of 2 and of 64 pieces: both turn over, the small one at almost every piece
      for (const generation of [2, 64]) {
        const count = pieceCounter(pieceEnd, weigh, generation, words);
        for (const t of EDGE_CASES) expect([t, count(t)]).toEqual([t, expected(t)]);
        fc.assert(
          fc.property(text, (t) => count(t) === expected(t)),
          { seed: 203, numRuns: 1500 },
        );
      }
    },
  );
});
