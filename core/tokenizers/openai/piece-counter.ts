/**
 * Counting text piece by piece, as gpt-tokenizer does, with each piece's count remembered: text
 * repeats its words, so most pieces are looked up, not byte-pair encoded. The lookup hashes the
 * piece where it lies in the text and compares it there, so a piece seen before costs no string.
 */

/** Where the piece starting at `i` ends: a pre-tokenizer (split-o200k.ts, split-cl100k.ts). */
export type PieceEnd = (text: string, i: number) => number;

/**
 * How the pre-tokenizer splits a piece of ASCII letters, so that the counter can find the most
 * common pieces (a word, with the space or punctuation before it) while hashing them, in one
 * read of their characters, instead of asking `pieceEnd` and then hashing:
 *
 * - `"cased"` (o200k_base): an optional prefix (any ASCII character but a letter, a digit, CR or
 *   LF), then `[A-Z]*[a-z]*`; the piece ends at an ASCII character other than `'`, or at the end.
 * - `"any"` (cl100k_base): an optional prefix (the same, and not `'`), then `[A-Za-z]+`; the
 *   piece ends at any ASCII character, or at the end.
 *
 * Anything else (a non-ASCII character next, a possible contraction) is left to `pieceEnd`.
 */
export type AsciiWords = "cased" | "any";

/** Pieces kept per generation; two generations are kept, so at most twice this many. */
const GENERATION = 32_768;
/** Longer pieces (long runs of spaces or punctuation, rare) are counted each time, not kept. */
const MAX_KEPT_LENGTH = 128;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** An ASCII letter: `| 0x20` folds A-Z onto a-z and turns no other code unit into one. */
const isAsciiLetter = (c: number): boolean => ((c | 0x20) - 0x61) >>> 0 < 26;

/**
 * ASCII characters that may come before the letters of a word in its piece: not a letter, a digit,
 * CR or LF (`[^\r\n\p{L}\p{N}]` within ASCII). 1 for o200k_base; cl100k_base also excludes `'`,
 * where it first tries a contraction.
 */
const PREFIX = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  PREFIX[c] = isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x0a || c === 0x0d ? 0 : 1;
const PREFIX_NO_QUOTE = PREFIX.slice();
PREFIX_NO_QUOTE[0x27] = 0;

/**
 * The code units of the piece being looked up, written while it is scanned and hashed: the table
 * compares them with a key's code units, two typed arrays, never the strings. A piece longer than
 * `MAX_KEPT_LENGTH` is never looked up, so the index wraps instead of growing the buffer.
 */
const units = new Uint16Array(MAX_KEPT_LENGTH);
const UNIT_MASK = MAX_KEPT_LENGTH - 1;

/**
 * An open-addressing table of up to `limit` pieces, at most half full. A slot holds a piece's
 * hash, count and length (0: empty) and where its code units start in `arena`.
 */
class PieceTable {
  readonly hashes: Int32Array;
  readonly counts: Int32Array;
  readonly lengths: Int32Array;
  readonly starts: Int32Array;
  readonly mask: number;
  arena: Uint16Array;
  used = 0;
  size = 0;

  constructor(readonly limit: number) {
    let slots = 4;
    while (slots < limit * 2) slots *= 2;
    this.hashes = new Int32Array(slots);
    this.counts = new Int32Array(slots);
    this.lengths = new Int32Array(slots);
    this.starts = new Int32Array(slots);
    this.mask = slots - 1;
    this.arena = new Uint16Array(Math.max(limit * 8, MAX_KEPT_LENGTH));
  }

  /** The slot holding the `length` code units in `units` (hash `hash`), or the empty slot where they would go. */
  slot(length: number, hash: number): number {
    const { lengths, hashes, starts, arena, mask } = this;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const l = lengths[s] as number;
      if (l === 0) return s;
      if (l === length && hashes[s] === hash) {
        const base = starts[s] as number;
        let k = 0;
        while (k < length && arena[base + k] === units[k]) k++;
        if (k === length) return s;
      }
    }
  }

  /** Keeps the piece in `units` in the empty slot `s`. */
  put(s: number, length: number, hash: number, count: number): void {
    if (this.used + length > this.arena.length) {
      const grown = new Uint16Array(this.arena.length * 2);
      grown.set(this.arena);
      this.arena = grown;
    }
    const base = this.used;
    this.arena.set(units.subarray(0, length), base);
    this.used += length;
    this.starts[s] = base;
    this.lengths[s] = length;
    this.hashes[s] = hash;
    this.counts[s] = count;
    this.size++;
  }
}

/**
 * The count of a text: the sum over its pieces of `countPiece(piece)`. `countPiece` must give the
 * count of a piece alone, which equals its count inside the text when the pre-tokenizer splits
 * the piece alone into itself (see index.ts). Memory stays bounded: when the young generation is
 * full it becomes the old one and the previous old one is dropped; a piece found only in the old
 * generation moves back to the young one. With `asciiWords`, the pre-tokenizer's rule for pieces
 * of ASCII letters, those pieces are found without calling `pieceEnd` (the pieces are the same).
 */
export function pieceCounter(
  pieceEnd: PieceEnd,
  countPiece: (piece: string) => number,
  generation = GENERATION,
  asciiWords?: AsciiWords,
): (text: string) => number {
  let young = new PieceTable(generation);
  let old = new PieceTable(0);
  /** The count of `text[start, end)`, in `units`, whose hash is `hash`: from the tables, or counted and kept. */
  const lookUp = (text: string, start: number, end: number, hash: number): number => {
    const length = end - start;
    let s = young.slot(length, hash);
    if (young.lengths[s] !== 0) return young.counts[s] as number;
    const o = old.slot(length, hash);
    const c = old.lengths[o] !== 0 ? (old.counts[o] as number) : countPiece(text.slice(start, end));
    if (young.size >= young.limit) {
      old = young;
      young = new PieceTable(generation);
      s = young.slot(length, hash);
    }
    young.put(s, length, hash, c);
    return c;
  };
  const count = (text: string, start: number, end: number): number => {
    if (end - start > MAX_KEPT_LENGTH) return countPiece(text.slice(start, end));
    // FNV-1a over the UTF-16 code units
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      units[i - start] = c;
      hash = Math.imul(hash ^ c, FNV_PRIME);
    }
    return lookUp(text, start, end, hash);
  };
  if (asciiWords === undefined) {
    return (text) => {
      let total = 0;
      for (let i = 0, n = text.length; i < n; ) {
        const end = pieceEnd(text, i);
        total += count(text, i, end);
        i = end;
      }
      return total;
    };
  }
  const cased = asciiWords === "cased";
  const prefix = cased ? PREFIX : PREFIX_NO_QUOTE;
  return (text) => {
    let total = 0;
    const n = text.length;
    let i = 0;
    while (i < n) {
      // A word's piece, hashed as it is scanned: [prefix] letters, then a character that ends it.
      let c = text.charCodeAt(i);
      let hash = FNV_OFFSET;
      let j = i;
      if (c < 0x80 && prefix[c] === 1 && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (isAsciiLetter(d)) {
          units[0] = c;
          hash = Math.imul(hash ^ c, FNV_PRIME);
          c = d;
          j = i + 1;
        }
      }
      if (isAsciiLetter(c)) {
        if (cased) {
          // [A-Z]*[a-z]*
          while (c >= 0x41 && c <= 0x5a) {
            units[(j - i) & UNIT_MASK] = c;
            hash = Math.imul(hash ^ c, FNV_PRIME);
            c = ++j < n ? text.charCodeAt(j) : -1;
          }
          while (c >= 0x61 && c <= 0x7a) {
            units[(j - i) & UNIT_MASK] = c;
            hash = Math.imul(hash ^ c, FNV_PRIME);
            c = ++j < n ? text.charCodeAt(j) : -1;
          }
        } else {
          do {
            units[(j - i) & UNIT_MASK] = c;
            hash = Math.imul(hash ^ c, FNV_PRIME);
            c = ++j < n ? text.charCodeAt(j) : -1;
          } while (isAsciiLetter(c));
        }
        // The end of the text or an ASCII character ends the piece (but `'` may start o200k_base's
        // contraction); another character might be a letter or a mark: `pieceEnd` decides.
        if (c < 0x80 && (c !== 0x27 || !cased) && j - i <= MAX_KEPT_LENGTH) {
          total += lookUp(text, i, j, hash);
          i = j;
          continue;
        }
      }
      const end = pieceEnd(text, i);
      total += count(text, i, end);
      i = end;
    }
    return total;
  };
}
