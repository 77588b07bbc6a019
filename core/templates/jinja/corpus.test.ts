import { describe, expect, it } from "vitest";
import { TemplateError } from "../errors.ts";
import { compileJinjaTemplate } from "./compile.ts";
import { renderCompiledJinjaTemplate, renderJinjaTemplate } from "./render.ts";
import { basicCases } from "./test-support/corpus-basics.ts";
import { chatTemplateCases } from "./test-support/corpus-chat-templates.ts";
import type { JinjaCorpusCase } from "./test-support/corpus-types.ts";

const corpus: readonly JinjaCorpusCase[] = [...basicCases, ...chatTemplateCases];

describe("the Jinja corpus", () => {
  it("has at least 80 uniquely named cases, including the spec's patterns and 10+ public chat templates", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(80);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
    expect(corpus.filter((c) => c.name.startsWith("spec:")).length).toBeGreaterThanOrEqual(8);
    expect(new Set(chatTemplateCases.map((c) => c.template)).size).toBeGreaterThanOrEqual(10);
  });

  it.each(corpus)("$name", (c) => {
    const report: TemplateError[] = [];
    const output = renderJinjaTemplate(c.template, c.context, { ...c.options, onErrorReport: (e) => report.push(e) });
    expect(output).toBe(c.expected);
    if (c.error === undefined) {
      expect(report).toEqual([]);
      return;
    }
    expect(report.map((e) => e.code)).toEqual([c.error]);
    let thrown: unknown;
    try {
      renderJinjaTemplate(c.template, c.context, { ...c.options, onError: "throw" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TemplateError);
    expect((thrown as TemplateError).code).toBe(c.error);
  });

  it("renders every case the same way from one compiled template, again and again", () => {
    for (const c of corpus.filter((x) => x.error === undefined)) {
      const compiled = compileJinjaTemplate(c.template, c.options ?? {});
      const first = renderCompiledJinjaTemplate(compiled, c.context, c.options ?? {});
      expect(renderCompiledJinjaTemplate(compiled, c.context, c.options ?? {})).toBe(first);
      expect(first).toBe(c.expected);
    }
  });
});
