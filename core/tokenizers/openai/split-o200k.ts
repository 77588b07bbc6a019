/**
 * o200k_base's pre-tokenizer by hand: where each match of its split pattern ends, found by
 * scanning code points instead of running the regex (gpt-tokenizer 4.0.0, encodingParams/
 * constants.ts, the pattern of tiktoken's o200k_base):
 *
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?
 *   | [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|'t|'re|'ve|'m|'ll|'d)?
 *   | \p{N}{1,3}
 *   | ?[^\s\p{L}\p{N}]+[\r\n/]*
 *   | \s*[\r\n]+
 *   | \s+(?!\S)
 *   | \s+
 *
 * (contractions case-insensitive). The regex takes the first alternative that matches, and within
 * one the first way it matches as it backtracks (greedy parts longest first, an optional part
 * taken before skipped); each step below follows that order, and a test compares the pieces with
 * the regex's own on random text.
 */
import {
  ASCII,
  LETTER,
  LOWER,
  NEWLINE,
  NOT_PREFIX,
  NUMBER,
  PUNCT,
  SPACE,
  UPPER,
  flagsAt,
  lastNewlineIn,
  numberEnd,
  runEnd,
  spaceRunEnd,
  widthAt,
} from "./char-classes.ts";

/** Past `'s 't 're 've 'm 'll 'd` (either case) at `i`, else `i`. */
export function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  // `| 0x20` lowercases an ASCII letter and turns nothing else into one
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return i + 2; // s t m d
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || ((a === 0x72 || a === 0x76) && b === 0x65)) return i + 3; // ll re ve
  return i;
}

/**
 * `U*W+`'s end from `s`, -1 if it fails. The greedy `U*` takes every leading letter; if no
 * trailing letter follows, it gives back up to the last letter that is both (Lm, Lo, M), which
 * `W+` then takes alone.
 */
function leadingThenTrailing(text: string, s: number): number {
  const n = text.length;
  let i = s;
  let both = -1;
  while (i < n) {
    const f = flagsAt(text, i);
    if ((f & UPPER) === 0) break;
    if ((f & LOWER) !== 0) both = i;
    i += widthAt(text, i);
  }
  if (i < n && (flagsAt(text, i) & LOWER) !== 0) return runEnd(text, i, LOWER);
  return both < 0 ? -1 : both + widthAt(text, both);
}

/** `U+W*`'s end from `s`, -1 if it fails. */
function leadingAtLeastOne(text: string, s: number): number {
  const i = runEnd(text, s, UPPER);
  return i === s ? -1 : runEnd(text, i, LOWER);
}

/**
 * The same for a piece that starts and ends among ASCII characters (A-Z are all of `\p{Lu}` there,
 * a-z of `\p{Ll}`, 0-9 of `\p{N}`, no marks, `\s` is \t \n \v \f \r and space), -1 as soon
 * as it meets a non-ASCII character that could change the match (then the general scan decides).
 */
function asciiPieceEnd(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  const f = ASCII[c] as number;
  let s = i;
  if ((f & NOT_PREFIX) === 0 && i + 1 < n) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0x80) return -1;
    if (((ASCII[d] as number) & LETTER) !== 0) s = i + 1;
  }
  let d = 0;
  let end = s;
  if (s > i || (f & LETTER) !== 0) {
    // Upper case then lower case (U*W+), else upper case alone (U+W*): ends at the same place.
    while (end < n && (d = text.charCodeAt(end)) >= 0x41 && d <= 0x5a) end++;
    while (end < n && (d = text.charCodeAt(end)) >= 0x61 && d <= 0x7a) end++;
    return end < n && d >= 0x80 ? -1 : contractionEnd(text, end);
  }
  if ((f & NUMBER) !== 0) {
    end = i + 1;
    while (end < n && end < i + 3 && (d = text.charCodeAt(end)) >= 0x30 && d <= 0x39) end++;
    return end < n && end < i + 3 && d >= 0x80 ? -1 : end;
  }
  s = c === 0x20 ? i + 1 : i;
  end = s;
  while (end < n && (d = text.charCodeAt(end)) < 0x80 && ((ASCII[d] as number) & PUNCT) !== 0) end++;
  if (end < n && d >= 0x80) return -1;
  if (end > s) {
    for (d = text.charCodeAt(end); d === 0x0d || d === 0x0a || d === 0x2f; d = text.charCodeAt(++end));
    return end;
  }
  let lastNewline = -1;
  for (end = i; end < n; end++) {
    d = text.charCodeAt(end);
    if (d >= 0x80) return -1;
    const g = ASCII[d] as number;
    if ((g & SPACE) === 0) break;
    if ((g & NEWLINE) !== 0) lastNewline = end;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  return end === n || end - i < 2 ? end : end - 1;
}

/** End of the o200k_base piece that starts at `i` (`i < text.length`). */
export function o200kPieceEnd(text: string, i: number): number {
  if (text.charCodeAt(i) < 0x80) {
    const end = asciiPieceEnd(text, i);
    if (end >= 0) return end;
  }
  const f = flagsAt(text, i);
  // [^\r\n\p{L}\p{N}]? : tried with the one code point first, then without
  const after = (f & NOT_PREFIX) === 0 ? i + widthAt(text, i) : -1;
  let end = -1;
  if (after >= 0) end = leadingThenTrailing(text, after);
  if (end < 0) end = leadingThenTrailing(text, i);
  if (end < 0 && after >= 0) end = leadingAtLeastOne(text, after);
  if (end < 0) end = leadingAtLeastOne(text, i);
  if (end >= 0) return contractionEnd(text, end);
  if ((f & NUMBER) !== 0) {
    return numberEnd(text, i); // \p{N}{1,3}
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`: without the space the run would start on a space, which fails
  const s = text.charCodeAt(i) === 0x20 ? i + 1 : i;
  end = runEnd(text, s, PUNCT);
  if (end > s) {
    for (let c = text.charCodeAt(end); c === 0x0d || c === 0x0a || c === 0x2f; c = text.charCodeAt(++end));
    return end;
  }
  // Every code point is a letter, a mark, a number, punctuation or a space: only `\s` is left.
  const n = text.length;
  end = spaceRunEnd(text, i);
  // \s*[\r\n]+ : the greedy \s* gives back up to the last newline of the run
  const newline = lastNewlineIn(text, i, end);
  if (newline >= 0) return newline + 1;
  // \s+(?!\S) : the whole run at the end of the text, else all but its last space; \s+ : one space
  // (never an empty piece, so a scan always moves on)
  return end === n || end - i < 2 ? Math.max(end, i + 1) : end - 1;
}
