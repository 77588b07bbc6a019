import { renderPromptTemplate, TemplateError, type JsonValue } from "../../../core/index.ts";
import { prepareAssembly, type AssemblyTemplate } from "../../../core/request/index.ts";
import { lintTemplateVolatility, type TemplateVolatility } from "../../../core/templates/index.ts";

export const ENGINES = ["jinja", "name"] as const;
export type Engine = (typeof ENGINES)[number];

export interface PlaygroundInput {
  readonly engine: Engine;
  readonly template: string;
  /** JSON text of the runtime arguments (`args`). */
  readonly args: string;
  /** JSON text of the template defaults (Jinja only). */
  readonly defaults: string;
  /** ISO 8601 instant for `system.*` (Jinja only); empty = no clock. */
  readonly now: string;
}

export type RenderResult =
  | { readonly ok: true; readonly text: string; readonly fellBack: null }
  | {
      readonly ok: true;
      readonly text: string;
      readonly fellBack: { readonly message: string; readonly line: number | null; readonly column: number | null };
    }
  | {
      readonly ok: false;
      readonly field: "args" | "defaults" | "now" | "template";
      readonly message: string;
      readonly line: number | null;
      readonly column: number | null;
    };

function parseObject(text: string, field: "args" | "defaults"): Record<string, JsonValue> | { error: string } {
  if (text.trim() === "") return {};
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v))
      return { error: `${field} must be a JSON object, e.g. {"project": "acme"}` };
    return v as Record<string, JsonValue>;
  } catch (e) {
    return { error: `${field} is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const position = (e: unknown) =>
  e instanceof TemplateError ? { line: e.line ?? null, column: e.column ?? null } : { line: null, column: null };

/**
 * Renders with core exactly as `inspect` does: Jinja through `prepareAssembly` (prompt-context
 * namespaces, defaults under args, the injected clock, source-text fallback on errors), `{{name}}`
 * through `renderPromptTemplate` (missing variables are errors).
 */
export function renderPlayground(input: PlaygroundInput): RenderResult {
  const args = parseObject(input.args, "args");
  if ("error" in args) return { ok: false, field: "args", message: String(args.error), line: null, column: null };
  if (input.engine === "name") {
    try {
      return { ok: true, text: renderPromptTemplate(input.template, args), fellBack: null };
    } catch (e) {
      return { ok: false, field: "template", message: e instanceof Error ? e.message : String(e), ...position(e) };
    }
  }
  const defaults = parseObject(input.defaults, "defaults");
  if ("error" in defaults)
    return { ok: false, field: "defaults", message: String(defaults.error), line: null, column: null };
  const template: AssemblyTemplate = {
    template: input.template,
    args,
    defaults,
    ...(input.now.trim() !== "" ? { now: input.now.trim() } : {}),
  };
  try {
    const prepared = prepareAssembly({ model: { provider: "playground", model: "playground" }, input: "", template });
    const t = prepared.template;
    if (!t) return { ok: true, text: "", fellBack: null };
    if (t.error)
      return {
        ok: true,
        text: t.rendered,
        fellBack: { message: t.error.message, line: t.error.line ?? null, column: t.error.column ?? null },
      };
    return { ok: true, text: t.rendered, fellBack: null };
  } catch (e) {
    const field =
      e instanceof Error && "field" in e && String((e as { field: unknown }).field).includes("now")
        ? "now"
        : "template";
    return { ok: false, field, message: e instanceof Error ? e.message : String(e), ...position(e) };
  }
}

export interface LintedWarning {
  readonly variable: string;
  readonly volatility: TemplateVolatility;
  readonly line: number | null;
  readonly column: number | null;
  readonly message: string;
}

/** Volatile values (time, ids) that make the rendered prompt differ per request: core's lint. */
export function lint(template: string): readonly LintedWarning[] {
  try {
    return lintTemplateVolatility(template).map((w) => ({
      variable: w.variable,
      volatility: w.volatility,
      line: w.line ?? null,
      column: w.column ?? null,
      message: w.reason,
    }));
  } catch {
    return []; // a template that does not parse has no lint; the render error says why
  }
}

/** The request's own template block, if the current input is a Strata request that has one. */
export function templateBlockOf(value: unknown): AssemblyTemplate | null {
  if (typeof value !== "object" || value === null) return null;
  const t = (value as { template?: unknown }).template;
  if (typeof t !== "object" || t === null || typeof (t as { template?: unknown }).template !== "string") return null;
  return t as AssemblyTemplate;
}

export function playgroundFrom(block: AssemblyTemplate | null): PlaygroundInput {
  if (!block) return { engine: "jinja", template: "", args: "{}", defaults: "{}", now: "" };
  return {
    engine: "jinja",
    template: block.template,
    args: JSON.stringify(block.args ?? {}, null, 2),
    defaults: JSON.stringify(block.defaults ?? {}, null, 2),
    now: block.now ?? "",
  };
}
