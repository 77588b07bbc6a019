import * as published from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { basicCases } from "./test-support/corpus-basics.ts";
import { chatTemplateCases } from "./test-support/corpus-chat-templates.ts";
import * as vendored from "./vendor/huggingface-jinja.js";

// The vendored copy is the published package with its class fields assigned in the constructors
// (e2e/vendor/jinja.mjs): it must render, fail and build values exactly as the package does.
const corpus = [...basicCases, ...chatTemplateCases];

/** A render by one copy of the library, as text or as the error it threw. */
function render(lib: typeof published, template: string, context: Record<string, unknown>): string {
  try {
    return `ok:${new lib.Template(template).render(context)}`;
  } catch (error) {
    return `${(error as Error).name}:${(error as Error).message}`;
  }
}

describe("the vendored @huggingface/jinja", () => {
  it("is the package's code, not the package itself", () => {
    expect(vendored.Template).not.toBe(published.Template);
  });

  it.each(corpus)("renders $name as the published package does", (c) => {
    expect(render(vendored, c.template, c.context)).toBe(render(published, c.template, c.context));
  });

  it("builds runtime values and AST nodes with the same own properties, in the same order", () => {
    const shape = (v: object) =>
      Object.entries(v).map(([k, x]) => [k, x !== null && typeof x === "object" ? typeof x : x]);
    const values = (lib: typeof published) => {
      const env = new lib.Environment();
      const made = ["a", 1, 1.5, true, [1], { k: "v" }, null, undefined].map((v, i) => env.set(`v${i}`, v));
      return [...made.map(shape), Object.keys(env), Object.keys(new lib.Interpreter(env))];
    };
    expect(values(vendored)).toEqual(values(published));
    const ast = (lib: typeof published) =>
      JSON.stringify(lib.parse(lib.tokenize("{% for x in y %}{{ x.a|upper }}{% endfor %}")));
    expect(ast(vendored)).toBe(ast(published));
  });
});
