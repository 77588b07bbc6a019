import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TemplateError } from "./errors.ts";
import type { JsonValue } from "../messages/index.ts";
import { jsonForPrompt, renderPromptTemplate } from "./prompt-template.ts";

describe("renderPromptTemplate", () => {
  it("renders the spec's request/response example", () => {
    const example = {
      template: "Review {{file}} for {{focus}}",
      variables: { file: "src/index.ts", focus: "public exports" },
      rendered: "Review src/index.ts for public exports",
    };
    expect(renderPromptTemplate(example.template, example.variables)).toBe(example.rendered);
  });

  it("renders the spec's implementation example", () => {
    expect(renderPromptTemplate("Review {{resource}}", { resource: "package://demo/prompt.md" })).toBe(
      "Review package://demo/prompt.md",
    );
  });

  it.each<[string, JsonValue, string]>([
    ["a string verbatim", 'say "hi" {{x}}', 'say "hi" {{x}}'],
    ["an integer", 42, "42"],
    ["a negative float", -1.5, "-1.5"],
    ["true", true, "true"],
    ["false", false, "false"],
    ["null", null, "null"],
    ["an array as JSON", [1, "a", null], '[1,"a",null]'],
    ["an object with keys sorted", { b: 1, a: 2 }, '{"a":2,"b":1}'],
    [
      "nested objects sorted at every depth",
      { z: [{ y: 1, x: 2 }], a: { d: 1, c: { f: 0, e: 1 } } },
      '{"a":{"c":{"e":1,"f":0},"d":1},"z":[{"x":2,"y":1}]}',
    ],
    ["an empty string", "", ""],
  ])("inserts %s", (_, value, expected) => {
    expect(renderPromptTemplate("<{{v}}>", { v: value })).toBe(`<${expected}>`);
  });

  it("does not re-scan inserted values", () => {
    expect(renderPromptTemplate("{{a}} {{b}}", { a: "{{b}}", b: "B" })).toBe("{{b}} B");
  });

  it("accepts spaces inside the braces and repeats", () => {
    expect(renderPromptTemplate("{{ x }}-{{x}}-{{  x  }}", { x: 1 })).toBe("1-1-1");
  });

  it("leaves anything that is not a top-level name as text", () => {
    expect(renderPromptTemplate("{{a.b}} {{ a b }} {x} {{}}", { a: { b: 1 } })).toBe("{{a.b}} {{ a b }} {x} {{}}");
  });

  it("throws TemplateError with the placeholder's position for a missing variable", () => {
    let error: unknown;
    try {
      renderPromptTemplate("line one\nhello {{name}}", {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect(error).toMatchObject({ code: "missing_variable", line: 2, column: 7 });
    expect((error as Error).message).toContain('"name"');
  });

  it("preserves missing variables with { missing: 'preserve' }", () => {
    expect(renderPromptTemplate("Hi {{ who }} and {{x}}", { x: "X" }, { missing: "preserve" })).toBe(
      "Hi {{ who }} and X",
    );
  });

  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])(
    "treats {{%s}} as missing, never a prototype value",
    (name) => {
      expect(() => renderPromptTemplate(`{{${name}}}`, {})).toThrow(TemplateError);
      expect(renderPromptTemplate(`{{${name}}}`, {}, { missing: "preserve" })).toBe(`{{${name}}}`);
    },
  );

  it("counts only own properties, even when the prototype has the name", () => {
    const inherited = Object.create({ secret: "leak" }) as Record<string, JsonValue>;
    expect(renderPromptTemplate("{{secret}}", inherited, { missing: "preserve" })).toBe("{{secret}}");
  });

  it("uses an own __proto__ property from parsed JSON as data", () => {
    const variables = JSON.parse('{"__proto__": "data"}') as Record<string, JsonValue>;
    expect(renderPromptTemplate("{{__proto__}}", variables)).toBe("data");
  });

  it.each<[string, unknown]>([
    ["a function", () => 1],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a bigint", BigInt(1)],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    ["a nested function", { a: [() => 1] }],
  ])("rejects %s with TemplateError invalid_variable", (_, value) => {
    expect(() => renderPromptTemplate("{{v}}", { v: value as JsonValue })).toThrow(
      expect.objectContaining({ code: "invalid_variable" }),
    );
  });

  it("rejects cycles", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(() => renderPromptTemplate("{{v}}", { v: cyclic as JsonValue })).toThrow(/cycle/);
  });

  it("rejects a non-string template, non-object variables and unknown missing modes", () => {
    expect(() => renderPromptTemplate(1 as unknown as string, {})).toThrow(TemplateError);
    expect(() => renderPromptTemplate("x", null as unknown as Record<string, JsonValue>)).toThrow(TemplateError);
    expect(() => renderPromptTemplate("x", {}, { missing: "drop" as "throw" })).toThrow(TemplateError);
  });
});

describe("jsonForPrompt", () => {
  it("matches JSON.parse round-trips with sorted keys for any JSON value (seed 10)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = jsonForPrompt(value, "value");
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(jsonForPrompt(JSON.parse(text), "value")).toBe(text);
      }),
      { seed: 10, numRuns: 200 },
    );
  });
});
