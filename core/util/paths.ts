/** JSON paths as people write them: `messages[3].content[0].type`, `tools[0]["input-schema"]`. */

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Appends one segment to an already formatted path. */
export function joinPath(base: string, seg: PathSegment): string {
  if (typeof seg === "number") return `${base}[${seg}]`;
  if (IDENTIFIER.test(seg)) return base === "" ? seg : `${base}.${seg}`;
  return `${base}[${JSON.stringify(seg)}]`;
}

/** Reads `path` inside `value` without throwing (undefined when it does not exist). */
export function valueAt(value: unknown, path: readonly PathSegment[]): unknown {
  let cur: unknown = value;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<PathSegment, unknown>)[seg];
  }
  return cur;
}

// The pieces `messagePath` and `contentPath` join, one list each for every path: a new list per
// path was half of what writing the paths of a request's parts and segments allocated.
const MESSAGE: [string, number, string] = ["messages[", 0, "]"];
const CONTENT: [string, number, string, number, string] = ["messages[", 0, "].content[", 0, "]"];

/**
 * `messages[i]` as one flat string. A template literal this long is a chain of string pieces
 * (V8 joins strings of 13 or more characters lazily), and a long request keeps one per segment:
 * the garbage collector copies every piece while the request lives. `join` writes it flat.
 */
export function messagePath(i: number): string {
  MESSAGE[1] = i;
  return MESSAGE.join("");
}

/** `messages[i].content[j]` as one flat string (see `messagePath`). */
export function contentPath(i: number, j: number): string {
  CONTENT[1] = i;
  CONTENT[3] = j;
  return CONTENT.join("");
}
