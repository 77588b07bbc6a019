import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countUtf8, utf8Length, writeJsonStringUtf8, writeUtf8 } from "./utf8.ts";

describe("utf8Length", () => {
  it.each([
    ["", 0],
    ["a", 1],
    ["abc", 3],
    ["é", 2],
    ["€", 3],
    ["你", 3],
    ["🙂", 4],
    ["😀", 4],
    ["\ud800", 3],
    ["\udc00x", 4],
    ["a\udc00b", 5],
    ["\ud800\ud800", 6],
  ] as const)("counts %j as %i bytes", (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
  });

  it("always equals the length TextEncoder writes, lone surrogates included (seeds 21, 32026, 32027)", () => {
    const encoder = new TextEncoder();
    const bytesOf = (text: string) => encoder.encode(text).length;
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => utf8Length(text) === bytesOf(text)),
      { seed: 3_2026, numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff })), (units) => {
        const text = String.fromCharCode(...units);
        return utf8Length(text) === bytesOf(text);
      }),
      { seed: 3_2027, numRuns: 200 },
    );
    // Any UTF-16 code unit (lone surrogates included) mixed with well-formed astral characters.
    const unit = fc.oneof(
      fc.nat(0xffff).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
    );
    fc.assert(
      fc.property(fc.string({ unit }), (text) => {
        expect(utf8Length(text)).toBe(bytesOf(text));
      }),
      { seed: 21, numRuns: 100 },
    );
  });

  it("with a cap, gives the exact length up to the cap and stops counting once past it", () => {
    expect(utf8Length("héllo", 6)).toBe(6);
    expect(utf8Length("héllo", 100)).toBe(6);
    // Past the cap the contract is only "some value > cap".
    expect(utf8Length("x".repeat(1_000), 10)).toBeGreaterThan(10);
    expect(utf8Length("😀😀😀", 4)).toBeGreaterThan(4);
    expect(utf8Length("😀".repeat(100_000), 200_001)).toBeGreaterThan(200_001);
  });

  it("counts long strings in chunks without splitting a surrogate pair at a chunk edge", () => {
    const encoder = new TextEncoder();
    for (const offset of [65_535, 65_536, 65_537, 131_071]) {
      const text = "a".repeat(offset) + "😀" + "é".repeat(70_000) + "\ud800";
      expect(utf8Length(text)).toBe(encoder.encode(text).length);
    }
    const lone = "b".repeat(65_535) + "\ud83d" + "c".repeat(10);
    expect(utf8Length(lone)).toBe(encoder.encode(lone).length);
  });
});

describe("the JavaScript UTF-8 loops (Blink's path, checked in every runtime)", () => {
  const encoder = new TextEncoder();
  // Any UTF-16 code unit (lone surrogates included) mixed with well-formed astral characters.
  const unit = fc.oneof(
    fc.nat(0x7f).map((c) => String.fromCharCode(c)),
    fc.nat(0xffff).map((c) => String.fromCharCode(c)),
    fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  );
  const agrees = (text: string) => {
    const expected = encoder.encode(text);
    const out = new Uint8Array(text.length * 3 + 4).fill(0xaa);
    const written = writeUtf8(text, out);
    expect(written).toBe(expected.length);
    // Plain arrays: in edge-runtime, TextEncoder's Uint8Array comes from another realm than the test's.
    expect(Array.from(out.subarray(0, written))).toEqual(Array.from(expected));
    expect(out[written]).toBe(0xaa); // nothing past what it says it wrote
    expect(countUtf8(text)).toBe(expected.length);
    // From an offset (a hash frames a text between bytes of its own): the same bytes, there.
    const at = new Uint8Array(text.length * 3 + 9).fill(0xaa);
    expect(writeUtf8(text, at, 5)).toBe(expected.length);
    expect(Array.from(at.subarray(0, 5))).toEqual([0xaa, 0xaa, 0xaa, 0xaa, 0xaa]);
    expect(Array.from(at.subarray(5, 5 + written))).toEqual(Array.from(expected));
    expect(at[5 + written]).toBe(0xaa);
  };

  it.each(["", "a", "é", "€", "\uffff", "\ufeffbom", "🙂", "a🙂b", "\ud800", "\udc00", "x\ud83d", "\ude42\ud83d"])(
    "write and count %j as TextEncoder does",
    agrees,
  );

  it("write and count a lone high surrogate before a pair as TextEncoder does", () => {
    // Built, not written as a literal: Deno 2.9 cannot parse the bundler's "\uD83D\u{1F642}".
    agrees(`${String.fromCharCode(0xd83d)}🙂`);
  });

  it("agree with TextEncoder on any string (seeds 1202, 1203)", () => {
    fc.assert(
      fc.property(fc.string({ unit }), (text) => agrees(text)),
      { seed: 1202, numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => agrees(text)),
      {
        seed: 1203,
        numRuns: 300,
      },
    );
  });

  it("count a range, a pair at its end counted whole only when both units are inside", () => {
    const text = "aé🙂z";
    expect(countUtf8(text, 1, 2)).toBe(2);
    expect(countUtf8(text, 2, 4)).toBe(4);
    expect(countUtf8(text, 2, 3)).toBe(3); // the high surrogate alone: U+FFFD
    expect(countUtf8(text, 0, text.length)).toBe(encoder.encode(text).length);
  });
});

describe("writeJsonStringUtf8", () => {
  const encoder = new TextEncoder();
  /** What it writes from index `at` of a fresh buffer, as an array (the bytes before `at` stay 0). */
  const written = (text: string, at = 0) => {
    const out = new Uint8Array(at + text.length * 6 + 2);
    const n = writeJsonStringUtf8(text, out, at);
    expect(out.subarray(0, at).every((b) => b === 0)).toBe(true);
    return [...out.subarray(at, at + n)];
  };
  const expected = (text: string) => [...encoder.encode(JSON.stringify(text))];

  it("writes the UTF-8 of JSON.stringify for every UTF-16 unit, alone and between letters", () => {
    // Escapes (\" \\ \b \t \n \f \r, \u00XX, lone surrogates as \udXXX), 1-, 2- and 3-byte characters.
    for (let c = 0; c <= 0xffff; c++) {
      const unit = String.fromCharCode(c);
      expect(written(unit), `U+${c.toString(16)}`).toEqual(expected(unit));
      expect(written(`a${unit}b`, 3), `U+${c.toString(16)} inside`).toEqual(expected(`a${unit}b`));
    }
  });

  it("writes surrogate pairs as 4 bytes and broken pairs as escapes", () => {
    // Broken pairs made from code units: some runtimes' parsers refuse such escapes once bundled.
    const [hi, lo] = [String.fromCharCode(0xd83d), String.fromCharCode(0xde00)];
    for (const text of ["🙂", "a😀b", hi, lo + hi, hi + hi + lo, `x${String.fromCharCode(0xd800)}`, "", "plain prose"])
      expect(written(text, 1), JSON.stringify(text)).toEqual(expected(text));
  });

  it("always writes what TextEncoder writes of JSON.stringify (property, seed 2026)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(written(text, 2)).toEqual(expected(text));
      }),
      { seed: 2026, numRuns: 300 },
    );
  });
});
