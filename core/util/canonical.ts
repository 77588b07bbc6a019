/**
 * Canonical serialization: JSON with object keys sorted (by UTF-16 code units) at every
 * depth and no whitespace. Two values that differ only in key order serialize the same.
 */
import { InvalidInputError } from "./errors.ts";
import { DEFAULT_MAX_JSON_DEPTH } from "./json.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `value` as canonical JSON. Values `JSON.stringify` skips or nulls are treated the same way
 * (`undefined` and functions: dropped from objects, `null` in arrays). Host objects are not
 * trusted: nesting deeper than `DEFAULT_MAX_JSON_DEPTH` (1,000, as `parseJson`), a cycle or a
 * BigInt throws `InvalidInputError` naming the path (`path` is the root's name, default `value`)
 * — never a stack overflow. Recursion is bounded by the same cap.
 */
export function canonicalJson(value: unknown, path = "value"): string {
  const keys: (string | number)[] = [];
  const ancestors = new Set<object>();
  const fail = (code: string, message: string): never => {
    // Very deep paths: the first 12 segments and the depth (as the request guard writes them).
    let at = path;
    for (const k of keys.slice(0, keys.length <= 24 ? keys.length : 12))
      at += typeof k === "number" ? `[${k}]` : IDENTIFIER.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
    if (keys.length > 24) at += `…(${keys.length} levels deep)`;
    throw new InvalidInputError(at, message, { code });
  };
  const write = (v: unknown): string => {
    if (v === null || typeof v !== "object") {
      if (typeof v === "bigint")
        fail("not_json", "is a BigInt, which JSON cannot represent: convert it to a string or a number.");
      return JSON.stringify(v) ?? "null";
    }
    if (ancestors.has(v)) fail("json_cycle", "refers back to itself (a cycle): JSON data cannot contain cycles.");
    if (keys.length >= DEFAULT_MAX_JSON_DEPTH)
      fail("json_too_deep", `nests deeper than ${DEFAULT_MAX_JSON_DEPTH} levels: flatten it.`);
    ancestors.add(v);
    let out: string;
    if (Array.isArray(v)) {
      out = "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ",";
        const item: unknown = v[i];
        keys.push(i);
        out += item === undefined || typeof item === "function" ? "null" : write(item);
        keys.pop();
      }
      out += "]";
    } else {
      out = "{";
      let first = true;
      for (const k of Object.keys(v).sort()) {
        const item = (v as Record<string, unknown>)[k];
        if (item === undefined || typeof item === "function") continue;
        keys.push(k);
        out += `${first ? "" : ","}${JSON.stringify(k)}:${write(item)}`;
        keys.pop();
        first = false;
      }
      out += "}";
    }
    ancestors.delete(v);
    return out;
  };
  return write(value);
}
