/** fast-check generators of text that stresses OpenAI's split patterns, for property tests. */
import fc from "fast-check";

/** Single ASCII characters, weighted toward what the patterns branch on. */
const asciiChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(..."abcdelmrstvxyzABDELMRSTVZ") },
  { weight: 3, arbitrary: fc.constantFrom(" ", " ", " ", "\t", "\n", "\r", "\v", "\f") },
  { weight: 2, arbitrary: fc.constantFrom("'", "'", "/", ".", ",", "!", "-", '"', "<", "|", ">", "{", "}", "_") },
  { weight: 2, arbitrary: fc.constantFrom(..."0123456789") },
  { weight: 1, arbitrary: fc.constantFrom("\0", "\x01", "\x1b", "\x7f") },
);

/** Multi-character chunks that the patterns treat specially: contractions, number and space runs. */
const asciiChunk = fc.constantFrom(
  "don't",
  "HELLO'S",
  "'ll",
  "'VE",
  "'Re",
  "'d",
  "'m",
  "'t",
  "12345",
  "  ",
  "   ",
  "\r\n",
  "\n\n",
  " \n ",
  "<|endoftext|>",
  "//",
  "\n/",
);

/** Non-ASCII code points from every class the patterns name, and some that only look alike. */
const otherChar = fc.constantFrom(
  "é",
  "É",
  "ß",
  "ſ", // U+017F, Ll, not the `s` of a contraction
  "\u212a", // Kelvin sign, Lu
  "ǅ", // Lt
  "ʰ", // Lm
  "中",
  "あ",
  "\u0301", // combining acute, Mn
  "\u0903", // Mc
  "\u20dd", // Me
  "😀",
  "👍🏽",
  "\u{1d400}", // 𝐀, astral Lu
  "\u{1d41a}", // 𝐚, astral Ll
  "\u{20000}", // 𠀀, astral Lo
  "\u{1d7ce}", // 𝟎, astral Nd
  "٣", // Nd
  "Ⅷ", // Nl
  "½", // No
  "\u00a0",
  "\u1680",
  "\u2028",
  "\u2029",
  "\u3000",
  "\ufeff",
  "\u0085", // NEL: a control, not `\s` in JavaScript
  "\u200b", // zero-width space: a format character, not `\s`
  "’",
  "\ud800", // lone surrogates
  "\udc00",
);

/** ASCII-only text (the fast path of the pre-tokenizers). */
export const asciiText = fc.string({
  unit: fc.oneof({ weight: 8, arbitrary: asciiChar }, { weight: 1, arbitrary: asciiChunk }),
  maxLength: 48,
});

/** Text mixing ASCII with non-ASCII code points of every class. */
export const mixedText = fc.string({
  unit: fc.oneof(
    { weight: 6, arbitrary: asciiChar },
    { weight: 1, arbitrary: asciiChunk },
    { weight: 3, arbitrary: otherChar },
  ),
  maxLength: 48,
});

/** Fixed cases: empty text, special-token strings, runs of spaces before each kind of character. */
export const EDGE_CASES: readonly string[] = [
  "",
  "<|endoftext|>",
  "<|im_start|>user<|im_sep|>",
  "don't",
  "HELLO'S",
  "They'LL've",
  "12345",
  "1234567",
  ".\n\n",
  "a  b",
  "a   b",
  "trailing  ",
  "trailing \t",
  "   ",
  " ",
  "\n",
  "  \n  x",
  "\r\n\r\n  foo",
  " \n\t\n x",
  "  .",
  " !!\n\n/x",
  "x\n/\n//y",
  "\tword",
  "\nword",
  "CamelCaseWORDSAnd lower",
  "ABC'sDEF",
  "é'S",
  "\u0301\u0301A.",
  "ʰA.",
  " \u0301A",
  "\u00a0\u00a0x",
  "a\u2028b",
  "😀😀 x",
  "中文 English 日本語",
  "٣٣٣٣",
  "\ud800\ud800a",
];
