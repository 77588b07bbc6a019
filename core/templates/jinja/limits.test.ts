import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../../util/errors.ts";
import { TemplateError } from "../errors.ts";
import type { TemplateLimits } from "./limits.ts";
import {
  DEFAULT_TEMPLATE_LIMITS,
  TEMPLATE_LIMIT_CODES,
  TemplateDeadlineError,
  TemplateLimitError,
  isTemplateLimitError,
  resolveTemplateLimits,
} from "./limits.ts";
import { type JinjaRenderOptions, renderJinjaTemplate } from "./render.ts";

function limitError(
  template: string,
  args: Record<string, unknown> = {},
  limits: Partial<TemplateLimits> = {},
): TemplateLimitError {
  const report = vi.fn();
  try {
    renderJinjaTemplate(template, args, { limits, onErrorReport: report });
  } catch (error) {
    expect(report).not.toHaveBeenCalled();
    expect(error).toBeInstanceOf(TemplateLimitError);
    return error as TemplateLimitError;
  }
  throw new Error(`expected a limit error from ${template.slice(0, 80)}`);
}

const big = (n: number) => "x".repeat(n);

describe("defaults and codes", () => {
  it("uses the documented defaults", () => {
    expect(DEFAULT_TEMPLATE_LIMITS).toEqual({
      maxTemplateBytes: 262_144,
      maxLoopIterations: 100_000,
      maxOutputChars: 1_000_000,
      maxDepth: 100,
      maxRangeLength: 100_000,
      maxWork: 1_500_000,
    });
  });

  it("gives every limit its own code", () => {
    expect(new Set(Object.values(TEMPLATE_LIMIT_CODES)).size).toBe(Object.keys(DEFAULT_TEMPLATE_LIMITS).length);
  });

  it.each([
    [{ maxDepth: 0 }, "options.limits.maxDepth"],
    [{ maxLoopIterations: 1.5 }, "options.limits.maxLoopIterations"],
    [{ maxOutput: 5 } as Partial<TemplateLimits>, "options.limits.maxOutput"],
  ])("rejects invalid limits %j", (limits, field) => {
    expect(() => resolveTemplateLimits(limits)).toThrow(InvalidInputError);
    expect(() => resolveTemplateLimits(limits)).toThrow(field);
  });
});

describe("template length", () => {
  it("accepts a template of exactly 256 KiB and rejects one byte more", () => {
    expect(renderJinjaTemplate(big(262_144), {}, { onError: "throw" })).toHaveLength(262_144);
    const error = limitError(big(262_145));
    expect(error.code).toBe("template_too_long");
    expect(error.limit).toBe("maxTemplateBytes");
    expect(error.cap).toBe(262_144);
  });

  it("measures UTF-8 bytes, not characters", () => {
    expect(limitError("é".repeat(131_073)).code).toBe("template_too_long");
    expect(renderJinjaTemplate("é".repeat(131_072), {}, { onError: "throw" })).toHaveLength(131_072);
  });

  it("is configurable", () => {
    expect(limitError("0123456789", {}, { maxTemplateBytes: 9 }).code).toBe("template_too_long");
  });
});

describe("loop iterations", () => {
  it("stops a 400 × 400 × 400 nested loop at the iteration limit instead of running 64 million iterations", () => {
    const error = limitError(
      "{% for a in range(400) %}{% for b in range(400) %}{% for c in range(400) %}x{% endfor %}{% endfor %}{% endfor %}",
    );
    expect(error.code).toBe("template_loop_limit");
    expect(error.cap).toBe(100_000);
    expect([error.line, error.column]).toEqual([1, 51]);
  });

  it("counts every iteration of every loop, and allows exactly the limit", () => {
    const template = "{% for a in range(n) %}{% for b in range(m) %}.{% endfor %}{% endfor %}";
    expect(renderJinjaTemplate(template, { n: 4, m: 4 }, { limits: { maxLoopIterations: 20 }, onError: "throw" })).toBe(
      ".".repeat(16),
    );
    expect(limitError(template, { n: 4, m: 5 }, { maxLoopIterations: 20 }).code).toBe("template_loop_limit");
  });

  it("counts the tests of `for … if` loops even when nothing passes them", () => {
    expect(limitError("{% for i in range(50) if false %}{% endfor %}", {}, { maxLoopIterations: 10 }).code).toBe(
      "template_loop_limit",
    );
  });

  it("renders a triple loop iff outer + outer·middle + outer·middle·inner ≤ the limit (property)", () => {
    fc.assert(
      fc.property(fc.nat(6), fc.nat(6), fc.nat(6), fc.integer({ min: 1, max: 150 }), (a, b, c, cap) => {
        const template =
          "{% for x in range(a) %}{% for y in range(b) %}{% for z in range(c) %}.{% endfor %}{% endfor %}{% endfor %}";
        const needed = a + a * b + a * b * c;
        const run = () =>
          renderJinjaTemplate(template, { a, b, c }, { limits: { maxLoopIterations: cap }, onError: "throw" });
        if (needed <= cap) expect(run()).toBe(".".repeat(a * b * c));
        else expect(run).toThrow(TemplateLimitError);
      }),
      { seed: 99, numRuns: 150 },
    );
  });
});

describe("output size", () => {
  it("trips when appended output passes the limit", () => {
    const error = limitError("{% for i in range(2000) %}{{ chunk }}{% endfor %}", { chunk: big(1000) });
    expect(error.code).toBe("template_output_limit");
    expect(error.limit).toBe("maxOutputChars");
  });

  it("checks at every append, including text captured by {% set %} blocks", () => {
    expect(limitError("{% set s %}{{ a }}{{ a }}{% endset %}", { a: big(6) }, { maxOutputChars: 10 }).code).toBe(
      "template_output_limit",
    );
    expect(
      renderJinjaTemplate("{{ a }}{{ a }}", { a: big(5) }, { limits: { maxOutputChars: 10 }, onError: "throw" }),
    ).toHaveLength(10);
  });

  it("checks every string `+` builds, named with its length, before any other limit", () => {
    const error = limitError(
      "{% set ns = namespace(s='x') %}{% for i in range(30) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
      {},
      { maxOutputChars: 1000 },
    );
    expect(error.limit).toBe("maxOutputChars");
    expect(error.message).toMatch(/"\+" builds a string of 1024 characters/);
  });

  it("counts a macro's output once, where it is written", () => {
    const template = "{% macro m() %}{{ half }}{% endmacro %}{{ m() }}";
    expect(
      renderJinjaTemplate(template, { half: big(600) }, { limits: { maxOutputChars: 1000 }, onError: "throw" }),
    ).toHaveLength(600);
  });

  it.each([
    [
      "string doubling in a namespace",
      "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
      {},
    ],
    ["replace('', …) amplification, before allocating", "{{ s | replace('', r) }}", { s: big(2000), r: big(1000) }],
    ["the replace method", "{{ s.replace('x', r) }}", { s: big(2000), r: big(1000) }],
    [
      "the replace method reached dynamically",
      "{% set f = s['rep' ~ 'lace'] %}{{ f('x', r) }}",
      { s: big(2000), r: big(1000) },
    ],
    ["indent with a huge width", "{{ s | indent(1000000) }}", { s: "a\nb\nc" }],
    ["join with a huge separator", "{{ l | join(r) }}", { l: Array.from({ length: 2000 }, () => "x"), r: big(1000) }],
    ["tojson with a huge indent", "{{ l | tojson(indent=100000) }}", { l: Array.from({ length: 50 }, () => [1]) }],
    ["printing a list of repeated large strings", "{% set l = [s, s, s, s, s, s, s, s] %}{{ l }}", { s: big(200_000) }],
    ["filter blocks", "{% filter indent(1000000) %}a\nb{% endfilter %}", {}],
  ])("trips on %s", (_what, template, args) => {
    expect(limitError(template, args as Record<string, unknown>).code).toBe("template_output_limit");
  });
});

describe("depth", () => {
  const nestedIfs = (n: number) => "{% if true %}".repeat(n) + "x" + "{% endif %}".repeat(n);

  it("rejects blocks nested deeper than the limit before rendering", () => {
    expect(renderJinjaTemplate(nestedIfs(50), {}, { onError: "throw" })).toBe("x");
    const error = limitError(nestedIfs(150));
    expect(error.code).toBe("template_depth_limit");
    expect(error.line).toBe(1);
  });

  it.each([
    ["brackets", `{{ ${"(".repeat(300)}1${")".repeat(300)} }}`],
    ["a long left-nested expression", `{{ ${Array.from({ length: 5000 }, () => "a").join(" ~ ")} }}`],
    ["a long member chain", `{{ a${".b".repeat(5000)} }}`],
    ["a long filter chain", `{{ 'x'${" | upper".repeat(5000)} }}`],
    ["unbounded recursion", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"],
    [
      "a value nested deeper than the limit",
      "{% set ns = namespace(v=1) %}{% for i in range(300) %}{% set ns.v = [ns.v] %}{% endfor %}{{ ns.v }}",
    ],
  ])("trips on %s", (_what, template) => {
    expect(limitError(template).code).toBe("template_depth_limit");
  });

  it("survives thousands of unary operators without overflowing the parser", () => {
    const error = thrownBy(() => renderJinjaTemplate(`{{ ${"not ".repeat(20_000)}x }}`, {}, { onError: "throw" }));
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).code).toBe("template_depth_limit");
  });

  it("is configurable", () => {
    expect(limitError(nestedIfs(6), {}, { maxDepth: 5 }).code).toBe("template_depth_limit");
  });
});

describe("range length", () => {
  it("allows range(100000) and rejects range(100001) without allocating it", () => {
    expect(renderJinjaTemplate("{{ range(100000) | length }}", {}, { onError: "throw" })).toBe("100000");
    const error = limitError("{{ range(100001) | length }}");
    expect(error.code).toBe("template_range_limit");
    expect(limitError("{{ range(0, 10 ** 15, 1) | length }}").code).toBe("template_range_limit");
  });

  it("caps lists built by concatenation", () => {
    expect(
      limitError("{% set ns = namespace(l=[1]) %}{% for i in range(30) %}{% set ns.l = ns.l + ns.l %}{% endfor %}")
        .code,
    ).toBe("template_range_limit");
  });

  it("is configurable", () => {
    expect(limitError("{{ range(11) | length }}", {}, { maxRangeLength: 10 }).code).toBe("template_range_limit");
  });
});

describe("work", () => {
  it("stops loops that run a filter over a large input on every pass", () => {
    const error = limitError("{% for i in range(100000) %}{% if i in items %}{% endif %}{% endfor %}", {
      items: Array.from({ length: 5000 }, (_, i) => -i),
    });
    expect(error.code).toBe("template_work_limit");
  });

  it("is configurable", () => {
    expect(limitError("{% for i in range(100) %}{{ i }}{% endfor %}", {}, { maxWork: 50 }).code).toBe(
      "template_work_limit",
    );
  });
});

describe("limit errors", () => {
  it("are TemplateErrors that isTemplateLimitError recognises, with the limit and its value", () => {
    const error = limitError("{{ range(20) | length }}", {}, { maxRangeLength: 10 });
    expect(error).toBeInstanceOf(TemplateError);
    expect(isTemplateLimitError(error)).toBe(true);
    expect(isTemplateLimitError(new TemplateError("template_render_error", "x"))).toBe(false);
    expect(error.limit).toBe("maxRangeLength");
    expect(error.cap).toBe(10);
    expect(error.message).toContain("options.limits.maxRangeLength");
  });
});

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("deadline", () => {
  const loop = "{% for i in range(50000) %}{{ i }}{% endfor %}";

  it("throws template_deadline once the clock passes deadlineMs, even with onError: original", () => {
    let now = 0;
    const clock = () => (now += 10);
    const report = vi.fn();
    let caught: unknown;
    try {
      renderJinjaTemplate(loop, {}, { deadlineMs: 50, clock, onErrorReport: report });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TemplateDeadlineError);
    expect(caught).toMatchObject({ code: "template_deadline", deadlineMs: 50, line: 1 });
    expect(report).not.toHaveBeenCalled();
  });

  it("leaves the output unchanged when it does not trip", () => {
    const plain = renderJinjaTemplate(loop, {}, { onError: "throw" });
    expect(renderJinjaTemplate(loop, {}, { onError: "throw", deadlineMs: 60_000 })).toBe(plain);
    expect(renderJinjaTemplate(loop, {}, { onError: "throw", deadlineMs: 5, clock: () => 0 })).toBe(plain);
  });

  const zero = (): number => 0;
  const cases: [JinjaRenderOptions, string][] = [
    [{ deadlineMs: 0 }, "options.deadlineMs"],
    [{ deadlineMs: Number.NaN }, "options.deadlineMs"],
    [{ deadlineMs: 10, clock: 5 as unknown as () => number }, "options.clock"],
    [{ clock: zero }, "options.clock"],
  ];
  it.each(cases)("rejects %j", (options, field) => {
    expect(() => renderJinjaTemplate("x", {}, options)).toThrow(InvalidInputError);
    expect(() => renderJinjaTemplate("x", {}, options)).toThrow(field);
  });
});
