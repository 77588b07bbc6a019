/**
 * Where things are in a template's source. @huggingface/jinja's tokens carry no positions and
 * its lexer first rewrites the source (trailing newline, `lstrip_blocks`, `trim_blocks`,
 * `{% generation %}` tags). This file replays that rewrite with an offset map and walks the
 * library's own tokens over the result, so every token gets a 1-based line/column in the
 * ORIGINAL template. When the walk disagrees with the tokens, positions are simply unknown.
 */
import type { tokenize } from "@huggingface/jinja";

export type JinjaToken = ReturnType<typeof tokenize>[number];

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface WhitespaceOptions {
  readonly trimBlocks: boolean;
  readonly lstripBlocks: boolean;
}

/** The lexer's input after its rewrite, and for each of its offsets the offset in the original. */
export interface PreprocessedSource {
  readonly text: string;
  readonly offsets: readonly number[];
}

/** Deletes, per regex match, everything except the kept prefix/suffix lengths of the match. */
function deleteInMatches(
  source: PreprocessedSource,
  pattern: RegExp,
  keep: (match: RegExpExecArray) => readonly [prefix: number, suffix: number],
): PreprocessedSource {
  const { text, offsets } = source;
  let out = "";
  const map: number[] = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    if (end === start) {
      pattern.lastIndex++;
      continue;
    }
    const [prefix, suffix] = keep(match);
    out += text.slice(last, start + prefix);
    for (let i = last; i < start + prefix; i++) map.push(offsets[i]!);
    out += text.slice(end - suffix, end);
    for (let i = end - suffix; i < end; i++) map.push(offsets[i]!);
    last = end;
  }
  out += text.slice(last);
  for (let i = last; i <= text.length; i++) map.push(offsets[i]!);
  return { text: out, offsets: map };
}

/** The same rewrite as the library's `preprocess` (lexer.ts), keeping an offset map. */
export function preprocessWithOffsets(template: string, options: WhitespaceOptions): PreprocessedSource {
  const offsets: number[] = [];
  for (let i = 0; i <= template.length; i++) offsets.push(i);
  let source: PreprocessedSource = { text: template, offsets };
  if (template.endsWith("\n"))
    source = { text: template.slice(0, -1), offsets: [...offsets.slice(0, -2), template.length] };
  if (options.lstripBlocks) source = deleteInMatches(source, /^[ \t]*({[#%-])/gm, (m) => [0, m[1]!.length]);
  if (options.trimBlocks) source = deleteInMatches(source, /([#%-]})\n/g, (m) => [m[1]!.length, 0]);
  return deleteInMatches(source, /(\s*){%(-?)\s*(?:end)?generation\s*(-?)%}(\s*)/gs, (m) => [
    m[2] ? 0 : m[1]!.length,
    m[3] ? 0 : m[4]!.length,
  ]);
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
    while (c < text.length && WHITESPACE.test(text[c]!)) c++;
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
