import fc from "fast-check";
import { jsonLikeArb as anyData } from "../test-support/arbitraries.ts";
import { describe, expect, it } from "vitest";
import { jsonBytes, type JsonSize, sizeJson } from "./json-size.ts";
import { utf8Length } from "./utf8.ts";
import { specialJsonValues } from "../test-support/json-special.ts";

const encoder = new TextEncoder();

/** What the sizes must be: `JSON.stringify` itself, measured. */
function expected(value: unknown): JsonSize {
  const json = JSON.stringify(value) ?? "";
  return { chars: json.length, bytes: encoder.encode(json).length };
}

function sized(value: unknown, withBytes = true): JsonSize {
  const out: JsonSize = { chars: -1, bytes: -1 };
  sizeJson(value, out, withBytes);
  return out;
}

describe("sizeJson", () => {
  it("equals JSON.stringify's length and UTF-8 bytes for any JSON-like data (seed 2026_1203)", () => {
    fc.assert(
      fc.property(anyData, (value) => {
        expect(sized(value)).toEqual(expected(value));
      }),
      { seed: 2026_1203, numRuns: 600 },
    );
  });

  it.each([
    ["plain text", "hello", 7],
    ["escapes", 'a"b\\c\nd\u0001', 18],
    ["a pair and a lone surrogate", "😀\ud800", 10],
    ["numbers", [0, -0, -12, 3.5, 1e21, NaN, -Infinity], 29],
    ["dropped and nulled members", { a: undefined, b: [undefined, () => 0], c: Symbol("x"), d: 1 }, 23],
    ["integer keys first", { b: 1, 2: 2, a: 3, 1: 4 }, 25],
    ["nothing", undefined, 0],
    ["a function", () => 0, 0],
  ] as const)("sizes %s as JSON.stringify writes them", (_name, value, chars) => {
    expect(sized(value)).toEqual(expected(value));
    expect(sized(value).chars).toBe(chars);
  });

  it("leaves bytes at 0 when not asked for them", () => {
    expect(sized({ text: "é€😀" }, false)).toEqual({ chars: expected({ text: "é€😀" }).chars, bytes: 0 });
  });

  it("hands anything JSON.stringify treats specially to JSON.stringify: toJSON, Date, Map, class instances, boxed values", () => {
    const special = [
      ...specialJsonValues(),
      Object.create(null, { own: { value: "x", enumerable: true }, hidden: { value: "y", enumerable: false } }),
    ];
    for (const value of special) expect(sized(value)).toEqual(expected(value));
  });

  it("sizes nesting past its depth limit as JSON.stringify writes it", () => {
    let deep: unknown = "end";
    for (let i = 0; i < 500; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(sized(deep)).toEqual(expected(deep));
  });

  it("throws what JSON.stringify throws: a cycle, a BigInt", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle["self"] = { back: cycle };
    expect(() => sized(cycle)).toThrow(TypeError);
    expect(() => sized({ n: 10n })).toThrow(TypeError);
  });

  it("does not count an enumerable key inherited from Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto["polluted"] = "yes";
    try {
      const value = { own: 1 };
      expect(sized(value)).toEqual(expected(value));
      expect(sized(value).chars).toBe('{"own":1}'.length);
    } finally {
      delete proto["polluted"];
    }
  });

  it("counts bytes as utf8Length counts the written JSON", () => {
    const value = { text: "naïve ☕ 😀", list: ["\u00e9", "\ud83d"] };
    expect(sized(value).bytes).toBe(utf8Length(JSON.stringify(value)));
  });
});

describe("jsonBytes", () => {
  it("is the UTF-8 length of JSON.stringify for any JSON-like data (seed 2026_1204)", () => {
    fc.assert(
      fc.property(anyData, (value) => {
        const json = JSON.stringify(value);
        expect(jsonBytes(value)).toBe(json === undefined ? -1 : encoder.encode(json).length);
      }),
      { seed: 2026_1204, numRuns: 600 },
    );
  });

  it("is -1, writing nothing, for what JSON.stringify treats specially", () => {
    for (const value of [...specialJsonValues(), { n: 10n }, undefined, () => 1]) expect(jsonBytes(value)).toBe(-1);
  });
});
