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

/** A short description of a value's JSON type, for "expected X, got Y" messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length <= 40 ? `the string ${JSON.stringify(value)}` : "a string";
    case "number":
      return Number.isFinite(value) ? `the number ${value}` : `the non-JSON number ${String(value)}`;
    case "boolean":
      return `${value}`;
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
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
