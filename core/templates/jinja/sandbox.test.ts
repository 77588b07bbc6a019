/**
 * Known template-injection payloads (Jinja2 SSTI and CVE write-ups, nunjucks, Handlebars,
 * JavaScript prototype tricks) through every lookup path. A payload may fail with a
 * TemplateError or render something harmless; it must never print host data or source, call
 * a host function, or change a prototype or a global.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TemplateError } from "../errors.ts";
import { renderJinjaTemplate } from "./render.ts";

/** `X` stands for the object the payload starts from. */
const PAYLOADS: readonly string[] = [
  // Jinja2 / Python SSTI (CVE-2016-10745, CVE-2019-10906 sandbox escapes and their descendants)
  "X.__class__",
  "X.__class__.__mro__",
  "X.__class__.__mro__[1].__subclasses__()",
  "X.__class__.__base__.__subclasses__()",
  "X.__init__.__globals__",
  "X.__init__.__globals__['os'].popen('id').read()",
  "X.__dict__",
  "X.__globals__.__builtins__",
  "X.format.__globals__",
  "X.mro()",
  "cycler.__init__.__globals__.os.popen('id').read()",
  "joiner.__init__.__globals__.os",
  "lipsum.__globals__['os'].popen('id')",
  "namespace.__init__.__globals__",
  "config.__class__.__init__.__globals__['os']",
  "self.__init__.__globals__.__builtins__",
  "request.application.__globals__.__builtins__.__import__('os')",
  "range.__globals__",
  "raise_exception.__globals__",
  "''.__class__.__mro__[2].__subclasses__()",
  "[].__class__.__base__",
  "{}.__class__.__bases__[0]",
  // JavaScript: constructors, prototypes, Function
  "X.constructor",
  "X.constructor.constructor('return process')()",
  "X.constructor.constructor('globalThis.__strataPwned = 1')()",
  "X.__proto__",
  "X.__proto__.constructor.constructor('return this')()",
  "X['__proto__']['constructor']",
  "X['constructor']['constructor']('return globalThis')()",
  "X.constructor.prototype",
  "X.prototype",
  "X.__defineGetter__",
  "X.__lookupGetter__('__proto__')",
  "X.hasOwnProperty('constructor')",
  "X.toString()",
  "X.valueOf()",
  "X.call",
  "X.apply(none, [1])",
  "X.bind(none)",
  "X.toString.call(X)",
  "range.constructor('return globalThis')()",
  "range.constructor(\"return global.process.mainModule.require('child_process').execSync('id')\")()",
  "namespace.constructor('return process')()",
  "''.upper.constructor('return process')()",
  "''.constructor.constructor('return this')()",
  "(1).constructor",
  "[].constructor.constructor('return process')()",
  "{}.items.__self__",
  // Handlebars (lookup / with helpers, prototype access CVE-2019-19919)
  "X['sub']['constructor']",
  "X.__proto__.__defineGetter__",
  "X.constructor.name",
  // Ambient names
  "globalThis",
  "process",
  "window",
  "global",
  "this",
  "require",
  "Function",
  "eval",
  "Object",
  "constructor",
  "__proto__",
];

/** Ways a value reaches an expression: each wraps an expression `E` over a start value `X`. */
const PATHS: readonly (readonly [string, (payload: string) => string])[] = [
  ["an argument object", (p) => `{{ ${p.replaceAll("X", "obj")} }}`],
  ["an argument string", (p) => `{{ ${p.replaceAll("X", "str")} }}`],
  ["an argument list", (p) => `{{ ${p.replaceAll("X", "list")} }}`],
  ["a number", (p) => `{{ ${p.replaceAll("X", "num")} }}`],
  ["a function value", (p) => `{{ ${p.replaceAll("X", "range")} }}`],
  ["a loop variable", (p) => `{% for v in list %}{{ ${p.replaceAll("X", "v")} }}{% endfor %}`],
  ["the loop object", (p) => `{% for v in list %}{{ ${p.replaceAll("X", "loop")} }}{% endfor %}`],
  ["a {% set %} variable", (p) => `{% set v = obj %}{% set r = ${p.replaceAll("X", "v")} %}{{ r }}`],
  ["a macro parameter", (p) => `{% macro m(v) %}{{ ${p.replaceAll("X", "v")} }}{% endmacro %}{{ m(obj) }}`],
  ["a namespace", (p) => `{% set ns = namespace(a=1) %}{{ ${p.replaceAll("X", "ns")} }}`],
  ["a filter result", (p) => `{{ ${p.replaceAll("X", "(list | first)")} }}`],
  ["a dict literal", (p) => `{{ ${p.replaceAll("X", "{'a': 1}")} }}`],
  ["the string filter", (p) => `{{ (${p.replaceAll("X", "obj")}) | string }}`],
  ["tojson", (p) => `{{ ${p.replaceAll("X", "obj")} | tojson }}`],
  ["concatenation", (p) => `{{ '' ~ ${p.replaceAll("X", "obj")} }}`],
];

/** Attribute names reached through filters that take attribute paths. */
const ATTRIBUTE_FILTERS: readonly string[] = [
  "{{ objs | map(attribute='constructor') | list }}",
  "{{ objs | map(attribute='__proto__.constructor') | list }}",
  "{{ objs | selectattr('constructor') | list }}",
  "{{ objs | rejectattr('__proto__') | list | length }}",
  "{{ objs | sort(attribute='constructor') | length }}",
  "{{ objs | selectattr('constructor', 'equalto', none) | list }}",
  "{{ obj | dictsort | tojson }}",
  "{% for k, v in obj.items() %}{{ v.constructor }}{% endfor %}",
  "{{ obj.get('constructor') }}",
  "{{ obj.get('__proto__', 'none') }}",
];

const FORBIDDEN = /function\s*\(|=>|native code|\[object|process|globalThis|require|child_process|prototype|return /i;

const args = () => ({
  obj: { a: 1, sub: "s" },
  str: "text",
  list: [{ k: 1 }, "two", 3],
  num: 7,
  objs: [{ n: 1 }, { n: 2 }],
});

function renderSafely(template: string): { output?: string; error?: unknown } {
  try {
    return { output: renderJinjaTemplate(template, args(), { onError: "throw" }) };
  } catch (error) {
    return { error };
  }
}

function expectHarmless(template: string): void {
  const { output, error } = renderSafely(template);
  if (error !== undefined) {
    expect(error, template).toBeInstanceOf(TemplateError);
    return;
  }
  expect(output!.length, template).toBeLessThan(200);
  expect(output, template).not.toMatch(FORBIDDEN);
}

describe("sandbox", () => {
  afterEach(() => {
    const g = globalThis as Record<string, unknown>;
    expect(g["__strataPwned"]).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("has at least 30 payloads and 10 lookup paths", () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
    expect(PATHS.length).toBeGreaterThanOrEqual(10);
  });

  describe.each(PATHS)("through %s", (_path, wrap) => {
    it.each(PAYLOADS)("%s is harmless", (payload) => {
      expectHarmless(wrap(payload));
    });
  });

  it.each(ATTRIBUTE_FILTERS)("attribute-path filter %s is harmless", (template) => {
    expectHarmless(template);
  });

  it("renders constructor and prototype lookups as nothing, not as host values", () => {
    expect(
      renderJinjaTemplate(
        "[{{ obj.constructor }}][{{ obj.__proto__ }}][{{ str.constructor }}][{{ range.constructor }}]",
        args(),
      ),
    ).toBe("[][][][]");
  });

  it("cannot assign through a prototype or onto a non-namespace", () => {
    for (const template of [
      "{% set obj.__proto__.polluted = 1 %}",
      "{% set ns = namespace() %}{% set ns.__proto__ = 1 %}{% set ns.constructor = 2 %}{{ ns.__proto__ }}",
      "{% set ns = namespace(__proto__={'polluted': 1}) %}{{ ns.__proto__.polluted }}",
      "{% set x = {'__proto__': {'polluted': 1}} %}{{ x.polluted }}",
    ]) {
      expectHarmless(template);
    }
  });

  it("refuses to print a namespace that contains itself instead of recursing forever", () => {
    for (const print of ["{{ ns }}", "{{ ns | tojson }}", "{{ ns ~ '' }}", "{{ [ns] | string }}"]) {
      const { error } = renderSafely(`{% set ns = namespace(a=1) %}{% set ns.me = ns %}${print}`);
      expect(error, print).toBeInstanceOf(TemplateError);
    }
  });

  it("gives templates no clock and no locale: strftime_now exists only with an injected now", () => {
    expect(renderJinjaTemplate("{{ strftime_now('%Y') }}", {}, { onError: "original" })).toBe(
      "{{ strftime_now('%Y') }}",
    );
  });
});
