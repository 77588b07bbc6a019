import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addTextFeatures, emptyTextFeatures, TEXT_FEATURES, textFeatures } from "./text-features.ts";
import { referenceAddTextFeatures } from "./text-features-reference.ts";

/** One code point (or a lone surrogate) from `lo` to `hi`. */
const codeIn = (lo: number, hi: number) =>
  fc
    .integer({ min: lo, max: hi })
    .map((c) => (c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c) : String.fromCodePoint(c)));

/** Characters from every range the scanner tells apart, and runs of them. */
const anyUnit = fc.oneof(
  { weight: 8, arbitrary: codeIn(0x00, 0x7f) }, // ASCII, controls included
  {
    weight: 8,
    arbitrary: fc.constantFrom(..."abcXYZ019", " ", " ", " ", "\n", "\t", "\r", "\v", "\f", '{"', ":", ",", "-", "."),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom("word ", " a", "  ", "\r\n", " \n ", "12 34", "é ", "a é", " Ж", "ab\u00a0cd"),
  },
  { weight: 3, arbitrary: codeIn(0x80, 0xff) }, // Latin-1 (with × ÷ and U+00A0)
  { weight: 2, arbitrary: codeIn(0x100, 0x2ff) }, // Latin Extended-A/B, IPA, modifier letters
  { weight: 3, arbitrary: codeIn(0x300, 0x1fff) }, // marks, Greek, Cyrillic, Arabic, Indic, Thai, …, Latin Extended Additional
  { weight: 2, arbitrary: codeIn(0x2000, 0x2fff) }, // Unicode spaces, U+2028/9, punctuation, arrows, CJK radicals
  { weight: 2, arbitrary: codeIn(0x3000, 0x9fff) }, // CJK punctuation, kana, ideographs
  { weight: 1, arbitrary: codeIn(0xa000, 0xd7ff) }, // Yi … Hangul
  { weight: 1, arbitrary: codeIn(0xd800, 0xdfff) }, // lone surrogates
  { weight: 1, arbitrary: codeIn(0xe000, 0xffff) }, // private use, compatibility ideographs, half/full width
  { weight: 2, arbitrary: codeIn(0x10000, 0x10ffff) }, // surrogate pairs
  { weight: 2, arbitrary: codeIn(0x1f300, 0x1faff) }, // emoji
  { weight: 1, arbitrary: codeIn(0x20000, 0x40000) }, // supplementary ideographs and just past them
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "\u00a0",
      "\u1680",
      "\u2000",
      "\u200a",
      "\u200b",
      "\u2028",
      "\u2029",
      "\u202f",
      "\u3000",
      "\ufeff",
      "\u00d7",
      "\u00f7",
      "\u00bf",
      "\u00c0",
      "\u024f",
      "\u0250",
      "\u02ff",
      "\u0300",
      "\u1dff",
      "\u1e00",
      "\u1eff",
      "\u1f00",
      "\u1fff",
      "\ud83d",
      "\ude00",
      "\ud83d\ude00",
      "\ud840\udc00",
      "\ud8bf\udfff",
      "\ud8c0\udc00",
    ),
  },
);

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

  it("counts as a plain code-point-by-code-point reading does, on any text", () => {
    // The oracle: one code point at a time, classes by range, runs by the previous class. Written
    // for clarity, not speed: addTextFeatures must agree with it exactly.
    const inRanges = (c: number, ranges: readonly (readonly [number, number])[]) =>
      ranges.some(([lo, hi]) => c >= lo && c <= hi);
    const LATIN_EXT: [number, number][] = [
      [0xc0, 0xd6],
      [0xd8, 0xf6],
      [0xf8, 0x24f],
      [0x1e00, 0x1eff],
    ];
    const OTHER: [number, number][] = [
      [0x300, 0x36f],
      [0x370, 0x1fff],
    ];
    const USPACE: [number, number][] = [
      [0xa0, 0xa0],
      [0x1680, 0x1680],
      [0x2000, 0x200a],
      [0x2028, 0x2029],
      [0x202f, 0x202f],
    ];
    const CJK: [number, number][] = [
      [0x2e80, 0x2fdf],
      [0x3000, 0x31ff],
      [0x3400, 0x4dbf],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7af],
      [0xf900, 0xfaff],
      [0xff00, 0xffef],
      [0x20000, 0x3ffff],
    ];
    const oracle = (text: string) => {
      const f = Object.fromEntries(TEXT_FEATURES.map((n) => [n, 0])) as Record<string, number>;
      let prev = "";
      let run = "";
      for (const ch of text) {
        const c = ch.codePointAt(0)!;
        const cls =
          /[A-Za-z]/.test(ch) || inRanges(c, LATIN_EXT)
            ? "latin"
            : /[0-9]/.test(ch)
              ? "digit"
              : /[ \t\n\r\v\f]/.test(ch)
                ? "space"
                : inRanges(c, OTHER)
                  ? "other" // before the spaces: U+1680 (Ogham space) counts as a letter
                  : inRanges(c, USPACE)
                    ? "space"
                    : "";
        if (cls === "space") run += ch;
        else if (run !== "") {
          if (run !== " ") f.blanks!++;
          run = "";
        }
        if (ch === "\n") f.newlines!++;
        if (cls === "latin") {
          f.letters!++;
          if (prev !== "latin") f.words!++;
        }
        if (cls === "digit") {
          f.digits!++;
          if (prev !== "digit") f.numbers!++;
        }
        if (cls === "other") {
          f.otherLetters!++;
          if (prev !== "other") f.otherWords!++;
        }
        if (cls === "" && c < 128) {
          if ('{}[]":,'.includes(ch)) f.structure!++;
          else if (c > 32 && c < 127) f.punct!++;
          else f.symbols!++;
        } else if (cls === "") {
          if (inRanges(c, CJK)) f.cjk!++;
          else f.symbols!++;
        }
        prev = cls;
      }
      if (run !== "" && run !== " ") f.blanks!++;
      return f;
    };
    // Every range edge and its neighbours, where an off-by-one would hide from random text.
    const edges = [
      ...LATIN_EXT,
      ...OTHER,
      ...USPACE,
      ...CJK,
      [0xd800, 0xdfff] as [number, number],
      [0x7f, 0x80] as [number, number],
    ]
      .flatMap(([lo, hi]) => [lo - 1, lo, hi, hi + 1])
      .filter((c) => c >= 0 && c <= 0x10ffff)
      .map((c) => (c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c) : String.fromCodePoint(c)));
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom(...edges, "a", " ", "\n"), maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ unit: "grapheme", maxLength: 200 }),
      fc.string({
        unit: fc.constantFrom("a", "Z", "é", "7", " ", "  ", "\n", "\t", "{", "-", "ж", "東", "👍", "\u00a0", "\ud800"),
        maxLength: 200,
      }),
    );
    fc.assert(
      fc.property(text, (s) => {
        const got = textFeatures(s);
        const want = oracle(s);
        return TEXT_FEATURES.every((n) => got[n] === want[n]);
      }),
      { numRuns: 2000 },
    );
  });

  it("counts exactly as the scanner it replaced, on text from every Unicode range (property)", () => {
    const same = (s: string) => {
      const got = addTextFeatures(s);
      const want = referenceAddTextFeatures(s);
      return TEXT_FEATURES.every((_, k) => got[k] === want[k]);
    };
    fc.assert(fc.property(fc.string({ unit: anyUnit, maxLength: 400 }), same), { numRuns: 3000 });
    // whole random UTF-16, lone surrogates included
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 400 }), same), { numRuns: 1000 });
    // and at an offset, added onto counts already there
    fc.assert(
      fc.property(
        fc.string({ unit: anyUnit, maxLength: 100 }),
        fc.string({ unit: anyUnit, maxLength: 100 }),
        (a, b) => {
          const got = addTextFeatures(b, addTextFeatures(a, new Float64Array(36), 12), 12);
          const want = referenceAddTextFeatures(b, referenceAddTextFeatures(a, new Float64Array(36), 12), 12);
          return got.every((v, k) => v === want[k]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
