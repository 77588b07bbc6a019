import { describe, expect, it } from "vitest";
import { pieceCounter } from "./piece-counter.ts";

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

  it("counts a long piece every time instead of keeping it", () => {
    const { calls, countPiece } = counting();
    const count = pieceCounter(wordEnd, countPiece);
    const long = "x".repeat(129);
    expect(count(long) + count(long)).toBe(258);
    expect(calls).toEqual([long, long]);
  });
});
