/**
 * The size of `JSON.stringify(value)` without writing it: its length in UTF-16 code units and,
 * when asked, in UTF-8 bytes. Budgets measure every tool call's arguments and every structured
 * tool result as JSON (core/assembly/context-measure.ts), and inspect's segmentation measures
 * the blocks whose JSON it keeps no copy of (`blockJsonBytes`, core/cache/segment-json.ts). At
 * 100,000 messages the strings `JSON.stringify` wrote only to be measured and dropped were about
 * 30 MB of garbage per call, so the young generation filled twice a call and whatever was alive
 * at that moment was copied and promoted. Counting writes nothing.
 *
 * Only plain JSON data is sized here — plain objects, arrays, strings, finite or non-finite
 * numbers, booleans, `null` (and `undefined`, functions and symbols where JSON drops or nulls
 * them). Anything `JSON.stringify` would treat specially (a `toJSON` method, a `Date`, a `Map`,
 * a class instance, a boxed primitive, a `BigInt`, nesting deeper than `MAX_DEPTH`, which also
 * covers cycles) is stringified and measured instead, so the figures, and any error
 * `JSON.stringify` throws, are exactly what they were.
 */
import { isPlainObject } from "./plain-object.ts";
import { utf8Length } from "./utf8.ts";

/** Nesting past this is left to `JSON.stringify` (it also ends a walk around a cycle). */
const MAX_DEPTH = 64;

/**
 * True when the runtime's own `String.prototype.isWellFormed` says `text` has no lone surrogate;
 * false as well where there is none (callers then take their slower path, which is always right).
 */
function wellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === "function" && native.call(text);
}

/** The sizes `sizeJson` fills in. */
export interface JsonSize {
  /** UTF-16 code units of `JSON.stringify(value) ?? ""`. */
  chars: number;
  /** UTF-8 bytes of the same text (left 0 unless asked for). */
  bytes: number;
}

let chars = 0;
let bytes = 0;
let countBytes = false;

/**
 * Sizes `JSON.stringify(value) ?? ""` into `out` (`bytes` only `withBytes`, else 0). Plain JSON
 * data is counted; anything else is stringified and measured, so any error is `JSON.stringify`'s.
 */
export function sizeJson(value: unknown, out: JsonSize, withBytes: boolean): void {
  chars = 0;
  bytes = 0;
  countBytes = withBytes;
  // At the top, a value JSON cannot hold makes `JSON.stringify` return `undefined`: "" here.
  const counted = value === undefined || typeof value === "function" || typeof value === "symbol" || add(value, 0);
  if (!counted) {
    const json = JSON.stringify(value) ?? "";
    chars = json.length;
    bytes = withBytes ? utf8Length(json) : 0;
  }
  out.chars = chars;
  out.bytes = withBytes ? bytes : 0;
}

/**
 * `utf8Length(JSON.stringify(value))` for plain JSON data (an object or array at the top, or any
 * value `sizeJson` counts), written nowhere; -1 when `value` holds anything `sizeJson` would
 * stringify to measure (the caller writes it, so any error is its own).
 */
export function jsonBytes(value: unknown): number {
  chars = 0;
  bytes = 0;
  countBytes = true;
  // `add` takes no `undefined`, function or symbol (JSON.stringify writes nothing for them): -1.
  return add(value, 0) ? bytes : -1;
}

/** Adds the JSON of `value` (not `undefined`, a function or a symbol) to the running sizes. */
function add(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
      addString(value);
      return true;
    case "number":
      addAscii(Number.isFinite(value) ? numberLength(value) : 4); // non-finite: null
      return true;
    case "boolean":
      addAscii(value ? 4 : 5);
      return true;
    case "object":
      if (value === null) {
        addAscii(4);
        return true;
      }
      if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
      return Array.isArray(value) ? addArray(value, depth + 1) : isPlainObject(value) && addObject(value, depth + 1);
    default:
      return false; // bigint: JSON.stringify throws, and the caller's call will say so
  }
}

function addArray(list: readonly unknown[], depth: number): boolean {
  const n = list.length;
  addAscii(n === 0 ? 2 : n + 1); // brackets and commas
  for (let i = 0; i < n; i++) {
    const item = list[i];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") addAscii(4);
    else if (!add(item, depth)) return false;
  }
  return true;
}

function addObject(object: object, depth: number): boolean {
  const record = object as Record<string, unknown>;
  let members = 0;
  // `for…in` + an own check gives `Object.keys`' keys in its order, without an array of them.
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const item = record[key];
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    members++;
    addString(key);
    addAscii(1); // the colon
    if (!add(item, depth)) return false;
  }
  addAscii(members === 0 ? 2 : members + 1); // braces and commas
  return true;
}

function addAscii(n: number): void {
  chars += n;
  bytes += n;
}

/** Below this length a string is counted character by character: cheaper than native scans' calls. */
const SHORT = 24;

/** A character `JSON.stringify` escapes, or half of a surrogate pair (it escapes a lone one). */
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPED_OR_SURROGATE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Control characters `JSON.stringify` escapes other than \n, \r and \t. */
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const RARE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function occurrences(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/**
 * How many characters (and bytes: they are ASCII) `JSON.stringify(text)` adds to `text` besides
 * its quotes: one for each `"`, `\`, newline, carriage return and tab, each written as two. `-1`
 * when `text` holds another control character or a lone surrogate (written as `\uXXXX`): count
 * that one character by character. Native scans only, so long prose costs a few passes of `indexOf`.
 */
export function escapedExtra(text: string): number {
  if (!ESCAPED_OR_SURROGATE.test(text)) return 0;
  if (RARE_CONTROL.test(text) || !wellFormed(text)) return -1;
  return (
    occurrences(text, '"') +
    occurrences(text, "\\") +
    occurrences(text, "\n") +
    occurrences(text, "\r") +
    occurrences(text, "\t")
  );
}

/** True when `JSON.stringify(text)` is `text` between quotes: nothing to escape, no lone surrogate. */
export const stringifiesAsIs = (text: string): boolean => escapedExtra(text) === 0;

/** A string between quotes, escaped as `JSON.stringify` escapes it (lone surrogates as `\uXXXX`). */
function addString(text: string): void {
  const n = text.length;
  const extra = n < SHORT ? -1 : escapedExtra(text);
  if (extra >= 0) {
    chars += n + 2 + extra;
    if (countBytes) bytes += utf8Length(text) + 2 + extra;
    return;
  }
  let c16 = 2;
  let c8 = 2;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      // \b \t \n \f \r are two characters; any other control character is \u00XX
      const short = c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
      c16 += short ? 2 : 6;
      c8 += short ? 2 : 6;
    } else if (c === 0x22 || c === 0x5c) {
      c16 += 2;
      c8 += 2;
    } else if (c < 0x80) {
      c16 += 1;
      c8 += 1;
    } else if (c < 0x800) {
      c16 += 1;
      c8 += 2;
    } else if ((c & 0xf800) !== 0xd800) {
      c16 += 1;
      c8 += 3;
    } else if (c < 0xdc00 && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c16 += 2; // a surrogate pair: 4 bytes
      c8 += 4;
      i++;
    } else {
      c16 += 6; // a lone surrogate: \uXXXX
      c8 += 6;
    }
  }
  chars += c16;
  bytes += c8;
}

/** `String(value).length` for a finite number; integers are counted without writing them. */
function numberLength(value: number): number {
  if (Number.isSafeInteger(value)) {
    let n = value < 0 ? 2 : 1; // -0 is written "0"
    for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) n++;
    return n;
  }
  return String(value).length;
}
