import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addTextFeatures, emptyTextFeatures, TEXT_FEATURES, textFeatures } from "./text-features.ts";

describe("textFeatures", () => {
  it("counts words, letters, digits, punctuation and JSON structure in English text", () => {
    expect(textFeatures('Order A-10293 shipped, {"eta": 3}')).toEqual({
      words: 4, // Order, A, shipped, eta
      letters: 16,
      numbers: 2,
      digits: 6,
      punct: 1, // -
      structure: 6, // , { " " : }
      newlines: 0,
      blanks: 0, // single spaces are folded into the next word
      cjk: 0,
      otherLetters: 0,
      otherWords: 0,
      symbols: 0,
    });
  });

  it("counts runs of blanks and newlines, not single spaces", () => {
    const f = textFeatures("a b\n\n    c\td");
    expect(f.newlines).toBe(2);
    expect(f.blanks).toBe(2); // "\n\n    " and "\t"
    expect(f.words).toBe(4);
  });

  it("counts CJK per code point, other scripts per letter and word, emoji as one symbol each", () => {
    const f = textFeatures("東京は晴れ Привет мир 👍🏽 𠀀");
    expect(f.cjk).toBe(6); // 東京は晴れ and the supplementary ideograph
    expect(f.otherLetters).toBe(9);
    expect(f.otherWords).toBe(2);
    expect(f.symbols).toBe(2); // the emoji and its skin-tone modifier (a lone surrogate pair each)
    expect(f.words).toBe(0);
  });

  it("treats accented Latin letters as part of the word", () => {
    expect(textFeatures("café naïve")).toMatchObject({ words: 2, letters: 9 });
  });

  it("counts a lone surrogate as a symbol without throwing", () => {
    expect(textFeatures("a\uD800b").symbols).toBe(1);
  });

  it("adds at an offset, leaving the other slots alone", () => {
    const v = new Float64Array(TEXT_FEATURES.length * 2);
    addTextFeatures("abc", v, TEXT_FEATURES.length);
    expect(v[0]).toBe(0);
    expect(v[TEXT_FEATURES.length]).toBe(1);
  });

  it("is additive over texts that split at a space-free boundary between classes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), (a, b) => {
        const joined = addTextFeatures(`${a}\u0001${b}`); // a control character separates the runs
        const sum = addTextFeatures(b, addTextFeatures(a));
        addTextFeatures("\u0001", sum);
        expect([...joined]).toEqual([...sum]);
      }),
    );
  });

  it("gives every count ≥ 0 and at most the text length", () => {
    fc.assert(
      // A plain predicate (one `expect` per value made this property take seconds on a busy machine).
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (s) =>
        addTextFeatures(s, emptyTextFeatures()).every((v) => v >= 0 && v <= s.length),
      ),
    );
  });
});
