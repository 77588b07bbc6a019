/**
 * Where things are in a template's source. @huggingface/jinja's tokens carry no positions and
 * its lexer first rewrites the source (trailing newline, `lstrip_blocks`, `trim_blocks`,
 * `{% generation %}` tags). This file replays that rewrite with an offset map and walks the
 * library's own tokens over the result, so every token gets a 1-based line/column in the
 * ORIGINAL template. When the walk disagrees with the tokens, positions are simply unknown.
 */
import type { tokenize } from "./vendor/huggingface-jinja.js";

export type JinjaToken = ReturnType<typeof tokenize>[number];

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface WhitespaceOptions {
  readonly trimBlocks: boolean;
  readonly lstripBlocks: boolean;
}

/**
 * Where each offset of a rewritten text was in the original: piecewise, as runs of characters
 * kept together (`starts[k]` in the text was `origins[k]` in the original, and so on along the
 * run), with the end of the text at `end`. A rewrite deletes between runs, so there are about as
 * many runs as deletions, not one entry per character.
 */
export interface OffsetMap {
  readonly starts: readonly number[];
  readonly origins: readonly number[];
  readonly end: number;
}

/** The lexer's input after its rewrite, and where its offsets were in the original. */
export interface PreprocessedSource {
  readonly text: string;
  readonly offsets: OffsetMap;
}

/** The original offset of `offset` in `source.text` (its end included); undefined outside it. */
export function originalOffset(source: PreprocessedSource, offset: number): number | undefined {
  if (!(offset >= 0 && offset <= source.text.length)) return undefined;
  const { starts, origins, end } = source.offsets;
  if (offset === source.text.length) return end;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return origins[lo]! + offset - starts[lo]!;
}

/** One deletion of `deleteSpans`: `[start, end)` is removed except its first `keepBefore` and last `keepAfter` characters. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly keepBefore: number;
  readonly keepAfter: number;
}

/** Applies non-overlapping spans (in order), keeping the offset map in step. */
function deleteSpans(source: PreprocessedSource, spans: readonly Span[]): PreprocessedSource {
  if (spans.length === 0) return source;
  const { text } = source;
  const { starts, origins, end } = source.offsets;
  const parts: string[] = [];
  const newStarts: number[] = [];
  const newOrigins: number[] = [];
  let size = 0;
  let last = 0;
  let run = 0; // the run of `source` that holds `from` (kept ranges only move forward)
  const keep = (from: number, to: number) => {
    if (to <= from) return;
    parts.push(text.slice(from, to));
    while (run + 1 < starts.length && starts[run + 1]! <= from) run++;
    for (let k = run; k < starts.length && starts[k]! < to; k++) {
      const at = Math.max(from, starts[k]!);
      const start = size + at - from;
      const origin = origins[k]! + at - starts[k]!;
      const n = newStarts.length;
      // Continues the previous run of the new map: nothing to add.
      if (n === 0 || newOrigins[n - 1]! + start - newStarts[n - 1]! !== origin) {
        newStarts.push(start);
        newOrigins.push(origin);
      }
    }
    size += to - from;
  };
  for (const span of spans) {
    keep(last, span.start + span.keepBefore);
    keep(span.end - span.keepAfter, span.end);
    last = span.end;
  }
  keep(last, text.length);
  if (newStarts.length === 0) {
    newStarts.push(0);
    newOrigins.push(end);
  }
  return { text: parts.join(""), offsets: { starts: newStarts, origins: newOrigins, end } };
}

/** Spans of a global regex whose matches are deleted except the kept prefix/suffix lengths. */
function regexSpans(
  text: string,
  pattern: RegExp,
  keep: (match: RegExpExecArray) => readonly [prefix: number, suffix: number],
): Span[] {
  const spans: Span[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const [keepBefore, keepAfter] = keep(match);
    spans.push({ start: match.index, end: match.index + match[0].length, keepBefore, keepAfter });
  }
  return spans;
}

/** JavaScript's `\s`: what the library's lexer skips and `trim` removes. */
export function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || (code >= 0x80 && WHITESPACE.test(String.fromCharCode(code)));
}

const GENERATION_TAG = /\{%(-?)\s*(?:end)?generation\s*(-?)%\}/y;

/**
 * The matches of the library's `/(\s*){%(-?)\s*(?:end)?generation\s*(-?)%}(\s*)/gs`, found in
 * linear time: that regex backtracks over every whitespace run (65,536 spaces take seconds).
 * A match is a `{% generation %}` / `{% endgeneration %}` tag with all the whitespace around it
 * (before it back to the previous match); `-` on a side drops that side's whitespace too.
 */
function generationSpans(text: string): Span[] {
  const spans: Span[] = [];
  let last = 0;
  for (let at = text.indexOf("{%"); at >= 0; ) {
    GENERATION_TAG.lastIndex = at;
    const tag = GENERATION_TAG.exec(text);
    if (tag === null) {
      at = text.indexOf("{%", at + 1);
      continue;
    }
    let start = at;
    while (start > last && isSpace(text.charCodeAt(start - 1))) start--;
    const tagEnd = at + tag[0].length;
    let end = tagEnd;
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    spans.push({ start, end, keepBefore: tag[1] ? 0 : at - start, keepAfter: tag[2] ? 0 : end - tagEnd });
    last = end;
    at = text.indexOf("{%", end);
  }
  return spans;
}

/** The same rewrite as the library's `preprocess` (lexer.ts), in linear time, keeping an offset map. */
export function preprocessWithOffsets(template: string, options: WhitespaceOptions): PreprocessedSource {
  // The end of a text shortened by its trailing newline still maps to the end of the template.
  const text = template.endsWith("\n") ? template.slice(0, -1) : template;
  let source: PreprocessedSource = { text, offsets: { starts: [0], origins: [0], end: template.length } };
  // Both patterns are linear: `^` only starts at line starts, the other has no repetition.
  if (options.lstripBlocks)
    source = deleteSpans(
      source,
      regexSpans(source.text, /^[ \t]*({[#%-])/gm, (m) => [0, m[1]!.length]),
    );
  if (options.trimBlocks)
    source = deleteSpans(
      source,
      regexSpans(source.text, /([#%-]})\n/g, (m) => [m[1]!.length, 0]),
    );
  return deleteSpans(source, generationSpans(source.text));
}

/** `true` when the rewritten text still holds a generation tag (formed by removing another). */
export function hasGenerationTag(text: string): boolean {
  return generationSpans(text).length > 0;
}

const WHITESPACE = /\s/;

/**
 * Start offset (in `text`) of every token, or `undefined` when the tokens do not line up with
 * the text (a library change this walk does not know): positions are then unknown, never wrong.
 */
export function alignTokens(tokens: readonly JinjaToken[], text: string): number[] | undefined {
  const starts: number[] = [];
  let c = 0;
  const skipSpace = () => {
    while (c < text.length && isSpace(text.charCodeAt(c))) c++;
  };
  for (const token of tokens) {
    if (token.type === "Text") {
      const at = text.indexOf(token.value, c);
      if (at < 0 || text.slice(c, at).trim() !== "") return undefined;
      starts.push(at);
      c = at + token.value.length;
      continue;
    }
    skipSpace();
    const at = c;
    switch (token.type) {
      case "Comment": {
        if (!text.startsWith("{#", c)) return undefined;
        const end = text.indexOf("#}", c + (text[c + 2] === "-" ? 3 : 2));
        if (end < 0) return undefined;
        c = end + 2;
        break;
      }
      case "OpenStatement":
      case "OpenExpression":
        if (!text.startsWith(token.value, c)) return undefined;
        c += text[c + 2] === "-" ? 3 : 2;
        break;
      case "CloseStatement":
      case "CloseExpression":
        if (text[c] === "-" && text.startsWith(token.value, c + 1)) c += 3;
        else if (text.startsWith(token.value, c)) c += 2;
        else return undefined;
        break;
      case "StringLiteral": {
        const quote = text[c];
        if (quote !== "'" && quote !== '"') return undefined;
        c++;
        while (c < text.length && text[c] !== quote) c += text[c] === "\\" ? 2 : 1;
        if (c >= text.length) return undefined;
        c++;
        break;
      }
      default:
        if (!text.startsWith(token.value, c)) return undefined;
        c += token.value.length;
    }
    starts.push(at);
  }
  return starts;
}

/** 1-based line/column lookups in one text (binary search over line starts). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  at(offset: number): SourcePosition {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - this.starts[lo]! + 1 };
  }
}

/**
 * Best-effort offset (in the preprocessed text) of a lexer error, from the library's message:
 * the offending character, the unterminated string or comment, or the last unclosed tag.
 */
export function locateLexerError(text: string, message: string): number | undefined {
  const unexpected = /^Unexpected character: ([\s\S])/.exec(message)?.[1];
  const escape = /^(?:Unexpected escaped character: ([\s\S])|Invalid hexadecimal escape sequence: (\\[\s\S]+))/.exec(
    message,
  );
  let lastOpen: number | undefined;
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const next = text[open + 1];
    if (next === "#") {
      const end = text.indexOf("#}", open + 2);
      if (end < 0) return message.includes("comment") ? open : lastOpen;
      i = end + 2;
      continue;
    }
    if (next !== "{" && next !== "%") {
      i = open + 1;
      continue;
    }
    lastOpen = open;
    // Inside a tag: strings, nested braces, the closing `}}` / `%}`.
    let c = open + 2;
    let depth = 0;
    let closed = false;
    while (c < text.length && !closed) {
      const ch = text[c]!;
      if (ch === "'" || ch === '"') {
        const quoteAt = c;
        c++;
        while (c < text.length && text[c] !== ch) {
          if (text[c] === "\\") {
            const escaped = text[c + 1] ?? "";
            if (escape?.[1] !== undefined && escaped === escape[1]) return c;
            if (escape?.[2] !== undefined && text.startsWith(escape[2], c)) return c;
            c += 2;
          } else c++;
        }
        if (c >= text.length) return quoteAt;
        c++;
        continue;
      }
      if (ch === "%" && text[c + 1] === "}") closed = true;
      else if (ch === "}" && depth === 0 && text[c + 1] === "}") closed = true;
      else if (ch === "{") depth++;
      else if (ch === "}") depth--;
      else if (unexpected !== undefined && ch === unexpected && !(ch === "!" && text[c + 1] === "=")) return c;
      c++;
    }
    if (!closed) return open;
    i = c + 1;
  }
  return lastOpen;
}
