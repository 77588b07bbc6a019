import { TemplateError } from "./errors.ts";
import { lineAndColumn } from "../util/json.ts";
import type { JsonValue } from "../messages/index.ts";
import { canonicalJson } from "../util/canonical.ts";

/** What `renderPromptTemplate` does with a `{{name}}` that has no variable. */
export interface PromptTemplateOptions {
  /** `"throw"` (default): `TemplateError` with code `missing_variable`. `"preserve"`: leave `{{name}}` as written. */
  readonly missing?: "throw" | "preserve";
}

/** `{{name}}` or `{{ name }}`: a top-level name of letters, digits and `_`. Anything else is left as text. */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const MAX_DEPTH = 256;

/**
 * Replaces top-level `{{name}}` placeholders in one pass (inserted values are never re-scanned).
 * Strings are inserted verbatim; numbers, booleans, `null`, arrays and plain objects as JSON with
 * object keys sorted (UTF-16 code-unit order) at every depth. Only the variables object's own
 * properties count: `{{constructor}}` is missing, never a function's text. No expressions,
 * filters, paths, loops or partials.
 */
export function renderPromptTemplate(
  template: string,
  variables: Readonly<Record<string, JsonValue>>,
  options: PromptTemplateOptions = {},
): string {
  if (typeof template !== "string") {
    throw new TemplateError(
      "invalid_template",
      `renderPromptTemplate: template must be a string, got ${typeof template}.`,
    );
  }
  if (typeof variables !== "object" || variables === null || Array.isArray(variables)) {
    throw new TemplateError(
      "invalid_variables",
      "renderPromptTemplate: variables must be a plain object of name → JSON value.",
    );
  }
  const missing = options.missing ?? "throw";
  if (missing !== "throw" && missing !== "preserve") {
    throw new TemplateError(
      "invalid_options",
      `renderPromptTemplate: options.missing must be "throw" or "preserve", got ${JSON.stringify(missing)}.`,
    );
  }
  return template.replace(PLACEHOLDER, (whole: string, name: string, offset: number) => {
    const value = Object.hasOwn(variables, name) ? (variables as Record<string, unknown>)[name] : undefined;
    if (value === undefined) {
      if (missing === "preserve") return whole;
      const { line, column } = lineAndColumn(template, offset);
      throw new TemplateError(
        "missing_variable",
        `Template variable "${name}" (line ${line}, column ${column}) has no value: add "${name}" to the variables or pass { missing: "preserve" }.`,
        { line, column },
      );
    }
    return typeof value === "string" ? value : jsonForPrompt(value, name);
  });
}

/**
 * JSON inserted into a prompt: canonical (keys sorted at every depth), JSON data only (functions,
 * symbols, bigints, non-finite numbers, cycles and non-plain objects such as Date, Map or class
 * instances throw `TemplateError` naming the path), nesting capped at 256 levels.
 */
export function jsonForPrompt(value: unknown, path: string): string {
  return canonicalJson(value, {
    path,
    policy: "strict",
    maxDepth: MAX_DEPTH,
    error: (f) =>
      new TemplateError(
        "invalid_variable",
        `Template variable ${f.path} ${f.problem}: pass strings, numbers, booleans, null, arrays or plain objects.`,
      ),
  });
}
