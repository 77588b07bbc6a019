import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../../util/errors.ts";
import { TemplateError } from "../errors.ts";
import { compileJinjaTemplate } from "./compile.ts";
import { TemplateLimitError } from "./limits.ts";
import { renderCompiledJinjaTemplate, renderJinjaTemplate } from "./render.ts";
import { Template } from "./vendor/huggingface-jinja.js";
import { friendlyMessage } from "./interpreter.ts";

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

const templateError = (template: string, args: Record<string, unknown> = {}, options = {}) =>
  thrownBy(() => renderJinjaTemplate(template, args, { ...options, onError: "throw" })) as TemplateError;

describe("onError", () => {
  it('returns the original template on a syntax error by default ("original") and reports it', () => {
    const report = vi.fn();
    expect(renderJinjaTemplate("Hi {{ name", { name: "Ada" }, { onErrorReport: report })).toBe("Hi {{ name");
    expect(report).toHaveBeenCalledTimes(1);
    const error = report.mock.calls[0]![0] as TemplateError;
    expect(error).toBeInstanceOf(TemplateError);
    expect(error.code).toBe("template_syntax_error");
  });

  it("returns the original template on a render error too", () => {
    const report = vi.fn();
    expect(renderJinjaTemplate("{{ items | nope }}", { items: [1] }, { onErrorReport: report })).toBe(
      "{{ items | nope }}",
    );
    expect((report.mock.calls[0]![0] as TemplateError).code).toBe("template_render_error");
  });

  it('throws the TemplateError with code, line and column with onError: "throw"', () => {
    const error = templateError("line one\n{{ user.name.first() }}", { user: { name: "Ada" } });
    expect(error.code).toBe("template_render_error");
    expect([error.line, error.column]).toEqual([2, 1]);
    expect(error.message).toContain("line 2, column 1");
  });

  it('throws limit errors even with onError: "original", and does not report them as swallowed', () => {
    const report = vi.fn();
    const error = thrownBy(() => renderJinjaTemplate("{{ range(10 ** 6) | length }}", {}, { onErrorReport: report }));
    expect(error).toBeInstanceOf(TemplateLimitError);
    expect((error as TemplateLimitError).code).toBe("template_range_limit");
    expect(report).not.toHaveBeenCalled();
  });

  it("throws InvalidInputError for invalid options and arguments, whatever onError says", () => {
    expect(() => renderJinjaTemplate("x", {}, { onError: "ignore" as never })).toThrow(InvalidInputError);
    expect(() => renderJinjaTemplate("x", {}, { now: new Date(Number.NaN) })).toThrow(InvalidInputError);
    expect(() => renderJinjaTemplate("x", { fn: () => 1 })).toThrow(/args\.fn: is a function/);
    expect(() => renderJinjaTemplate(42 as unknown as string)).toThrow(InvalidInputError);
  });
});

describe("arguments", () => {
  it("lets runtime arguments win over defaults, and keeps a default when the argument is undefined", () => {
    const options = { defaults: { a: "default-a", b: "default-b", c: "default-c" } };
    expect(renderJinjaTemplate("{{ a }} {{ b }} {{ c }}", { a: "arg-a", b: undefined }, options)).toBe(
      "arg-a default-b default-c",
    );
  });

  it("copies arguments: a template mutating a namespace never touches the caller's data", () => {
    const args = { items: [1, 2], config: { mode: "x" } };
    const before = JSON.stringify(args);
    renderJinjaTemplate("{% set ns = namespace(c=config) %}{% set ns.c = 1 %}{% set items = [] %}{{ items }}", args);
    expect(JSON.stringify(args)).toBe(before);
  });

  it("accepts JSON-like data only: Dates become ISO strings, bigints decimal strings", () => {
    expect(
      renderJinjaTemplate("{{ d }} {{ n }}", { d: new Date("2024-01-02T03:04:05Z"), n: 12345678901234567890n }),
    ).toBe("2024-01-02T03:04:05.000Z 12345678901234567890");
  });

  it.each([
    ["a function", { f: () => 1 }, {}, "args.f"],
    ["a nested function", { a: { b: [1, () => 1] } }, {}, "args.a.b[1]"],
    ["a function among the defaults", {}, { d: () => 1 }, "options.defaults.d"],
    ["a class instance", { m: new Map() }, {}, "args.m"],
    ["a symbol", { s: Symbol("x") }, {}, "args.s"],
    ["NaN", { n: Number.NaN }, {}, "args.n"],
  ])("rejects %s in the arguments, naming its path", (_what, args, defaults, path) => {
    const error = thrownBy(() =>
      renderJinjaTemplate("x", args as Record<string, unknown>, { defaults }),
    ) as InvalidInputError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.field).toBe(path);
  });

  it("rejects cyclic arguments", () => {
    const a: Record<string, unknown> = {};
    a["self"] = a;
    expect(() => renderJinjaTemplate("x", { a })).toThrow(/cycle/);
  });

  it("treats a __proto__ key as plain data and never changes a prototype", () => {
    const args = JSON.parse('{"x": {"__proto__": {"polluted": "yes"}}}') as Record<string, unknown>;
    expect(renderJinjaTemplate("{{ x.__proto__.polluted }}", args)).toBe("yes");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("lets an argument shadow a global such as range", () => {
    expect(renderJinjaTemplate("{{ range | join(',') }}", { range: [1, 2] })).toBe("1,2");
  });
});

describe("compiled templates", () => {
  it("renders one compiled template with different arguments", () => {
    const compiled = compileJinjaTemplate("Hello {{ name }}");
    expect(renderCompiledJinjaTemplate(compiled, { name: "Ada" })).toBe("Hello Ada");
    expect(renderCompiledJinjaTemplate(compiled, { name: "Bob" })).toBe("Hello Bob");
  });

  it("gives the same output for the same input on every run (property)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 5 }).filter((k) => /^[a-z]\w*$/.test(k)),
          fc.jsonValue({ maxDepth: 3 }),
        ),
        (args) => {
          const template = "{% for k, v in args | dictsort %}{{ k }}={{ v | tojson }};{% endfor %}";
          const a = renderJinjaTemplate(template, { args }, { onError: "throw" });
          const b = renderJinjaTemplate(template, structuredClone({ args }), { onError: "throw" });
          expect(a).toBe(b);
        },
      ),
      { seed: 4242, numRuns: 100 },
    );
  });
});

describe("tojson", () => {
  /** What the library itself prints for `template` (the same vendored code Strata runs). */
  const library = (template: string, args: Record<string, unknown>) => {
    try {
      return new Template(template).render(args);
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  const strata = (template: string, args: Record<string, unknown>) => {
    try {
      return renderJinjaTemplate(template, args, { onError: "throw" });
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.constantFrom('a"b', "back\\slash", "\u2028", "\ud800", "é", "\n\t", "</tag>"),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 1.5, 1e21, 2 ** 53, -1e-7),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.sparseArray(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 4 }), tie("value"), { maxKeys: 4 }),
    ),
  })).value;

  it("writes what the library's tojson writes, for any JSON-like value (property)", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(strata("{{ v | tojson }}", { v })).toBe(library("{{ v | tojson }}", { v }));
      }),
      { seed: 20261203, numRuns: 1500 },
    );
  });

  it("writes namespaces, loop values and built values as the library does, and fails where it fails", () => {
    for (const template of [
      "{% set ns = namespace(a=1, b=[1, 'x', none]) %}{{ ns | tojson }}",
      "{% for x in [1, 2] %}{{ loop | tojson }}{% endfor %}",
      "{{ {'k': [true, 1.25, {'n': none}], 'e': [], 'o': {}} | tojson }}",
      "{{ undefined_name | tojson }}|{{ [undefined_name] | tojson }}",
      "{{ (1, 2) | tojson }}",
      "{{ range | tojson }}",
      "{{ [range] | tojson }}",
      "{{ {'k': 'x'.upper} | tojson }}",
    ]) {
      const expected = library(template, {});
      const actual = strata(template, {});
      if (expected.startsWith("error: ")) {
        // The library's message, inside Strata's positioned error (types named as Jinja names them).
        const message = friendlyMessage(expected.slice("error: ".length));
        expect(actual).toMatch(/^error: Template render error \(line 1, column \d+\): /);
        expect(actual.endsWith(`: ${message}`)).toBe(true);
      } else expect(actual).toBe(expected);
    }
  });
});

describe("operators", () => {
  /** The output, or the library's message an error carries (Strata's adds where it happened). */
  const outcome = (run: () => string) => {
    try {
      return run();
    } catch (error) {
      return `error: ${friendlyMessage((error as Error).message).replace(/^Template render error \(line \d+, column \d+\): /, "")}`;
    }
  };

  it("compares and joins as the library does: loose == and !=, + of strings (property)", () => {
    const scalar = fc.oneof(
      fc.constantFrom(0, 1, -0, 1.5, "", "0", "1", "1.5", "a", "A", true, false, null),
      fc.integer({ min: -3, max: 3 }),
      fc.string({ maxLength: 3 }),
      fc.array(fc.constantFrom(0, "0", "a"), { maxLength: 2 }),
    );
    fc.assert(
      fc.property(scalar, scalar, fc.constantFrom("{{ a == b }}", "{{ a != b }}", "{{ a + b }}"), (a, b, template) => {
        expect(outcome(() => renderJinjaTemplate(template, { a, b }, { onError: "throw" }))).toBe(
          outcome(() => new Template(template).render({ a, b })),
        );
      }),
      { seed: 31, numRuns: 900 },
    );
  });
});

describe("functions and autoescape", () => {
  it("prints a function as <function>, never its JavaScript source", () => {
    expect(
      renderJinjaTemplate("{{ range }}|{{ 'x'.upper }}|{% macro m() %}{% endmacro %}{{ m }}|{{ namespace ~ '' }}", {}),
    ).toBe("<function>|<function>|<function>|<function>");
  });

  it("rejects an autoescape tag with an unknown value and an unbalanced endautoescape", () => {
    expect(templateError("{% autoescape html %}x{% endautoescape %}").code).toBe("template_syntax_error");
    expect(templateError("x{% endautoescape %}").code).toBe("template_syntax_error");
  });
});

describe("error positions", () => {
  it.each([
    ["an unexpected character", "{{ a ! b }}", 1, 6],
    ["an unexpected character after a valid !=", "{{ a != b }}\n{{ a ! b }}", 2, 6],
    ["a bad token deep inside a template", "line1\n{% if x %}\n  {{ y.z( }}\n{% endif %}", 3, 11],
    ["an unclosed block, at its opening tag", "a\n{% for x in y %}\nb", 2, 1],
    ["a mismatched end tag", "{% if a %}x{% endfor %}", 1, 12],
    ["a stray end tag", "text\n\n  {% endif %}", 3, 3],
    ["an unknown tag behind stripped indentation", "hello\n    {% frob %}", 2, 5],
    ["an unterminated string", "{{ 'oops }}", 1, 4],
    ["an unterminated comment", "ok {# never closed", 1, 4],
    ["an unclosed expression at the end", "a\n{{ b", 2, 1],
    ["a column counted in UTF-16 units", "é😀 {{ a ! b }}", 1, 10],
    ["an error after a removed generation tag", "{% generation %}x{% endgeneration %}\n{{ 1 + }}", 2, 8],
    ["else outside a block", "a {% else %} b", 1, 3],
    ["break outside a loop", "{% if x %}{% break %}{% endif %}", 1, 11],
  ])("points at %s", (_what, template, line, column) => {
    const error = templateError(template, { x: true, y: [] });
    expect(error.code).toBe("template_syntax_error");
    expect([error.line, error.column]).toEqual([line, column]);
  });

  it.each([
    ["an unknown filter inside a loop", "ok\n{% for m in items %}\n{{ m | nope }}\n{% endfor %}", 3, 1],
    ["calling a non-function", "{% set x = 1 %}\n  {{ x.y.z() }}", 2, 3],
    ["an error inside an elif test", "{% if false %}\n{% elif 1 + none %}x{% endif %}", 2, 1],
    [
      "an error inside a macro body, at the macro's line",
      "{% macro m() %}\n  {{ 1 + none }}\n{% endmacro %}\n{{ m() }}",
      2,
      3,
    ],
    ["raise_exception", "a\n\n   {{ raise_exception('stop') }}", 3, 4],
  ])("points at %s when rendering", (_what, template, line, column) => {
    const error = templateError(template, { items: [1] });
    expect(error.code === "template_render_error" || error.code === "template_raised").toBe(true);
    expect([error.line, error.column]).toEqual([line, column]);
  });

  it("keeps positions right with trim_blocks and lstrip_blocks turned off", () => {
    const error = templateError(
      "  {% if true %}\n  {{ 1 + none }}\n{% endif %}",
      {},
      { trimBlocks: false, lstripBlocks: false },
    );
    expect([error.line, error.column]).toEqual([2, 3]);
  });

  it("finds a bad character wherever it is placed among valid fragments (property)", () => {
    const fragment = fc.constantFrom(
      "text ",
      "\n",
      "{{ a }}",
      "{% if a %}x{% endif %}",
      "  {% for i in l %}{{ i }}{% endfor %}\n",
      "{# c #}",
      "{{- 'q' -}}",
      "é😀",
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 8 }), fc.array(fragment, { maxLength: 8 }), (before, after) => {
        const head = before.join("");
        const template = `${head}{{ ! }}${after.join("")}`;
        const error = templateError(template, { a: 1, l: [1] });
        const offset = head.length + 3;
        const lines = template.slice(0, offset).split("\n");
        expect([error.line, error.column]).toEqual([lines.length, lines[lines.length - 1]!.length + 1]);
      }),
      { seed: 7, numRuns: 150 },
    );
  });
});
