import { InvalidInputError } from "./errors.ts";
import { joinPath } from "./paths.ts";
import type { JsonValue } from "./json.ts";
import { isPlainObject, putOwn } from "./plain-object.ts";

/**
 * A deep copy of JSON data, so later mutation on either side never leaks to the other.
 * `undefined` object properties are dropped (as `JSON.stringify` does); anything that is not
 * JSON (functions, class instances, `NaN`, cycles) throws `InvalidInputError` naming the path.
 */
export function cloneJson(value: unknown, path: string, maxDepth = 256): JsonValue {
  const stack = new Set<object>();
  const visit = (v: unknown, p: string, depth: number): JsonValue => {
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new InvalidInputError(p, `must be a finite number, got ${String(v)}.`);
      return v;
    }
    if (typeof v !== "object") throw new InvalidInputError(p, `must be JSON data, got ${typeof v}.`);
    if (depth > maxDepth) throw new InvalidInputError(p, `nests deeper than ${maxDepth} levels.`);
    if (stack.has(v)) throw new InvalidInputError(p, "contains itself (a cycle).");
    stack.add(v);
    try {
      if (Array.isArray(v))
        return v.map((item: unknown, i) => visit(item === undefined ? null : item, joinPath(p, i), depth + 1));
      if (!isPlainObject(v)) throw new InvalidInputError(p, "must be a plain object (JSON data).");
      const out: Record<string, JsonValue> = {};
      for (const key of Object.keys(v)) {
        const item = (v as Record<string, unknown>)[key];
        if (item !== undefined) putOwn(out, key, visit(item, joinPath(p, key), depth + 1));
      }
      return out;
    } finally {
      stack.delete(v);
    }
  };
  return visit(value, path, 1);
}
