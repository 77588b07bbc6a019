/**
 * Checks that a value is plain JSON data Strata can hash and serialize the same way in
 * every runtime, without recursion (hostile input may nest 10,000 levels deep):
 * nesting depth, string length, lone UTF-16 surrogates (not encodable as UTF-8),
 * non-JSON values (functions, NaN, class instances) and cycles. Each finding names its path.
 */
import { DEFAULT_MAX_JSON_DEPTH } from "../util/json.ts";
import type { RequestFormatIssue } from "./errors.ts";
import { formatPath, type PathSegment } from "../util/paths.ts";
import { isPlainObject } from "../util/plain-object.ts";
import { fastPathsOn } from "./fast-paths.ts";

/** Longest string accepted in a request, in UTF-16 code units (16 Mi ≈ a 12 MB base64 image). */
export const DEFAULT_MAX_STRING_LENGTH = 16 * 1024 * 1024;

export interface ValueLimits {
  /** Deepest nesting of arrays/objects; default `DEFAULT_MAX_JSON_DEPTH` (1,000). */
  readonly maxDepth?: number;
  /** Longest string value or key; default `DEFAULT_MAX_STRING_LENGTH`. */
  readonly maxStringLength?: number;
  /** Stop after this many issues (default 20). */
  readonly maxIssues?: number;
}

interface Frame {
  readonly value: unknown;
  readonly parent: Frame | undefined;
  readonly key: PathSegment | undefined;
  readonly depth: number;
}

function pathOf(frame: Frame): string {
  const segs: PathSegment[] = [];
  for (let f: Frame | undefined = frame; f && f.key !== undefined; f = f.parent) segs.push(f.key);
  segs.reverse();
  // Very deep paths: the first 12 segments and the depth (as jsonPathAt writes them).
  return segs.length <= 24 ? formatPath(segs) : `${formatPath(segs.slice(0, 12))}…(${segs.length} levels deep)`;
}

/** Index of the first lone surrogate in `s`, or -1. */
export function loneSurrogateIndex(s: string): number {
  const wf = (s as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof wf === "function" && wf.call(s)) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** Checks one string; its path (`at`, a frame) is written only when there is an issue to report. */
function checkString(s: string, at: Frame, what: string, maxLen: number, out: RequestFormatIssue[]): void {
  if (s.length > maxLen) {
    out.push({
      code: "string_too_long",
      path: pathOf(at),
      message: `${what} is ${s.length} characters long; the limit is ${maxLen} (raise maxStringLength or shorten it)`,
    });
    return;
  }
  const i = loneSurrogateIndex(s);
  if (i >= 0) {
    out.push({
      code: "lone_surrogate",
      path: pathOf(at),
      message: `${what} has a lone UTF-16 surrogate U+${s.charCodeAt(i).toString(16).toUpperCase()} at character ${i}; it cannot be encoded as UTF-8 (fix the text's encoding)`,
    });
  }
}

/** Deepest `maxDepth` the fast path takes (it may run down a cycle to the depth limit). */
const FAST_MAX_DEPTH = 100_000;
/**
 * From this depth on, the fast path remembers each container it has walked: one met twice (a
 * cycle, or a value shared by two parents) ends it. `JSON.parse` output shares nothing, and few
 * requests nest this deep, so the common case pays almost nothing; a cycle or shared value costs
 * at most this many walks of the levels above it before the full check takes over.
 */
const SHARED_DEPTH = 8;
const BAD = 0;
const LEAF = 1;
const NESTED = 2;

/** A value's kind for the fast path: a leaf `checkJsonValue` accepts, a container, or anything else. */
function kindOf(v: unknown, maxLen: number): number {
  switch (typeof v) {
    case "string":
      return v.length <= maxLen && loneSurrogateIndex(v) < 0 ? LEAF : BAD;
    case "boolean":
      return LEAF;
    case "number":
      return Number.isFinite(v) ? LEAF : BAD;
    case "object":
      return v === null ? LEAF : NESTED;
    default:
      return BAD;
  }
}

/**
 * True only when `checkJsonValue` would find nothing, decided without frames, paths or an ancestor
 * set (a cycle nests without end: it meets a container twice past `SHARED_DEPTH`, or trips the
 * depth limit); false means "look closer", and the full check then says what and where. Valid
 * requests, the common case, take only this walk.
 */
function isCleanJson(value: unknown, maxDepth: number, maxLen: number): boolean {
  if (!(maxDepth <= FAST_MAX_DEPTH)) return false;
  const first = kindOf(value, maxLen);
  if (first !== NESTED) return first === LEAF;
  const stack: object[] = [value as object];
  const depths: number[] = [0];
  let seen: Set<object> | undefined;
  while (stack.length > 0) {
    const v = stack.pop()!;
    const depth = depths.pop()!;
    if (depth >= maxDepth) return false;
    if (depth >= SHARED_DEPTH) {
      if (seen?.has(v)) return false;
      (seen ??= new Set()).add(v);
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        const kind = kindOf(child, maxLen);
        if (kind === BAD) return false;
        if (kind === NESTED) {
          stack.push(child as object);
          depths.push(depth + 1);
        }
      }
    } else {
      if (!isPlainObject(v)) return false;
      // for…in with an own check walks what Object.keys lists, in its order, without a new array
      // and an iterator per object (V8 reads the keys from the shape's cache).
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        const child = (v as Record<string, unknown>)[key];
        if (child === undefined) continue; // an absent optional field
        if (key.length > maxLen || loneSurrogateIndex(key) >= 0) return false;
        const kind = kindOf(child, maxLen);
        if (kind === BAD) return false;
        if (kind === NESTED) {
          stack.push(child as object);
          depths.push(depth + 1);
        }
      }
    }
  }
  return true;
}

/** Returns every problem found (up to `maxIssues`); empty when the value is clean JSON data. */
export function checkJsonValue(value: unknown, limits: ValueLimits = {}): RequestFormatIssue[] {
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const maxLen = limits.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH;
  const maxIssues = limits.maxIssues ?? 20;
  if (fastPathsOn() && isCleanJson(value, maxDepth, maxLen)) return [];
  const out: RequestFormatIssue[] = [];
  // Ancestors on the current path (cycle detection); `exit` frames pop them.
  const onPath = new Set<object>();
  const stack: (Frame | { exit: object })[] = [{ value, parent: undefined, key: undefined, depth: 0 }];
  while (stack.length > 0 && out.length < maxIssues) {
    const top = stack.pop()!;
    if ("exit" in top) {
      onPath.delete(top.exit);
      continue;
    }
    const v = top.value;
    switch (typeof v) {
      case "string":
        checkString(v, top, "this string", maxLen, out);
        continue;
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(v))
          out.push({ code: "not_json", path: pathOf(top), message: `${String(v)} is not a JSON number` });
        continue;
      case "object":
        break;
      default:
        out.push({ code: "not_json", path: pathOf(top), message: `a ${typeof v} is not JSON data` });
        continue;
    }
    if (v === null) continue;
    if (onPath.has(v)) {
      out.push({
        code: "not_json",
        path: pathOf(top),
        message: "circular reference (JSON data cannot contain cycles)",
      });
      continue;
    }
    if (top.depth >= maxDepth) {
      out.push({ code: "json_too_deep", path: pathOf(top), message: `nesting deeper than ${maxDepth} levels` });
      continue;
    }
    const isArray = Array.isArray(v);
    if (!isArray && !isPlainObject(v)) {
      out.push({
        code: "not_json",
        path: pathOf(top),
        message: "expected plain JSON data (an object literal), got a class instance",
      });
      continue;
    }
    onPath.add(v);
    stack.push({ exit: v });
    if (isArray) {
      const arr = v as readonly unknown[];
      for (let i = arr.length - 1; i >= 0; i--)
        stack.push({ value: arr[i], parent: top, key: i, depth: top.depth + 1 });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        const child = (v as Record<string, unknown>)[k];
        if (child === undefined) continue; // an absent optional field
        const frame: Frame = { value: child, parent: top, key: k, depth: top.depth + 1 };
        if (k.length > maxLen || loneSurrogateIndex(k) >= 0) checkString(k, frame, "this key", maxLen, out);
        stack.push(frame);
      }
    }
  }
  return out;
}
