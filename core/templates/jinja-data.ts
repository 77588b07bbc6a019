/**
 * What a template may see of the caller's arguments: JSON-like data only, copied into fresh
 * null-prototype objects. Functions, symbols, class instances, cycles and non-finite numbers are
 * rejected with the argument's path, so no host object, prototype or function ever reaches the
 * template (the library would otherwise wrap a function into something a template can call).
 */
import { InvalidInputError } from "../errors.ts";
import { joinPath } from "../formats/paths.ts";
import { isDate, isPlainObject } from "../messages/plain-object.ts";

export type TemplateData = string | number | boolean | null | TemplateData[] | { [key: string]: TemplateData };

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (typeof value === "object" && value !== null) return `a ${(value as object).constructor?.name ?? "non-plain object"}`;
  return typeof value;
}

/** Where a value sits, as a linked list: the path string is only built when an error names it. */
interface Where {
  readonly up: Where | string;
  readonly key: string | number;
}
const pathOf = (where: Where | string): string => (typeof where === "string" ? where : joinPath(pathOf(where.up), where.key));

function convert(value: unknown, where: Where | string, depth: number, maxDepth: number, stack: Set<object>): TemplateData | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new InvalidInputError(pathOf(where), `must be a finite number, got ${String(value)}.`);
      return value;
    case "bigint":
      return value.toString();
    case "undefined":
      return undefined;
    case "object":
      break;
    default:
      throw new InvalidInputError(pathOf(where), `is ${describe(value)}: templates only receive JSON-like data (strings, numbers, booleans, null, arrays, plain objects).`);
  }
  if (value === null) return null;
  if (isDate(value)) {
    if (Number.isNaN(value.getTime())) throw new InvalidInputError(pathOf(where), "is an invalid Date.");
    return value.toISOString();
  }
  if (depth >= maxDepth) throw new InvalidInputError(pathOf(where), `nests deeper than ${maxDepth} levels (options.limits.maxDepth).`);
  if (stack.has(value)) throw new InvalidInputError(pathOf(where), "contains itself (a cycle): templates only receive tree-shaped data.");
  stack.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item: unknown, index) => convert(item, { up: where, key: index }, depth + 1, maxDepth, stack) ?? null);
    }
    if (!isPlainObject(value)) {
      throw new InvalidInputError(pathOf(where), `is ${describe(value)}: templates only receive JSON-like data (plain objects, not class instances, Maps or Sets).`);
    }
    const out: { [key: string]: TemplateData } = Object.create(null) as { [key: string]: TemplateData };
    for (const key of Object.keys(value)) {
      const item = convert((value as Record<string, unknown>)[key], { up: where, key }, depth + 1, maxDepth, stack);
      if (item !== undefined) out[key] = item;
    }
    return out;
  } finally {
    stack.delete(value);
  }
}

/**
 * Merges `defaults` under `args` (runtime arguments win; an `undefined` argument keeps its
 * default) and copies the result into template data. `bigint` becomes its decimal string, a
 * `Date` its ISO string; `undefined` object properties are dropped and array items become `null`.
 */
export function toTemplateData(
  args: Readonly<Record<string, unknown>> | undefined,
  defaults: Readonly<Record<string, unknown>> | undefined,
  maxDepth: number,
): Record<string, TemplateData> {
  const merged: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const origin = new Map<string, string>();
  for (const [source, name] of [
    [defaults, "options.defaults"],
    [args, "args"],
  ] as const) {
    if (source === undefined) continue;
    if (typeof source !== "object" || source === null || Array.isArray(source) || !isPlainObject(source)) {
      throw new InvalidInputError(name, "must be a plain object of variable name → value.");
    }
    for (const key of Object.keys(source)) {
      const value = (source as Record<string, unknown>)[key];
      if (value === undefined) continue;
      merged[key] = value;
      origin.set(key, name);
    }
  }
  const out: Record<string, TemplateData> = Object.create(null) as Record<string, TemplateData>;
  const stack = new Set<object>();
  for (const key of Object.keys(merged)) {
    const item = convert(merged[key], joinPath(origin.get(key) ?? "args", key), 1, maxDepth, stack);
    if (item !== undefined) out[key] = item;
  }
  return out;
}
