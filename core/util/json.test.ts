import { describe, expect, it } from "vitest";
import { findJsonSyntaxError, lineAndColumn, parseJson } from "./json.ts";

describe("parseJson", () => {
  it("parses valid JSON and ignores a leading BOM", () => {
    expect(parseJson('\uFEFF{"a":[1,2,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, 2, { b: null }] } });
  });

  it.each([
    ["trailing comma in an object", '{\n  "a": 1,\n}', 3, 1, "expected a property name"],
    ["trailing comma in an array", "[1,2,]", 1, 6, "trailing commas"],
    ["single quotes", "{'a': 1}", 1, 2, "expected a property name"],
    ["unterminated string", '{"a": "xy', 1, 7, "unterminated string"],
    ["truncated object", '{"a": [1, 2', 1, 12, "unexpected end of input"],
    ["garbage after the value", '{"a":1} x', 1, 9, "after the end"],
    ["bad escape", '["\\x"]', 1, 3, "invalid escape"],
    ["raw newline in a string", '["a\nb"]', 1, 4, "control character U+000a"],
    ["bare word", '{"a": yes}', 1, 7, "expected a value"],
    ["empty input", "   ", 1, 1, "empty input"],
  ])("locates %s at the right line and column", (_name, text, line, column, words) => {
    const result = parseJson(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect([result.issue.line, result.issue.column]).toEqual([line, column]);
    expect(result.issue.message).toContain(words);
    expect(result.issue.message).toContain(`line ${line}, column ${column}`);
  });

  it("rejects nesting past the cap without recursing", () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const result = parseJson(deep);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issue.code).toBe("json_too_deep");
    expect(parseJson(deep, 20_000).ok).toBe(true);
  });

  it("ignores brackets inside strings when measuring depth", () => {
    expect(parseJson(JSON.stringify({ s: "[[[[[[[[[[" }), 2).ok).toBe(true);
  });

  it("agrees with JSON.parse on validity for assorted inputs", () => {
    const samples = [
      "0",
      "-0.5e+3",
      '"\\u00e9"',
      "[]",
      "{}",
      '{"a":{"b":[true,false,null]}}',
      "01",
      "1.",
      ".5",
      "[1 2]",
      '{"a" 1}',
      "nul",
      '"\t"',
    ];
    for (const s of samples) {
      let valid = true;
      try {
        JSON.parse(s);
      } catch {
        valid = false;
      }
      expect(findJsonSyntaxError(s) === undefined, s).toBe(valid);
    }
  });
});

describe("lineAndColumn", () => {
  it("counts lines and 1-based columns", () => {
    expect(lineAndColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn("", 0)).toEqual({ line: 1, column: 1 });
  });
});
