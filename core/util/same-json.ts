/**
 * Structural equality of JSON data without serializing it: shared by the cache analysis (a
 * segment against its twin) and the request reader (a turn against the next one).
 */
import { isPlainObject } from "./plain-object.ts";

/** Deepest nesting `sameJson` follows before it gives up (and the caller serializes instead). */
const SAME_DEPTH = 64;

/**
 * True only when `a` and `b` certainly serialize to the same JSON: equal primitives, or plain
 * arrays and objects with the same keys in the same order holding such values. False whenever in
 * doubt (functions, BigInts, NaN, class instances, a `toJSON` key, deep nesting): the caller then
 * serializes. Comparing is far cheaper than serializing, and allocates nothing but key lists.
 */
export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (typeof a !== "object" || a === null)
    return a === b && typeof a !== "function" && typeof a !== "bigint" && typeof a !== "symbol";
  if (typeof b !== "object" || b === null || depth >= SAME_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || k === "toJSON") return false;
    if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}
