import { describe, expect, it } from "vitest";
import { memoizedTokenizer } from "./tokenizer-memo.ts";
import type { Tokenizer } from "./types.ts";

describe("memoizedTokenizer", () => {
  const counting = () => {
    const seen: string[] = [];
    const tokenizer: Tokenizer = {
      kind: "strata-tokenizer",
      provider: "openai",
      encoding: "o200k_base",
      count: (text) => {
        seen.push(text);
        return text.split(" ").length;
      },
    };
    return { tokenizer, seen };
  };

  it("gives the tokenizer's own counts and asks it once per text", () => {
    const { tokenizer, seen } = counting();
    const memo = memoizedTokenizer(tokenizer);
    const texts = ["a b c", "a b c", "x", "a b c", "x y"];
    expect(texts.map((t) => memo.count(t))).toEqual(texts.map((t) => tokenizer.count(t)));
    expect(seen.slice(0, 3)).toEqual(["a b c", "x", "x y"]);
    expect({ ...memo, count: undefined }).toEqual({ ...tokenizer, count: undefined });
  });

  it("counts a text longer than an engine hashes by content every time", () => {
    const { tokenizer, seen } = counting();
    const memo = memoizedTokenizer(tokenizer);
    const long = "w ".repeat(10_000);
    memo.count(long);
    memo.count(long);
    expect(seen).toEqual([long, long]);
  });

  it("does not wrap its own tokenizer again", () => {
    const memo = memoizedTokenizer(counting().tokenizer);
    expect(memoizedTokenizer(memo)).toBe(memo);
  });

  it("hands back anything that is not a tokenizer as is, for the counter's own error", () => {
    const fake = { kind: "other", count: () => 1 };
    expect(memoizedTokenizer(fake)).toBe(fake);
    expect(memoizedTokenizer(undefined)).toBeUndefined();
  });
});
