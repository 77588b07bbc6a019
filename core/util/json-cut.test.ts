import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutArrayValue } from "./json-cut.ts";

/** `cutArrayValue` with the longer text parsed, as its callers use it. */
const cut = (shorter: string, longer: string) => cutArrayValue(shorter, longer, JSON.parse(longer));

/** Strings that JSON writes with escapes, and brackets and commas that are not structure. */
const trickyString = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'a "quoted", [bracketed] {braced}',
    "back\\slash\\",
    '\\"',
    "\\\\",
    "line\nbreak\t",
    "東京 🙂",
    ",]",
    "\u0000",
  ),
);
const element = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ role: fc.constantFrom("user", "assistant"), content: trickyString }),
);
/** A request-like object: a few fields around one array of at least two elements. */
const body = fc.record({
  model: trickyString,
  messages: fc.array(element, { minLength: 2, maxLength: 8 }),
  tools: fc.array(element, { maxLength: 3 }),
  n: fc.integer(),
});
const indent = fc.constantFrom<0 | 2 | "\t">(0, 2, "\t");

describe("cutArrayValue", () => {
  it("reads a text written like the longer one with its last elements cut, as JSON.parse would (property, seed 2612)", () => {
    fc.assert(
      fc.property(body, indent, fc.nat(), (v, space, pick) => {
        const k = 1 + (pick % (v.messages.length - 1));
        const longer = JSON.stringify(v, null, space);
        const shorter = JSON.stringify({ ...v, messages: v.messages.slice(0, k) }, null, space);
        const got = cut(shorter, longer);
        expect(got).toBeDefined();
        // Equal values with the same key order: the same JSON text.
        expect(JSON.stringify(got, null, space)).toBe(shorter);
        expect(got).toStrictEqual(JSON.parse(shorter));
      }),
      { seed: 2612, numRuns: 400 },
    );
  });

  it("never gives a value other than JSON.parse's, whatever was edited (property, seed 2613)", () => {
    // Edits of every kind: a range of characters removed or replaced, an element removed from the
    // middle, another array shortened, a key renamed. The answer is JSON.parse's or none at all.
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant("splice" as const),
        at: fc.nat(),
        length: fc.nat({ max: 40 }),
        insert: fc.constantFrom("", ",", "]", " ", '"'),
      }),
      fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("tools" as const) }),
      fc.record({ kind: fc.constant("rename" as const) }),
    );
    fc.assert(
      fc.property(body, indent, edit, (v, space, e) => {
        const longer = JSON.stringify(v, null, space);
        let shorter: string;
        if (e.kind === "splice") {
          const at = e.at % longer.length;
          shorter = longer.slice(0, at) + e.insert + longer.slice(at + e.length);
        } else if (e.kind === "drop") {
          const i = e.at % v.messages.length;
          shorter = JSON.stringify({ ...v, messages: v.messages.filter((_, j) => j !== i) }, null, space);
        } else if (e.kind === "tools") {
          shorter = JSON.stringify(
            { ...v, tools: v.tools.slice(0, -1), messages: v.messages.slice(0, -1) },
            null,
            space,
          );
        } else {
          const { n, ...rest } = v;
          shorter = JSON.stringify({ ...rest, messages: v.messages.slice(0, -1), m: n }, null, space);
        }
        const got = cut(shorter, longer);
        if (got === undefined) return;
        expect(JSON.stringify(got)).toBe(JSON.stringify(JSON.parse(shorter)));
      }),
      { seed: 2613, numRuns: 600 },
    );
  });

  it("cuts any top-level array, the one that holds the first difference", () => {
    const longer = '{"a": [1, 2], "b": [1, 2]}';
    expect(cut('{"a": [1, 2], "b": [1]}', longer)).toStrictEqual({ a: [1, 2], b: [1] });
    expect(cut('{"a": [1], "b": [1, 2]}', longer)).toStrictEqual({ a: [1], b: [1, 2] });
    // Several elements at once, blanks before the bracket kept or not.
    expect(cut('{"m":[1]}', '{"m":[1,2,3]}')).toStrictEqual({ m: [1] });
    expect(cut('{"m":[1 ] }', '{"m":[1, 2 ] }')).toStrictEqual({ m: [1] });
    expect(cut('{"m":[1]}', '{"m":[1, 2 ]}')).toStrictEqual({ m: [1] });
  });

  it("shares the longer value's elements and copies only the top-level object", () => {
    const longer = '{"m":[{"x":1},{"y":2}],"t":{"z":3}}';
    const value = JSON.parse(longer) as { m: object[]; t: object };
    const got = cutArrayValue('{"m":[{"x":1}],"t":{"z":3}}', longer, value) as typeof value;
    expect(got.m[0]).toBe(value.m[0]);
    expect(got.t).toBe(value.t);
    expect(got).not.toBe(value);
    expect(value.m).toHaveLength(2);
  });

  it("declines what it cannot show to be a cut of whole elements", () => {
    // An element removed from the middle, a changed element, a cut inside a string or a nested array.
    expect(cut('{"m":[1,3]}', '{"m":[1,2,3]}')).toBeUndefined();
    expect(cut('{"m":["a,b"]}', '{"m":["a,b,c"]}')).toBeUndefined();
    expect(cut('{"m":[[1]]}', '{"m":[[1,2]]}')).toBeUndefined();
    // A comma inside a top-level object, not an array.
    expect(cut('{"o":{"a":1}}', '{"o":{"a":1,"b":2}}')).toBeUndefined();
    // Only part of the elements after the comma removed (here leaving "[13]"), or the bracket too.
    expect(cut('{"m":[13]}', '{"m":[1,2,3]}')).toBeUndefined();
    expect(cut('{"m":[1,3]}', '{"m":[1,23]}')).toBeUndefined();
    expect(cut('{"m":[1}', '{"m":[1,2]}')).toBeUndefined();
    // Other blanks, other formatting, a longer or equal text.
    expect(cut('{"m": [1]}', '{"m":[1,2]}')).toBeUndefined();
    expect(cut('{"m":[1,2]}', '{"m":[1,2]}')).toBeUndefined();
    expect(cut('{"m":[1,2,3]}', '{"m":[1,2]}')).toBeUndefined();
    // Not an object at the top, a byte-order mark, a longer text that did not parse to an object.
    expect(cut("[1]", "[1,2]")).toBeUndefined();
    expect(cutArrayValue('\ufeff{"m":[1]}', '\ufeff{"m":[1,2]}', { m: [1, 2] })).toBeUndefined();
    expect(cutArrayValue('{"m":[1]}', '{"m":[1,2]}', '{"m":[1,2]}')).toBeUndefined();
  });

  it("declines keys JSON.parse does not keep as written: duplicates, integer-like keys", () => {
    // The first "m" is cut, but JSON.parse keeps the second.
    expect(cut('{"m":[1],"m":[5,6]}', '{"m":[1,2],"m":[5,6]}')).toBeUndefined();
    // JSON.parse puts "1" first; the text has it second.
    expect(cut('{"m":[1],"1":0}', '{"m":[1,2],"1":0}')).toBeUndefined();
    // An escaped key is read as JSON.parse reads it.
    expect(cut('{"m\\u0031":[1]}', '{"m\\u0031":[1,2]}')).toStrictEqual({ m1: [1] });
  });

  it("tells escaped quotes from closing ones, whatever the run of backslashes", () => {
    const longer = '{"s":"a\\\\","m":["\\"]",",\\\\\\"",2]}';
    expect(JSON.parse(longer)).toStrictEqual({ s: "a\\", m: ['"]', ',\\"', 2] });
    expect(cut('{"s":"a\\\\","m":["\\"]"]}', longer)).toStrictEqual({ s: "a\\", m: ['"]'] });
    expect(cut('{"s":"a\\\\","m":["\\"]",",\\\\\\""]}', longer)).toStrictEqual({ s: "a\\", m: ['"]', ',\\"'] });
  });

  it("takes linear time on texts of quotes and backslashes", () => {
    // 200,000 escaped quotes in one string, then 100,000 elements: one pass each.
    const longer = JSON.stringify({ s: '"'.repeat(200_000), m: Array.from({ length: 100_000 }, (_, i) => i) });
    const shorter = JSON.stringify({ s: '"'.repeat(200_000), m: [0] });
    expect(cut(shorter, longer)).toStrictEqual(JSON.parse(shorter));
  });
});
