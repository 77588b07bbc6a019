/**
 * Runs the library's lexer in linear time. `tokenize` first applies its own `preprocess`, whose
 * generation-tag regex backtracks over every run of whitespace (quadratic: 65,536 spaces take
 * seconds, 262,000 minutes). So the lexer is given the text Strata already rewrote
 * (`preprocessWithOffsets`, linear) with no options, and with no long whitespace run in it:
 *
 * - a scan that follows the lexer's own modes finds every run: in text, a string literal or a
 *   comment a long run keeps its ends and its middle becomes one marker character (absent from
 *   the template), put back into the token afterwards; between the tokens of a tag, where the
 *   lexer skips whitespace, a run shrinks to one character; whitespace that `-` strips is removed
 *   before the lexer sees it (it would have dropped it anyway);
 * - the tokens are then the ones `tokenize(template, options)` returns, which the tests check
 *   against the library on generated templates.
 */
import { tokenize } from "./vendor/huggingface-jinja.js";
import { TemplateError } from "../errors.ts";
import { TEMPLATE_ERROR_CODES } from "./limits.ts";
import type { JinjaToken } from "./source.ts";
import { hasGenerationTag, isSpace } from "./source.ts";

/** Runs longer than this are shortened; the regex then costs at most about length × LONG_RUN. */
const LONG_RUN = 16;
/** Characters kept at each end of a shortened run (the lexer reads up to 4 after `\u`). */
const KEEP = 6;

/** The lexer's input for `text` (already rewritten), and the run middles its marker stands for. */
interface LexerInput {
  readonly text: string;
  readonly marker: string;
  readonly middles: readonly string[];
}

/** Linear: each attempt stops at the first character that is not whitespace, or after LONG_RUN + 1. */
const LONG_RUN_PATTERN = new RegExp(`\\s{${LONG_RUN + 1}}`);

/** A private-use character the template does not contain, not even as a `\u` escape. */
function pickMarker(text: string): string | undefined {
  for (let code = 0xe000; code < 0xe100; code++) {
    const marker = String.fromCharCode(code);
    if (!text.includes(marker) && !text.toLowerCase().includes(`\\u${code.toString(16)}`)) return marker;
  }
  return undefined;
}

function lexerInput(text: string, marker: string): LexerInput {
  const out: string[] = [];
  const middles: string[] = [];
  const n = text.length;
  const spaceEnd = (from: number) => {
    let i = from;
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    return i;
  };
  /** Copies [from, to) with every long run's middle replaced by the marker. */
  const copy = (from: number, to: number) => {
    let last = from;
    for (let i = from; i < to; ) {
      if (!isSpace(text.charCodeAt(i))) {
        i++;
        continue;
      }
      let end = i;
      while (end < to && isSpace(text.charCodeAt(end))) end++;
      if (end - i > LONG_RUN) {
        out.push(text.slice(last, i + KEEP), marker);
        middles.push(text.slice(i + KEEP, end - KEEP));
        last = end - KEEP;
      }
      i = end;
    }
    out.push(text.slice(last, to));
  };
  const opensTag = (i: number) =>
    text[i] === "{" && (text[i + 1] === "%" || text[i + 1] === "{" || text[i + 1] === "#");
  let i = 0;
  let textMode = true;
  let stripNext = false; // the previous tag ended with `-`: the lexer skips the whitespace that follows
  let depth = 0; // curly brackets open in an expression (`}}` does not close it while > 0)
  while (i < n) {
    if (textMode) {
      if (stripNext) i = spaceEnd(i);
      stripNext = false;
      let end = i;
      while (end < n && !opensTag(end)) end++;
      let textEnd = end;
      // `{%-`, `{{-`, `{#-` strip the whitespace before them.
      if (end < n && text[end + 2] === "-") {
        while (textEnd > i && isSpace(text.charCodeAt(textEnd - 1))) textEnd--;
        // `{ {%-` must not become `{{%-` (an expression opener): one space stays, the lexer strips it.
        if (textEnd > i && textEnd < end && text[textEnd - 1] === "{") textEnd++;
      }
      copy(i, textEnd);
      i = end;
      if (i >= n) break;
      textMode = false;
    }
    if (text.startsWith("{#", i)) {
      let c = i + 2 + (text[i + 2] === "-" ? 1 : 0);
      const close = text.indexOf("#}", c);
      const end = close < 0 ? n : close;
      copy(i, end);
      stripNext = close >= 0 && end > c && text[end - 1] === "-";
      c = close < 0 ? n : close + 2;
      if (close >= 0) out.push("#}");
      i = c;
      textMode = true;
      continue;
    }
    if (text.startsWith("{%-", i) || text.startsWith("{{-", i)) {
      if (text[i + 1] === "{") depth = 0;
      out.push(text.slice(i, i + 3));
      i += 3;
      continue;
    }
    if (isSpace(text.charCodeAt(i))) {
      const end = spaceEnd(i);
      out.push(text[i]!);
      i = end;
      continue;
    }
    if (text.startsWith("-%}", i) || text.startsWith("-}}", i)) {
      out.push(text.slice(i, i + 3));
      i += 3;
      stripNext = true;
      textMode = true;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === "%}" || (two === "}}" && !(depth > 0))) {
      out.push(two);
      i += 2;
      textMode = true;
      continue;
    }
    if (two === "{%" || two === "{{") {
      if (two === "{{") depth = 0;
      out.push(two);
      i += 2;
      continue;
    }
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      let c = i + 1;
      while (c < n && text[c] !== ch) c += text[c] === "\\" ? 2 : 1;
      const end = Math.min(c, n);
      copy(i, end);
      i = end;
      if (i < n) {
        out.push(ch);
        i++;
      }
      continue;
    }
    if (ch === "{") depth++;
    else if (ch === "}") depth--;
    out.push(ch);
    i++;
  }
  return { text: out.join(""), marker, middles };
}

/**
 * The library removes one trailing newline, which `text` keeps (its own was removed already): a
 * text ending in one gets another for the library to take. Any other text is passed as it is, so
 * the lexer reads it whole rather than through a slice (measurably slower per character).
 */
const guardTrailingNewline = (text: string): string => (text.endsWith("\n") ? `${text}\n` : text);

const MARKED: ReadonlySet<string> = new Set(["Text", "StringLiteral", "Comment"]);

function lexerMismatch(): TemplateError {
  return new TemplateError(
    TEMPLATE_ERROR_CODES.syntax,
    "Template syntax error: the template's long whitespace runs could not be lexed safely; shorten them.",
  );
}

/**
 * `tokenize(template, options)` of the library, given `text` = the template after
 * `preprocessWithOffsets` (with the same options), in time linear in its length.
 */
export function tokenizeRewritten(text: string): JinjaToken[] {
  // A generation tag formed by removing another would be removed again by the library's pass.
  if (hasGenerationTag(text)) {
    throw new TemplateError(
      TEMPLATE_ERROR_CODES.syntax,
      "Template syntax error: removing a {% generation %} tag forms another one; write the template without nested generation tags.",
    );
  }
  if (!LONG_RUN_PATTERN.test(text)) return tokenize(guardTrailingNewline(text));
  const marker = pickMarker(text);
  if (marker === undefined) throw lexerMismatch();
  const input = lexerInput(text, marker);
  const tokens = tokenize(guardTrailingNewline(input.text));
  let next = 0;
  for (const token of tokens) {
    if (!token.value.includes(marker)) continue;
    if (!MARKED.has(token.type)) throw lexerMismatch();
    const pieces = token.value.split(marker);
    let value = pieces[0]!;
    for (let k = 1; k < pieces.length; k++) {
      const middle = input.middles[next++];
      if (middle === undefined) throw lexerMismatch();
      value += middle + pieces[k]!;
    }
    token.value = value;
  }
  if (next !== input.middles.length) throw lexerMismatch();
  return tokens;
}
