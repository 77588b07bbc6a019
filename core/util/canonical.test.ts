import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./errors.ts";
import { DEFAULT_MAX_JSON_DEPTH } from "./json.ts";
import { canonicalJson, sortedKeys, writeCanonicalJsonUtf8, writeJsonUtf8 } from "./canonical.ts";

function nested(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = wrap(v);
  return v;
}

function errorOf(f: () => unknown): InvalidInputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return e as InvalidInputError;
  }
  throw new Error("expected an InvalidInputError");
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops what JSON.stringify drops", () => {
    expect(canonicalJson({ b: [3, undefined, () => 1], a: { d: 1, c: undefined, e: "x" } })).toBe(
      '{"a":{"d":1,"e":"x"},"b":[3,null,null]}',
    );
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("keeps the data and ignores key order, for any JSON value (property, seed 2401)", () => {
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverseKeys)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(
              Object.keys(v)
                .reverse()
                .map((k) => [k, reverseKeys((v as Record<string, unknown>)[k])]),
            )
          : v;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(canonicalJson(reverseKeys(v))).toBe(text);
      }),
      { seed: 2401, numRuns: 200 },
    );
  });

  it(`accepts ${DEFAULT_MAX_JSON_DEPTH} levels of nesting, as parseJson does, and refuses one more`, () => {
    expect(canonicalJson(nested(DEFAULT_MAX_JSON_DEPTH, (v) => [v]))).toHaveLength(2 * DEFAULT_MAX_JSON_DEPTH + 1);
    const e = errorOf(() => canonicalJson(nested(DEFAULT_MAX_JSON_DEPTH + 1, (v) => [v])));
    expect(e.code).toBe("json_too_deep");
    expect(e.message).toMatch(/nests deeper than 1000 levels/);
  });

  it.each([
    ["arrays", (v: unknown) => [v]],
    ["objects", (v: unknown) => ({ a: v })],
  ])("gives a typed error, not a stack overflow, for 100,000 nested %s", (_, wrap) => {
    const e = errorOf(() => canonicalJson(nested(100_000, wrap)));
    expect(e.code).toBe("json_too_deep");
    expect(e.field).toMatch(/^value(\[0\]|\.a){12}…\(1000 levels deep\)$/);
  });

  it("names a cycle by its path", () => {
    const a: Record<string, unknown> = { list: [1, {}] };
    (a["list"] as unknown[])[1] = { back: a };
    const e = errorOf(() => canonicalJson(a, { path: "tools[0].inputSchema" }));
    expect(e).toMatchObject({ code: "json_cycle", field: "tools[0].inputSchema.list[1].back" });
  });

  it("allows the same object twice when it is not its own ancestor", () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it("refuses a BigInt by path instead of a raw TypeError", () => {
    expect(errorOf(() => canonicalJson({ n: [1n] }))).toMatchObject({ code: "not_json", field: "value.n[0]" });
  });
});

describe("canonicalJson, strict policy", () => {
  const strict = (v: unknown) => canonicalJson(v, { policy: "strict", path: "args" });

  it("writes JSON data exactly as the lenient policy does", () => {
    const v = { b: [1, "two", null, true], a: { y: 2.5, x: "é" } };
    expect(strict(v)).toBe(canonicalJson(v));
  });

  it.each<[string, unknown, string]>([
    ["a function property", { f: () => 1 }, "args.f"],
    ["a function in an array", [1, () => 1], "args[1]"],
    ["NaN", { n: Number.NaN }, "args.n"],
    ["Infinity", [Number.POSITIVE_INFINITY], "args[0]"],
    ["a Date", { when: new Date(0) }, "args.when"],
    ["a Map", { m: new Map() }, "args.m"],
    ["a symbol", { s: Symbol("x") }, "args.s"],
    ["undefined at the root", undefined, "args"],
  ])("refuses %s, naming its path", (_, value, path) => {
    expect(errorOf(() => strict(value))).toMatchObject({ code: "not_json", field: path });
  });

  it("still skips undefined object properties, as JSON.stringify does", () => {
    expect(strict({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it("builds the caller's error from the failure", () => {
    const error = (f: { path: string; problem: string }) => new RangeError(`${f.path} ${f.problem}`);
    expect(() => canonicalJson({ n: 1n }, { policy: "strict", error })).toThrow(
      new RangeError("value.n is a BigInt, which JSON cannot represent"),
    );
  });
});

const encoder = new TextEncoder();

/** `writer` into a buffer of `size` bytes from `at`: the bytes written, or -1. */
const writeWith =
  (writer: typeof writeJsonUtf8) =>
  (value: unknown, size = 1 << 16, at = 0): number | number[] => {
    const out = new Uint8Array(size);
    const n = writer(value, out, at);
    return n < 0 ? n : [...out.subarray(at, at + n)];
  };

describe("writeCanonicalJsonUtf8", () => {
  const write = writeWith(writeCanonicalJsonUtf8);

  it("writes the UTF-8 of canonicalJson for what JSON.parse makes (property, seed 2402)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 7 }), (v, at) => {
        const parsed: unknown = JSON.parse(JSON.stringify(v));
        expect(write(parsed, 1 << 16, at)).toEqual([...encoder.encode(canonicalJson(parsed))]);
      }),
      { seed: 2402, numRuns: 300 },
    );
  });

  it("sorts keys by UTF-16 units and escapes keys and strings as JSON.stringify does", () => {
    const value = JSON.parse('{"b":[1,-0.5,1e21,true,null,{}],"a":{"z\\u0000":"\\ud800","é":"🙂"},"10":"x","9":[]}');
    expect(write(value)).toEqual([...encoder.encode(canonicalJson(value))]);
  });

  it("gives -1 where canonicalJson must write it (and throw what it throws)", () => {
    let deep: unknown = 0;
    for (let i = 0; i < DEFAULT_MAX_JSON_DEPTH + 1; i++) deep = [deep];
    expect(write(deep, 1 << 20)).toBe(-1);
    class Point {
      x = 1;
    }
    for (const value of [
      new Point(),
      new Date(0),
      { f: () => 1 },
      10n,
      Number.NaN,
      { n: Number.POSITIVE_INFINITY },
      Symbol("s"),
    ])
      expect(write(value)).toBe(-1);
    // It does not fit: nothing is written past the buffer.
    expect(write({ a: "xxxxxxxx" }, 8)).toBe(-1);
    expect(write("x", 2)).toBe(-1);
    expect(write([], 1)).toBe(-1);
  });

  it(`writes ${DEFAULT_MAX_JSON_DEPTH} levels of nesting, as canonicalJson does`, () => {
    let deep: unknown = 0;
    for (let i = 0; i < DEFAULT_MAX_JSON_DEPTH; i++) deep = [deep];
    expect(write(deep, 1 << 20)).toEqual([...encoder.encode(canonicalJson(deep))]);
  });
});

describe("writeJsonUtf8", () => {
  const write = writeWith(writeJsonUtf8);

  it("writes the UTF-8 of JSON.stringify, keys in their own order, for what JSON.parse makes (property, seed 2403)", () => {
    // Lone surrogates and keys out of order included: fast-check's strings cover the whole UTF-16 range.
    const value = fc.jsonValue({ stringUnit: "binary" });
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 7 }), (v, at) => {
        const parsed: unknown = JSON.parse(JSON.stringify(v));
        expect(write(parsed, 1 << 16, at)).toEqual([...encoder.encode(JSON.stringify(parsed))]);
      }),
      { seed: 2403, numRuns: 300 },
    );
    const unsorted = JSON.parse('{"b":[1,-0.5,1e21,true,null,{}],"a":{"z\\u0000":"\\ud800","é":"🙂"},"10":"x","9":[]}');
    expect(write(unsorted)).toEqual([...encoder.encode(JSON.stringify(unsorted))]);
  });

  it("gives -1 where JSON.stringify must write it, and after it the canonical writer still sorts", () => {
    expect(write({ f: () => 1 })).toBe(-1);
    expect(write([undefined])).toBe(-1);
    expect(write({ a: "xxxxxxxx" }, 8)).toBe(-1);
    // The two writers share their state: each call sets its own order.
    const value = { b: 1, a: 2 };
    expect(write(value)).toEqual([...encoder.encode('{"b":1,"a":2}')]);
    expect(writeWith(writeCanonicalJsonUtf8)(value)).toEqual([...encoder.encode('{"a":2,"b":1}')]);
    expect(write(value)).toEqual([...encoder.encode('{"b":1,"a":2}')]);
  });
});

describe("sortedKeys", () => {
  it("orders an object's keys as Object.keys(v).sort() does, by insertion and past it", () => {
    // Keys that sort differently as numbers and as strings, surrogate pairs, and more keys than
    // are sorted by insertion (32).
    const key = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.nat({ max: 300 }).map(String),
      fc.constantFrom("\ud83d\ude00", "\uffff", "é", "Z", "a", "_", "$"),
    );
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 48 }), (keys) => {
        const v = Object.fromEntries(keys.map((k, i) => [k, i]));
        expect(sortedKeys(v)).toEqual(Object.keys(v).sort());
      }),
      { numRuns: 500 },
    );
  });
});
