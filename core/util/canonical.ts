/**
 * Canonical serialization, the one sorted-key JSON writer: object keys sorted (by UTF-16 code
 * units) at every depth and no whitespace, so two values that differ only in key order serialize
 * the same. Used for cache fingerprints of caller JSON and for JSON inserted into prompts.
 */
import { InvalidInputError } from "./errors.ts";
import { DEFAULT_MAX_JSON_DEPTH } from "./json.ts";
import { isPlainObject } from "./plain-object.ts";
import { writeJsonStringUtf8 } from "./utf8.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export interface CanonicalJsonOptions {
  /** The root value's name in error paths (default `value`), e.g. `tools[0].inputSchema`. */
  readonly path?: string;
  /**
   * What to do with values JSON cannot hold. `"lenient"` (default) follows `JSON.stringify`:
   * `undefined` and functions are dropped from objects and written as `null` in arrays,
   * non-finite numbers as `null`, other objects by their own enumerable keys. `"strict"` accepts
   * JSON data only: a function, symbol, non-finite number, or an object that is neither a plain
   * object nor an array is an error (`undefined` object properties are still skipped).
   */
  readonly policy?: "lenient" | "strict";
  /** Deepest nesting accepted; default `DEFAULT_MAX_JSON_DEPTH` (1,000, as `parseJson`). */
  readonly maxDepth?: number;
  /**
   * Builds the error thrown for a value the policy refuses; default an `InvalidInputError` with
   * `field` = the path and the message `"<problem>: <advice>"`.
   */
  readonly error?: (failure: CanonicalJsonFailure) => Error;
}

/** Why a value could not be written, and where. */
export interface CanonicalJsonFailure {
  readonly code: "not_json" | "json_cycle" | "json_too_deep";
  /** The path of the bad value: `value.a[0]` (very deep paths are abbreviated). */
  readonly path: string;
  /** What is wrong, as a predicate: `is a BigInt, which JSON cannot represent`. */
  readonly problem: string;
  /** What to do about it: `convert it to a string or a number`. */
  readonly advice: string;
}

const defaultError = (f: CanonicalJsonFailure): Error =>
  new InvalidInputError(f.path, `${f.problem}: ${f.advice}.`, { code: f.code });

/**
 * `value` as canonical JSON. Host objects are not trusted: nesting deeper than `maxDepth`, a
 * cycle or a BigInt (and, under the strict policy, any non-JSON value) throws naming the path —
 * never a stack overflow. Recursion is bounded by the same cap.
 */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const root = options.path ?? "value";
  const strict = options.policy === "strict";
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const makeError = options.error ?? defaultError;
  const keys: (string | number)[] = [];
  const ancestors = new Set<object>();
  const fail = (code: CanonicalJsonFailure["code"], problem: string, advice: string): never => {
    // Very deep paths: the first 12 segments and the depth (as the request guard writes them).
    let path = root;
    for (const k of keys.slice(0, keys.length <= 24 ? keys.length : 12))
      path += typeof k === "number" ? `[${k}]` : IDENTIFIER.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
    if (keys.length > 24) path += `…(${keys.length} levels deep)`;
    throw makeError({ code, path, problem, advice });
  };
  const notJson = (v: unknown): never =>
    typeof v === "number"
      ? fail("not_json", `is ${v}, which JSON cannot represent`, "pass a finite number")
      : fail("not_json", `is a ${typeof v}, which JSON cannot represent`, "pass JSON data");
  const write = (v: unknown): string => {
    if (v === null || typeof v !== "object") {
      // `undefined` reaches here only as the root value (containers handle their own).
      if (strict && v === undefined) fail("not_json", "is undefined, which JSON cannot represent", "pass JSON data");
      if (typeof v === "bigint")
        fail("not_json", "is a BigInt, which JSON cannot represent", "convert it to a string or a number");
      if (
        strict &&
        (typeof v === "function" || typeof v === "symbol" || (typeof v === "number" && !Number.isFinite(v)))
      )
        notJson(v);
      return JSON.stringify(v) ?? "null";
    }
    if (ancestors.has(v)) fail("json_cycle", "refers back to itself (a cycle)", "JSON data cannot contain cycles");
    if (keys.length >= maxDepth) fail("json_too_deep", `nests deeper than ${maxDepth} levels`, "flatten it");
    ancestors.add(v);
    let out: string;
    if (Array.isArray(v)) {
      out = "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) out += ",";
        const item: unknown = v[i];
        keys.push(i);
        if (strict && (typeof item === "function" || typeof item === "symbol")) notJson(item);
        out += item === undefined || typeof item === "function" ? "null" : write(item);
        keys.pop();
      }
      out += "]";
    } else {
      if (strict && !isPlainObject(v))
        fail("not_json", "is not a plain object or array", "pass plain objects, arrays and JSON values");
      out = "{";
      let first = true;
      for (const k of sortedKeys(v)) {
        const item = (v as Record<string, unknown>)[k];
        keys.push(k);
        if (strict && (typeof item === "function" || typeof item === "symbol")) notJson(item);
        keys.pop();
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

/**
 * Writes the UTF-8 of `canonicalJson(value)` into `out` from index `at` and returns the byte count,
 * for what `JSON.parse` makes (strings, finite numbers, booleans, `null`, plain objects and arrays)
 * nested at most `DEFAULT_MAX_JSON_DEPTH` deep. Returns -1 for anything else, or when the bytes
 * would not fit: the caller then writes `canonicalJson(value)`, which also throws what it throws.
 * Hashing a caller's JSON this way writes no string for each key and value on the way.
 */
export function writeCanonicalJsonUtf8(value: unknown, out: Uint8Array, at: number): number {
  sorted = true;
  return writeUtf8Json(value, out, at);
}

/**
 * Writes the UTF-8 of `JSON.stringify(value)` into `out` from index `at` and returns the byte
 * count, for the same values as `writeCanonicalJsonUtf8` (each object's keys in their own order);
 * -1 for anything else or when the bytes would not fit: the caller then writes the text with
 * `JSON.stringify`. Hashing a block's JSON this way writes no string of it.
 */
export function writeJsonUtf8(value: unknown, out: Uint8Array, at: number): number {
  sorted = false;
  return writeUtf8Json(value, out, at);
}

function writeUtf8Json(value: unknown, out: Uint8Array, at: number): number {
  target = out;
  pos = at;
  const ok = put(value, 0);
  target = EMPTY;
  return ok ? pos - at : -1;
}

/** Objects with up to this many keys have them sorted by insertion, in place (see `sortedKeys`). */
const INSERTION_SORT_KEYS = 32;

/**
 * `Object.keys(v).sort()`: the same order (UTF-16 code units, as the default sort compares
 * strings). A few keys are sorted in place by insertion, most often already in order: the
 * engine's `sort` copies every array it sorts into a work array first, and a report hashing the
 * tool calls of a long chat sorted thousands of small objects' keys.
 */
export function sortedKeys(v: object): string[] {
  const keys = Object.keys(v);
  const n = keys.length;
  if (n > INSERTION_SORT_KEYS) return keys.sort();
  for (let i = 1; i < n; i++) {
    const k = keys[i]!;
    let j = i - 1;
    if (keys[j]! <= k) continue;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

const EMPTY = new Uint8Array(0);
/** Where `writeCanonicalJsonUtf8` and `writeJsonUtf8` write, how far they have written, and whether keys are sorted. */
let target: Uint8Array = EMPTY;
let pos = 0;
let sorted = true;

/** Writes ASCII `text` (a number, `true`, `null`…); false when it would not fit. */
function putAscii(text: string): boolean {
  if (pos + text.length > target.length) return false;
  for (let i = 0; i < text.length; i++) target[pos++] = text.charCodeAt(i);
  return true;
}

function putString(text: string): boolean {
  // An escape takes at most 6 bytes per UTF-16 unit, plus the quotes.
  if (pos + text.length * 6 + 2 > target.length) return false;
  pos += writeJsonStringUtf8(text, target, pos);
  return true;
}

function put(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case "string":
      return putString(v);
    case "number":
      return Number.isFinite(v) && putAscii(JSON.stringify(v));
    case "boolean":
      return putAscii(v ? "true" : "false");
    case "object":
      break;
    default:
      return false;
  }
  if (v === null) return putAscii("null");
  if (depth >= DEFAULT_MAX_JSON_DEPTH || pos >= target.length) return false;
  if (Array.isArray(v)) {
    target[pos++] = 0x5b; // [
    for (let i = 0; i < v.length; i++) {
      if (i > 0 && !putAscii(",")) return false;
      if (!put(v[i], depth + 1)) return false;
    }
    return putAscii("]");
  }
  if (!isPlainObject(v)) return false;
  target[pos++] = 0x7b; // {
  let first = true;
  for (const k of sorted ? sortedKeys(v) : Object.keys(v)) {
    const item = (v as Record<string, unknown>)[k];
    if (item === undefined) continue;
    if (!first && !putAscii(",")) return false;
    if (!putString(k) || !putAscii(":") || !put(item, depth + 1)) return false;
    first = false;
  }
  return putAscii("}");
}
