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

/** A feature vector: one number per `TEXT_FEATURES` entry. */
export type TextFeatureVector = Float64Array;

export const emptyTextFeatures = (): TextFeatureVector => new Float64Array(TEXT_FEATURES.length);

/**
 * Adds the character classes of `text` to `into` (from index `offset`, `TEXT_FEATURES.length`
 * slots) and returns it. Linear in `text.length`; a lone surrogate counts as a symbol.
 */
export function addTextFeatures(
  text: string,
  into: TextFeatureVector = emptyTextFeatures(),
  offset = 0,
): TextFeatureVector {
  let prev = C_NONE;
  let spaceRun = 0;
  let spaceRunPlain = true;
  const n = text.length;
  const closeSpaceRun = () => {
    if (spaceRun > 0 && !(spaceRun === 1 && spaceRunPlain)) into[offset + BLANKS]! += 1;
    spaceRun = 0;
    spaceRunPlain = true;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let cls: number;
    if (c < 128) {
      cls = ASCII[c]!;
      if (cls === C_NONE) {
        if (IS_STRUCTURE[c] === 1) into[offset + STRUCTURE]! += 1;
        else if (c > 32 && c < 127) into[offset + PUNCT]! += 1;
        else into[offset + SYMBOLS]! += 1; // control characters
      }
    } else if (isLatinExtended(c)) cls = C_LATIN;
    else if (isOtherLetter(c)) cls = C_OTHER_LETTER;
    else if (isUnicodeSpace(c)) cls = C_SPACE;
    else {
      cls = C_NONE;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          // Supplementary ideographs (U+20000–U+3FFFF) are CJK; the rest (emoji, …) symbols.
          if (c >= 0xd840 && c <= 0xd8bf) into[offset + CJK]! += 1;
          else into[offset + SYMBOLS]! += 1;
          if (prev === C_SPACE) closeSpaceRun();
          prev = cls;
          continue;
        }
      }
      if (isCjk(c)) into[offset + CJK]! += 1;
      else into[offset + SYMBOLS]! += 1;
    }
    if (cls === C_SPACE) {
      spaceRun++;
      if (c !== 32) spaceRunPlain = false;
      if (c === 10) into[offset + NEWLINES]! += 1;
    } else if (prev === C_SPACE) closeSpaceRun();
    if (cls === C_LATIN) {
      into[offset + LETTERS]! += 1;
      if (prev !== C_LATIN) into[offset + WORDS]! += 1;
    } else if (cls === C_DIGIT) {
      into[offset + DIGITS]! += 1;
      if (prev !== C_DIGIT) into[offset + NUMBERS]! += 1;
    } else if (cls === C_OTHER_LETTER) {
      into[offset + OTHER_LETTERS]! += 1;
      if (prev !== C_OTHER_LETTER) into[offset + OTHER_WORDS]! += 1;
    }
    prev = cls;
  }
  if (prev === C_SPACE) closeSpaceRun();
  return into;
}

/** The character classes of one text, as a plain record (for reports and tests). */
export function textFeatures(text: string): Readonly<Record<TextFeature, number>> {
  const v = addTextFeatures(text);
  return Object.fromEntries(TEXT_FEATURES.map((name, i) => [name, v[i]!])) as Record<TextFeature, number>;
}
