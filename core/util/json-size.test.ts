import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonBytes, type JsonSize, sizeJson } from "./json-size.ts";
import { utf8Length } from "./utf8.ts";

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

/** Strings short and long (past `SHORT`, where a native scan comes first), mostly plain, with one special character or many. */
const special = fc.constantFrom(
  "\u0000",
  "\u001f",
  "\b",
  "\n",
  "\r",
  "\t",
  '"',
  "\\",
  "\ud800",
  "\udc00",
  "😀",
  "é",
  "€",
);
const longText = fc
  .tuple(fc.string({ unit: "grapheme-ascii", minLength: 20, maxLength: 60 }), fc.option(special), fc.nat(60))
  .map(([text, char, at]) => (char === null ? text : text.slice(0, at) + char + text.slice(at)));

/** JSON-like data with every kind of string, numbers JSON writes oddly and the values it drops. */
const anyData = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ unit: "binary" }),
    fc.string({ unit: "binary", minLength: 20, maxLength: 60 }),
    longText,
    fc.string({
      maxLength: 40,
      unit: fc.constantFrom(
        "\u0000",
        "\u001f",
        "\b",
        "\t",
        "\n",
        "\f",
        "\r",
        '"',
        "\\",
        "\ud800",
        "\udc00",
        "é",
        "€",
        "😀",
        "a",
        "\u007f",
        "\u2028",
      ),
    }),
    fc.double(),
    fc.integer(),
    fc.constantFrom(
      0,
      -0,
      1e21,
      1e-7,
      -1.5e300,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      NaN,
      Infinity,
      -Infinity,
    ),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(undefined, () => 1, Symbol("s")),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("0", "10", "2", "__proto__", "a\nb")),
      tie("value"),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;

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
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const special = [
      { when: new Date(Date.UTC(2026, 11, 3)) },
      { custom: { toJSON: () => "replaced" } },
      [new Map([[1, 2]]), new Set([1])],
      { point: new Point(1, 2) },
      [new String("boxed"), new Number(5), new Boolean(false)],
      Object.assign([1, 2], { toJSON: () => ({ list: true }) }),
      { typed: new Uint8Array([1, 2, 3]) },
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
    for (const value of [{ when: new Date(0) }, [{ toJSON: () => 1 }], { n: 10n }, new Map(), undefined, () => 1])
      expect(jsonBytes(value)).toBe(-1);
  });
});
