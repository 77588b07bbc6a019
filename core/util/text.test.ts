import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonPrefixLength, foldedStart, foldWhitespace, safeEnd, safeSlice } from "./text.ts";

describe("safeSlice", () => {
  it.each([
    ["abcdef", 1, 4, "bcd"],
    ["abc", -5, 99, "abc"],
    ["a😀b", 0, 2, "a"],
    ["a😀b", 2, 4, "b"],
    ["a😀b", 1, 3, "😀"],
    ["😀", 0, 1, ""],
    ["abc", 2, 1, ""],
  ] as const)("slices %j from %i to %i as %j", (text, start, end, expected) => {
    expect(safeSlice(text, start, end)).toBe(expected);
  });

  it("never starts or ends inside a surrogate pair and stays within the requested range (seed 7)", () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom("a", "é", "\n"),
        fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
      ),
    });
    fc.assert(
      fc.property(text, fc.nat(40), fc.nat(40), (s, start, end) => {
        const out = safeSlice(s, start, end);
        expect(() => encodeURIComponent(out)).not.toThrow(); // throws on a lone surrogate
        expect(s.slice(start, Math.max(start, end)).includes(out)).toBe(true);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});

describe("foldWhitespace", () => {
  it.each([
    ["a b", "a b"],
    ["a  b", "a b"],
    ["a\nb", "a b"],
    [" \t\r\n a\u00a0\u2028b ", " a b "],
    ["", ""],
  ] as const)("folds %j to %j", (text, expected) => {
    expect(foldWhitespace(text)).toBe(expected);
  });

  it("gives what replacing every whitespace run with one space gives (property, seed 11)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "\t", "\u00a0", "\u3000", "\ufeff", "é") });
    fc.assert(
      fc.property(text, (s) => foldWhitespace(s) === s.replace(/\s+/g, " ")),
      { seed: 11, numRuns: 500 },
    );
  });
});

describe("commonPrefixLength", () => {
  it("is the length of the longest common prefix (property, seed 2614)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 9000 }), fc.string(), fc.string(), (p, a, b) => {
        const n = commonPrefixLength(p + a, p + b);
        expect((p + a).slice(0, n)).toBe((p + b).slice(0, n));
        expect(n >= p.length).toBe(true);
        expect(n === Math.min(p.length + a.length, p.length + b.length) || (p + a)[n] !== (p + b)[n]).toBe(true);
      }),
      { seed: 2614, numRuns: 200 },
    );
  });
});

describe("foldedStart and safeEnd", () => {
  const reference = (text: string, cut: number, max: number) =>
    safeSlice(foldWhitespace(safeSlice(text, 0, cut)), 0, max);

  it("folds exactly the whitespace a regular expression's \\s matches, every UTF-16 unit", () => {
    for (let c = 0; c <= 0xffff; c++) {
      const unit = String.fromCharCode(c);
      for (const text of [`a${unit}b`, `a ${unit}b`, `${unit}${unit}`])
        expect(foldedStart(text, 120, 80), `U+${c.toString(16)} in ${JSON.stringify(text)}`).toBe(
          reference(text, 120, 80),
        );
    }
  });

  it("cuts as safeSlice cuts, never between the halves of a pair, with or without folding", () => {
    const pair = "🙂";
    for (let n = 70; n <= 130; n++) {
      const plain = "x".repeat(n) + pair.repeat(30);
      const spaced = `a\n${plain}`;
      for (const [cut, max] of [
        [120, 80],
        [80, 80],
        [n + 1, n + 1],
      ] as const) {
        expect(foldedStart(plain, cut, max), `${n} ${cut} ${max}`).toBe(reference(plain, cut, max));
        expect(foldedStart(spaced, cut, max), `${n} ${cut} ${max}, folded`).toBe(reference(spaced, cut, max));
      }
      expect(safeEnd(plain, n + 1)).toBe(safeSlice(plain, 0, n + 1).length);
    }
    expect(safeEnd("abc", -4)).toBe(0);
    expect(safeEnd("abc", 10)).toBe(3);
  });

  it("equals its reference for any text (property, seed 2027)", () => {
    const units = fc.constantFrom(
      "a",
      "Z",
      " ",
      " ",
      "\n",
      "\t",
      "\u00a0",
      "\u2028",
      "\ufeff",
      "\u3000",
      "\ud83d",
      "\ude00",
      "\u180e",
    );
    fc.assert(
      fc.property(fc.array(units, { maxLength: 200 }), fc.integer({ min: 0, max: 130 }), (parts, max) => {
        const text = parts.join("");
        expect(foldedStart(text, 120, Math.min(max, 120))).toBe(reference(text, 120, Math.min(max, 120)));
      }),
      { seed: 2027, numRuns: 500 },
    );
  });
});
