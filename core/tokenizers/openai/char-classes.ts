/**
 * The character classes of OpenAI's split patterns, per code point, as bit flags: what a
 * hand-written pre-tokenizer asks instead of running the `u`-flag regex. Each class is defined by
 * the very regex escape the pattern uses, so the engine's Unicode tables decide, never ours.
 * ASCII is filled in up front; any other code point is classified once, when first seen.
 */

/** `\p{L}` */
export const LETTER = 1;
/** `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: o200k_base's leading letters (a mark is one, though not `\p{L}`) */
export const UPPER = 2;
/** `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: o200k_base's trailing letters */
export const LOWER = 4;
/** `\p{N}` */
export const NUMBER = 8;
/** `\s` (every code point of it is in the BMP) */
export const SPACE = 16;
/** `[\r\n]` */
export const NEWLINE = 32;
/** `[^\s\p{L}\p{N}]`: punctuation, symbols, marks, controls, lone surrogates */
export const PUNCT = 64;
/** `[^\r\n\p{L}\p{N}]` is a code point with none of these. */
export const NOT_PREFIX = LETTER | NUMBER | NEWLINE;

const KNOWN = 128;
const TESTS: readonly [RegExp, number][] = [
  [/^\p{L}$/u, LETTER],
  [/^[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]$/u, UPPER],
  [/^[\p{Ll}\p{Lm}\p{Lo}\p{M}]$/u, LOWER],
  [/^\p{N}$/u, NUMBER],
  [/^\s$/u, SPACE],
  [/^[\r\n]$/u, NEWLINE],
  [/^[^\s\p{L}\p{N}]$/u, PUNCT],
];

function classify(codePoint: number): number {
  const c = String.fromCodePoint(codePoint);
  let flags = KNOWN;
  for (const [re, flag] of TESTS) if (re.test(c)) flags |= flag;
  return flags;
}

/** Flags of each BMP code point (lone surrogates included), 0 until classified. */
const bmp = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) bmp[c] = classify(c);
/** Flags of the ASCII characters (all filled in). */
export const ASCII: Uint8Array = bmp.subarray(0, 0x80);
/** Flags of the astral code points seen so far (at most 1,048,576 of them, each a small number). */
const astral = new Map<number, number>();

const isLowSurrogate = (d: number): boolean => d >= 0xdc00 && d <= 0xdfff;

/** The flags of the code point at `i` (a surrogate pair is one code point, a lone surrogate is one too). */
export function flagsAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
    const cp = text.codePointAt(i) as number;
    let f = astral.get(cp);
    if (f === undefined) {
      f = classify(cp);
      astral.set(cp, f);
    }
    return f;
  }
  let f = bmp[c] as number;
  if (f === 0) {
    f = classify(c);
    bmp[c] = f;
  }
  return f;
}

/** 2 where a surrogate pair starts at `i`, else 1. */
export function widthAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
}

/** Where the run of code points from `i` that all have one of `flags` ends. */
export function runEnd(text: string, i: number, flags: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (((ASCII[c] as number) & flags) === 0) return i;
      i++;
    } else {
      if ((flagsAt(text, i) & flags) === 0) return i;
      i += widthAt(text, i);
    }
  }
  return i;
}

/** End of `\p{N}{1,3}` at `i`, where a number starts: up to three number code points. */
export function numberEnd(text: string, i: number): number {
  let end = i + widthAt(text, i);
  for (let k = 1; k < 3 && end < text.length && (flagsAt(text, end) & NUMBER) !== 0; k++) end += widthAt(text, end);
  return end;
}

/** End of the run of `\s` at `i` (every `\s` is in the BMP: one code unit each). */
export function spaceRunEnd(text: string, i: number): number {
  let end = i;
  while (end < text.length && (flagsAt(text, end) & SPACE) !== 0) end++;
  return end;
}

/** Index of the last `\r` or `\n` in `[from, to)`, or -1. */
export function lastNewlineIn(text: string, from: number, to: number): number {
  for (let k = to - 1; k >= from; k--) if ((flagsAt(text, k) & NEWLINE) !== 0) return k;
  return -1;
}
