import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonPrefixLength, foldWhitespace, safeSlice } from "./text.ts";

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
