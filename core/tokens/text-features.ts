/**
 * Character classes of a text: the features the calibrated estimators multiply by their
 * coefficients. One pass over UTF-16 code units, no allocation, no regular expressions, so
 * 1 MB of text costs a few milliseconds in every runtime and gives the same counts in each.
 *
 * Why these classes: every BPE or SentencePiece tokenizer merges a run of letters of one script
 * into a few tokens (a word costs a constant plus a little per letter), keeps digits in short
 * groups, gives most punctuation a token of its own, folds one space into the next word but
 * spends tokens on runs of blanks and newlines, and spends about one token per CJK character.
 * A linear model over these counts tracks a real tokenizer closely on prose, code and JSON;
 * the coefficients are fitted per provider in calibration/.
 */

/** Names of the text features, in vector order. */
export const TEXT_FEATURES = [
  /** Runs of Latin letters (ASCII and Latin-1/Latin Extended-A/B letters): words. */
  "words",
  /** Latin letters. */
  "letters",
  /** Runs of ASCII digits. */
  "numbers",
  /** ASCII digits. */
  "digits",
  /** ASCII punctuation and symbols other than JSON structure. */
  "punct",
  /** `{ } [ ] " : ,`: the characters JSON structure is made of. */
  "structure",
  /** Line feeds. */
  "newlines",
  /** Runs of whitespace other than one plain space (indentation, blank lines, tabs). */
  "blanks",
  /** CJK ideographs, kana, Hangul and CJK punctuation (one per code point). */
  "cjk",
  /** Letters of other scripts (Greek, Cyrillic, Arabic, Hebrew, Indic, Thai, …), per code point. */
  "otherLetters",
  /** Runs of other-script letters. */
  "otherWords",
  /** Any other code point: emoji, arrows, math and other symbols. */
  "symbols",
] as const;
export type TextFeature = (typeof TEXT_FEATURES)[number];

/** Index of each text feature in a feature vector. */
export const TF = Object.fromEntries(TEXT_FEATURES.map((name, i) => [name, i])) as {
  readonly [K in TextFeature]: number;
};

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

/** ASCII code unit → its kind (one table lookup where a character's kind is not yet known). */
const K_LATIN = 1;
const K_DIGIT = 2;
const K_SPACE = 3; // the plain space U+0020
const K_BLANK = 4; // tab, CR, VT, FF: whitespace that makes a run count as blanks
const K_NEWLINE = 5;
const K_STRUCTURE = 6;
const K_PUNCT = 7;
const K_CONTROL = 8;
const KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  KIND[c] =
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
      ? K_LATIN
      : c >= 48 && c <= 57
        ? K_DIGIT
        : c === 32
          ? K_SPACE
          : c === 10
            ? K_NEWLINE
            : c === 9 || c === 13 || c === 11 || c === 12
              ? K_BLANK
              : '{}[]":,'.includes(String.fromCharCode(c))
                ? K_STRUCTURE
                : c > 32 && c < 127
                  ? K_PUNCT
                  : K_CONTROL;
}

/** An ASCII letter: `| 0x20` folds A-Z onto a-z and turns no other code unit (nor NaN) into one. */
const isAsciiLetter = (c: number) => ((c | 0x20) - 0x61) >>> 0 < 26;

/** Latin-1 and Latin Extended-A/B letters (not × and ÷), Latin Extended Additional. */
const isLatinExtended = (c: number) =>
  (c >= 0x00c0 && c <= 0x024f && c !== 0x00d7 && c !== 0x00f7) || (c >= 0x1e00 && c <= 0x1eff);

/** A letter of a word: ASCII or Latin beyond ASCII. */
const isLatin = (c: number) => isAsciiLetter(c) || (c >= 0x00c0 && isLatinExtended(c));

/**
 * Letters of scripts other than Latin and CJK that tokenizers treat as word characters: Greek,
 * Cyrillic, Armenian, Hebrew, Arabic, Syriac … Arabic Extended, Indic scripts, Thai, Lao, Tibetan …
 * Greek Extended (U+0370–U+1FFF), and the combining marks (U+0300–U+036F) that join the word they
 * mark; Latin Extended Additional (U+1E00–U+1EFF), inside that range, is Latin.
 */
const isOtherLetter = (c: number) => c >= 0x0300 && c <= 0x1fff && (c < 0x1e00 || c > 0x1eff);

/** Whitespace beyond ASCII (U+1680, the Ogham space mark, is an other-script letter: see above). */
const isUnicodeSpace = (c: number) =>
  c === 0x00a0 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f;

/** Whitespace: ASCII (space, tab, LF, VT, FF, CR) or beyond. */
const isSpace = (c: number) => (c < 128 ? c === 32 || (c >= 9 && c <= 13) : isUnicodeSpace(c));

const isCjk = (c: number) =>
  (c >= 0x2e80 && c <= 0x2fdf) || // CJK radicals
  (c >= 0x3000 && c <= 0x30ff) || // CJK punctuation, hiragana, katakana
  (c >= 0x3100 && c <= 0x31ff) || // bopomofo, Hangul compatibility jamo, katakana extensions
  (c >= 0x3400 && c <= 0x4dbf) || // Extension A
  (c >= 0x4e00 && c <= 0x9fff) || // unified ideographs
  (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
  (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
  (c >= 0xff00 && c <= 0xffef); // half- and full-width forms

/** A feature vector: one number per `TEXT_FEATURES` entry. */
export type TextFeatureVector = Float64Array;

export const emptyTextFeatures = (): TextFeatureVector => new Float64Array(TEXT_FEATURES.length);

/**
 * Adds the character classes of `text` to `into` (from index `offset`, `TEXT_FEATURES.length`
 * slots) and returns it. Linear in `text.length`; a lone surrogate counts as a symbol. The counts
 * are kept in locals and added once at the end (every count is a whole number, so the sums are
 * exact whatever the order).
 *
 * A word, a number, a word of another script and a run of whitespace are each a maximal run of
 * one class, so the scan takes each run whole in a loop of its own and counts it once, with no
 * state carried from one character to the next: the kind of the first character picks the loop.
 */
export function addTextFeatures(
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
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (isLatin(c)) {
      // A word (most of any text), and the words after it that one plain space each precedes.
      const start = i;
      words++;
      for (;;) {
        c = ++i < n ? text.charCodeAt(i) : -1; // -1 past the end: no class
        if (isAsciiLetter(c)) continue;
        if (c === 32) {
          if (i + 1 < n && isAsciiLetter(text.charCodeAt(i + 1))) {
            // one plain space before a word: not a blank
            words++;
            i++;
            letters--;
            continue;
          }
          break;
        }
        if (c < 0x00c0 || !isLatinExtended(c)) break;
      }
      letters += i - start;
      continue;
    }
    if (c < 128) {
      switch (KIND[c]) {
        case K_DIGIT: {
          const start = i;
          numbers++;
          do c = ++i < n ? text.charCodeAt(i) : -1;
          while (c >= 48 && c <= 57);
          digits += i - start;
          continue;
        }
        case K_SPACE:
        case K_NEWLINE:
        case K_BLANK:
          break; // the run of whitespace, below
        case K_STRUCTURE:
          structure++;
          i++;
          continue;
        case K_PUNCT:
          punct++;
          i++;
          continue;
        default:
          symbols++; // control characters
          i++;
          continue;
      }
    } else if (isOtherLetter(c)) {
      const start = i;
      otherWords++;
      do c = ++i < n ? text.charCodeAt(i) : -1;
      while (isOtherLetter(c));
      otherLetters += i - start;
      continue;
    } else if (!isUnicodeSpace(c)) {
      const d = c >= 0xd800 && c <= 0xdbff && i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        // Supplementary ideographs (U+20000–U+3FFFF) are CJK; the rest (emoji, …) symbols.
        if (c >= 0xd840 && c <= 0xd8bf) cjk++;
        else symbols++;
      } else if (isCjk(c)) cjk++;
      else symbols++; // a symbol, or a lone surrogate
      i++;
      continue;
    }
    // A run of whitespace: a blank unless it is one plain space.
    const start = i;
    const first = c;
    do {
      if (c === 10) newlines++;
      c = ++i < n ? text.charCodeAt(i) : -1;
    } while (isSpace(c));
    if (first !== 32 || i - start > 1) blanks++;
  }
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

/** The character classes of one text, as a plain record (for reports and tests). */
export function textFeatures(text: string): Readonly<Record<TextFeature, number>> {
  const v = addTextFeatures(text);
  return Object.fromEntries(TEXT_FEATURES.map((name, i) => [name, v[i]!])) as Record<TextFeature, number>;
}
