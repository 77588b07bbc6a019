/**
 * JSON text → value, with errors that say where and what, identically in every
 * runtime. Engines word `JSON.parse` errors differently (and not all give a
 * position), so on failure we locate the first error with our own scanner.
 * A nesting-depth cap keeps hostile input (10,000-deep arrays) from overflowing
 * the stack of whatever walks the value next.
 */

/** Any JSON value: what `JSON.parse` can return. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export const DEFAULT_MAX_JSON_DEPTH = 1_000;

export interface JsonSyntaxIssue {
  readonly code: "json_syntax" | "json_too_deep" | "json_empty";
  readonly message: string;
  /** 0-based UTF-16 offset into the text. */
  readonly offset: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units. */
  readonly column: number;
}

export type JsonParseResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issue: JsonSyntaxIssue };

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

function issueAt(text: string, code: JsonSyntaxIssue["code"], offset: number, what: string): JsonSyntaxIssue {
  const { line, column } = lineAndColumn(text, offset);
  return { code, offset, line, column, message: `${what} at line ${line}, column ${column}` };
}

function describeChar(text: string, i: number): string {
  if (i >= text.length) return "unexpected end of input";
  const ch = text[i]!;
  const hex = ch.charCodeAt(0).toString(16).padStart(4, "0");
  if (ch.charCodeAt(0) < 0x20) return `unexpected control character U+${hex}`;
  if (ch === "\uFEFF") return "unexpected byte-order mark U+FEFF (only allowed at the very start)";
  if (/[\u00ad\u200b-\u200f\u2028\u2029\u2060]/.test(ch))
    return `unexpected invisible character U+${hex.toUpperCase()}`;
  return `unexpected "${ch}"`;
}

/** Returns the first syntax error in `text`, or undefined when it is valid JSON. Linear, iterative. */
export function findJsonSyntaxError(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): JsonSyntaxIssue | undefined {
  let i = 0;
  const n = text.length;
  const stack: number[] = []; // 0 = array, 1 = object
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (what: string, at = i) => issueAt(text, "json_syntax", at, what);

  const string = (): JsonSyntaxIssue | undefined => {
    const start = i;
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return undefined;
      }
      if (c < 32) return fail(`${describeChar(text, i)} inside a string (escape it)`);
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            return fail("invalid \\u escape (needs 4 hex digits)");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail(`invalid escape "\\${e ?? ""}"`);
      } else i++;
    }
    return fail("unterminated string", start);
  };

  const number = (): JsonSyntaxIssue | undefined => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0].length === 0 || m[0] === "-") return fail("invalid number");
    i += m[0].length;
    return undefined;
  };

  // Iterative value parser: `expect` says what may come next.
  ws();
  if (i >= n) return issueAt(text, "json_empty", 0, "empty input (paste a JSON request)");
  let expectValue = true;
  for (;;) {
    ws();
    if (expectValue) {
      const c = text[i];
      if (c === "{" || c === "[") {
        if (stack.length >= maxDepth)
          return issueAt(text, "json_too_deep", i, `nesting deeper than ${maxDepth} levels`);
        stack.push(c === "[" ? 0 : 1);
        i++;
        ws();
        if (text[i] === (c === "[" ? "]" : "}")) {
          stack.pop();
          i++;
          expectValue = false;
          if (stack.length === 0) break;
          continue;
        }
        if (c === "{") {
          if (text[i] !== '"') return fail(`${describeChar(text, i)}, expected a property name in double quotes`);
          const e = string();
          if (e) return e;
          ws();
          if (text[i] !== ":") return fail(`${describeChar(text, i)}, expected ":" after the property name`);
          i++;
        }
        continue;
      }
      if (c === '"') {
        const e = string();
        if (e) return e;
      } else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
        const e = number();
        if (e) return e;
      } else if (text.startsWith("true", i)) i += 4;
      else if (text.startsWith("false", i)) i += 5;
      else if (text.startsWith("null", i)) i += 4;
      else return fail(`${describeChar(text, i)}, expected a value`);
      expectValue = false;
      if (stack.length === 0) break;
      continue;
    }
    // After a value inside a container.
    const top = stack[stack.length - 1]!;
    const c = text[i];
    if (c === ",") {
      i++;
      ws();
      if (top === 1) {
        if (text[i] !== '"')
          return fail(
            `${describeChar(text, i)}, expected a property name in double quotes (trailing commas are not JSON)`,
          );
        const e = string();
        if (e) return e;
        ws();
        if (text[i] !== ":") return fail(`${describeChar(text, i)}, expected ":" after the property name`);
        i++;
      } else if (text[i] === "]") return fail('unexpected "]" (trailing commas are not JSON)');
      expectValue = true;
      continue;
    }
    if ((top === 0 && c === "]") || (top === 1 && c === "}")) {
      stack.pop();
      i++;
      if (stack.length === 0) break;
      continue;
    }
    return fail(`${describeChar(text, i)}, expected "," or "${top === 0 ? "]" : "}"}"`);
  }
  ws();
  if (i < n) return fail(`${describeChar(text, i)} after the end of the JSON value`);
  return undefined;
}

/** Maximum bracket nesting of `text`, ignoring brackets inside strings. Stops counting at `limit + 1`. */
function nestingExceeds(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/** Parses JSON text. A leading byte-order mark is ignored. Never throws. */
export function parseJson(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): JsonParseResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const deep = nestingExceeds(body, maxDepth);
  if (deep >= 0)
    return { ok: false, issue: issueAt(body, "json_too_deep", deep, `nesting deeper than ${maxDepth} levels`) };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    const issue = findJsonSyntaxError(body, maxDepth) ?? issueAt(body, "json_syntax", 0, "invalid JSON");
    return { ok: false, issue };
  }
}
