import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonArrayScanner, type ScannedElement } from "./json-stream.ts";

function scan(text: string, path: readonly string[], cuts: readonly number[] = []) {
  const scanner = new JsonArrayScanner(path, "file");
  const elements: ScannedElement[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    elements.push(...scanner.push(text.slice(at, cut)));
    at = cut;
  }
  elements.push(...scanner.push(text.slice(at)));
  return { elements, problem: scanner.end() };
}

describe("JsonArrayScanner", () => {
  it("returns each element of log.entries, skipping everything else in the document", () => {
    const har = JSON.stringify(
      {
        log: {
          version: "1.2",
          creator: { name: "x", entries: ["not these"] },
          pages: [{ id: "p", entries: [1] }],
          entries: [{ a: 1, s: '}]\\"{[' }, { b: [2, { c: null }] }],
        },
      },
      null,
      2,
    );
    const { elements, problem } = scan(har, ["log", "entries"]);
    expect(problem).toBe(null);
    expect(elements.map((e) => JSON.parse(e.text))).toEqual([{ a: 1, s: '}]\\"{[' }, { b: [2, { c: null }] }]);
    expect(elements[0]).toMatchObject({ index: 0, line: 19, column: 7 });
  });

  it("reads a top-level array, scalars included", () => {
    const { elements, problem } = scan('[ {"x":1}, "two", 3.5e2 , true, null, [4] ]', []);
    expect(problem).toBe(null);
    expect(elements.map((e) => JSON.parse(e.text))).toEqual([{ x: 1 }, "two", 350, true, null, [4]]);
  });

  it("matches keys written with escapes", () => {
    const { elements } = scan('{"lo\\u0067":{"entries":[{"k":1}]}}', ["log", "entries"]);
    expect(elements.map((e) => e.text)).toEqual(['{"k":1}']);
  });

  it("gives the same elements however the text is cut into chunks", () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (entries, rawCuts, pretty) => {
          const text = JSON.stringify({ log: { creator: { entries: [0] }, entries } }, null, pretty ? 1 : 0);
          const cuts = rawCuts.map((c) => c % (text.length + 1));
          const { elements, problem } = scan(text, ["log", "entries"], cuts);
          expect(problem).toBe(null);
          expect(elements.map((e) => JSON.parse(e.text))).toEqual(JSON.parse(JSON.stringify(entries)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("says a cut-off file is truncated, after returning every complete element", () => {
    const har = JSON.stringify({ log: { entries: [{ a: 1 }, { b: 2 }, { c: "three" }] } });
    const { elements, problem } = scan(har.slice(0, har.indexOf('"three"') + 3), ["log", "entries"]);
    expect(elements.map((e) => e.text)).toEqual(['{"a":1}', '{"b":2}']);
    expect(problem?.code).toBe("truncated");
    expect(problem?.message).toMatch(
      /ends early, inside element 2 of log\.entries \(which starts at line 1, column 36\)/,
    );
  });

  it("reports a document without the array, one that is not an object, an empty one and trailing text", () => {
    expect(scan('{"log":{"pages":[]}}', ["log", "entries"]).problem).toMatchObject({
      code: "array_not_found",
      message: "The file has no log.entries array.",
    });
    expect(scan("[1]", ["log", "entries"]).problem?.code).toBe("array_not_found");
    expect(scan("  \n ", ["log", "entries"]).problem?.message).toBe("The file is empty.");
    expect(scan('{"log":{"entries":[]}} x', ["log", "entries"]).problem).toMatchObject({
      code: "json_syntax",
      line: 1,
      column: 24,
    });
  });

  it("stops at a closing bracket that does not match, naming where", () => {
    const { elements, problem } = scan('{"log":{"entries":[{"a":1},\n {"b":2]]}}', ["log", "entries"]);
    expect(elements).toHaveLength(1);
    expect(problem).toMatchObject({ code: "json_syntax", line: 2, column: 8 });
  });
});
