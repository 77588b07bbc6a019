/**
 * Test support: the scanner of text-features.ts as it was before its run-by-run rewrite, kept
 * verbatim (only renamed) as the reference the property test compares the current one with.
 * Used by text-features.test.ts only; never imported by the library.
 */
import { emptyTextFeatures, type TextFeatureVector } from "./text-features.ts";

const WORDS = 0;
const LETTERS = 1;
const NUMBERS = 2;
const DIGITS = 3;
const PUNCT = 4;
const STRUCTURE = 5;
const NEWLINES = 6;
const BLANKS = 7;
const CJK = 8;
const OTHER_LETTERS = 9;
const OTHER_WORDS = 10;
const SYMBOLS = 11;

// Classes of a code unit while scanning.
const C_LATIN = 1;
const C_DIGIT = 2;
const C_SPACE = 3;
const C_OTHER_LETTER = 4;
const C_NONE = 0;

/** ASCII class table: 0 none/punct handled separately. */
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) ASCII[c] = C_LATIN;
  else if (c >= 48 && c <= 57) ASCII[c] = C_DIGIT;
  else if (c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12) ASCII[c] = C_SPACE;
}
const IS_STRUCTURE = new Uint8Array(128);
for (const ch of '{}[]":,') IS_STRUCTURE[ch.charCodeAt(0)] = 1;

const isCjk = (c: number) =>
  (c >= 0x2e80 && c <= 0x2fdf) || // CJK radicals
  (c >= 0x3000 && c <= 0x30ff) || // CJK punctuation, hiragana, katakana
  (c >= 0x3100 && c <= 0x31ff) || // bopomofo, Hangul compatibility jamo, katakana extensions
  (c >= 0x3400 && c <= 0x4dbf) || // Extension A
  (c >= 0x4e00 && c <= 0x9fff) || // unified ideographs
  (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
  (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
  (c >= 0xff00 && c <= 0xffef); // half- and full-width forms

/** Letters of scripts other than Latin and CJK that tokenizers treat as word characters. */
const isOtherLetter = (c: number) =>
  (c >= 0x0370 && c <= 0x03ff) || // Greek
  (c >= 0x0400 && c <= 0x052f) || // Cyrillic
  (c >= 0x0530 && c <= 0x058f) || // Armenian
  (c >= 0x0590 && c <= 0x06ff) || // Hebrew, Arabic
  (c >= 0x0700 && c <= 0x08ff) || // Syriac … Arabic Extended
  (c >= 0x0900 && c <= 0x0dff) || // Indic scripts
  (c >= 0x0e00 && c <= 0x0eff) || // Thai, Lao
  (c >= 0x0f00 && c <= 0x1fff) || // Tibetan … Greek Extended
  (c >= 0x0300 && c <= 0x036f); // combining marks join the word they mark

const isLatinExtended = (c: number) =>
  (c >= 0x00c0 && c <= 0x024f && c !== 0x00d7 && c !== 0x00f7) || (c >= 0x1e00 && c <= 0x1eff);

const isUnicodeSpace = (c: number) =>
  c === 0x00a0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f;

/** ASCII code unit → what it adds (one table lookup per character on the common path). */
const A_LATIN = 0;
const A_DIGIT = 1;
const A_SPACE = 2; // the plain space U+0020
const A_BLANK = 3; // tab, CR, VT, FF: whitespace that makes a run count as blanks
const A_NEWLINE = 4;
const A_STRUCTURE = 5;
const A_PUNCT = 6;
const A_CONTROL = 7;
const ASCII_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const cls = ASCII[c]!;
  ASCII_KIND[c] =
    cls === C_LATIN
      ? A_LATIN
      : cls === C_DIGIT
        ? A_DIGIT
        : c === 32
          ? A_SPACE
          : c === 10
            ? A_NEWLINE
            : cls === C_SPACE
              ? A_BLANK
              : IS_STRUCTURE[c] === 1
                ? A_STRUCTURE
                : c > 32 && c < 127
                  ? A_PUNCT
                  : A_CONTROL;
}

/**
 * Adds the character classes of `text` to `into` (from index `offset`, `TEXT_FEATURES.length`
 * slots) and returns it. Linear in `text.length`; a lone surrogate counts as a symbol. The counts
 * are kept in locals and added once at the end (every count is a whole number, so the sums are
 * exact whatever the order).
 */
export function referenceAddTextFeatures(
  text: string,
  into: TextFeatureVector = emptyTextFeatures(),
  offset = 0,
): TextFeatureVector {
  let words = 0;
  let letters = 0;
  let numbers = 0;
  let digits = 0;
  let punct = 0;
  let structure = 0;
  let newlines = 0;
  let blanks = 0;
  let cjk = 0;
  let otherLetters = 0;
  let otherWords = 0;
  let symbols = 0;
  let prev = C_NONE;
  // The current run of whitespace: its length, and whether it is all plain spaces.
  let spaceRun = 0;
  let spaceRunPlain = true;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let cls: number;
    if (c < 128) {
      switch (ASCII_KIND[c]) {
        case A_LATIN: {
          // A run of ASCII letters (most of any text) in one tight loop.
          let j = i + 1;
          while (j < n) {
            const d = text.charCodeAt(j);
            if (d >= 128 || ASCII_KIND[d] !== A_LATIN) break;
            j++;
          }
          letters += j - i - 1;
          i = j - 1;
          cls = C_LATIN;
          break;
        }
        case A_DIGIT:
          cls = C_DIGIT;
          break;
        case A_SPACE:
          spaceRun++;
          prev = C_SPACE;
          continue;
        case A_NEWLINE:
          newlines++;
          spaceRun++;
          spaceRunPlain = false;
          prev = C_SPACE;
          continue;
        case A_BLANK:
          spaceRun++;
          spaceRunPlain = false;
          prev = C_SPACE;
          continue;
        case A_STRUCTURE:
          structure++;
          cls = C_NONE;
          break;
        case A_PUNCT:
          punct++;
          cls = C_NONE;
          break;
        default:
          symbols++; // control characters
          cls = C_NONE;
      }
    } else if (isLatinExtended(c)) cls = C_LATIN;
    else if (isOtherLetter(c)) cls = C_OTHER_LETTER;
    else if (isUnicodeSpace(c)) {
      spaceRun++;
      spaceRunPlain = false;
      prev = C_SPACE;
      continue;
    } else {
      cls = C_NONE;
      const d = c >= 0xd800 && c <= 0xdbff && i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        // Supplementary ideographs (U+20000–U+3FFFF) are CJK; the rest (emoji, …) symbols.
        if (c >= 0xd840 && c <= 0xd8bf) cjk++;
        else symbols++;
      } else if (isCjk(c)) cjk++;
      else symbols++; // a symbol, or a lone surrogate
    }
    // A character other than whitespace: close the run of whitespace before it.
    if (prev === C_SPACE) {
      if (!(spaceRun === 1 && spaceRunPlain)) blanks++;
      spaceRun = 0;
      spaceRunPlain = true;
    }
    if (cls === C_LATIN) {
      letters++;
      if (prev !== C_LATIN) words++;
    } else if (cls === C_DIGIT) {
      digits++;
      if (prev !== C_DIGIT) numbers++;
    } else if (cls === C_OTHER_LETTER) {
      otherLetters++;
      if (prev !== C_OTHER_LETTER) otherWords++;
    }
    prev = cls;
  }
  if (prev === C_SPACE && !(spaceRun === 1 && spaceRunPlain)) blanks++;
  into[offset + WORDS]! += words;
  into[offset + LETTERS]! += letters;
  into[offset + NUMBERS]! += numbers;
  into[offset + DIGITS]! += digits;
  into[offset + PUNCT]! += punct;
  into[offset + STRUCTURE]! += structure;
  into[offset + NEWLINES]! += newlines;
  into[offset + BLANKS]! += blanks;
  into[offset + CJK]! += cjk;
  into[offset + OTHER_LETTERS]! += otherLetters;
  into[offset + OTHER_WORDS]! += otherWords;
  into[offset + SYMBOLS]! += symbols;
  return into;
}
