import { TemplateError } from "./errors.ts";
import { lineAndColumn } from "../util/json.ts";
import type { JsonValue } from "../messages/index.ts";
import { isPlainObject } from "../util/plain-object.ts";

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
    return typeof value === "string" ? value : stableJson(value, name);
  });
}

/**
 * Deterministic JSON: object keys sorted at every depth, own enumerable properties of plain
 * objects only. `undefined` object properties are skipped (as `JSON.stringify` does). Functions,
 * symbols, bigints, non-finite numbers, cycles and non-plain objects (Date, Map, class instances)
 * throw `TemplateError` naming the path.
 */
export function stableJson(value: unknown, path = "value"): string {
  return write(value, path, 0, []);
}

function write(value: unknown, path: string, depth: number, stack: unknown[]): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw invalid(path, `is ${value}, which JSON cannot represent`);
      return JSON.stringify(value);
    case "object":
      break;
    default:
      throw invalid(path, `is a ${typeof value}, which is not JSON`);
  }
  if (value === null) return "null";
  if (depth >= MAX_DEPTH) throw invalid(path, `nests deeper than ${MAX_DEPTH} levels`);
  if (stack.includes(value)) throw invalid(path, "refers back to itself (a cycle)");
  stack.push(value);
  let out: string;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      parts.push(item === undefined ? "null" : write(item, `${path}[${i}]`, depth + 1, stack));
    }
    out = `[${parts.join(",")}]`;
  } else {
    if (!isPlainObject(value)) throw invalid(path, "is not a plain object or array");
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const item = record[key];
      if (item === undefined) continue;
      parts.push(`${JSON.stringify(key)}:${write(item, `${path}.${key}`, depth + 1, stack)}`);
    }
    out = `{${parts.join(",")}}`;
  }
  stack.pop();
  return out;
}

function invalid(path: string, problem: string): TemplateError {
  return new TemplateError(
    "invalid_variable",
    `Template variable ${path} ${problem}: pass strings, numbers, booleans, null, arrays or plain objects.`,
  );
}
