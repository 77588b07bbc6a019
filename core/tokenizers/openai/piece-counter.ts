/**
 * Counting text piece by piece, as gpt-tokenizer does, with each piece's count remembered: text
 * repeats its words, so most pieces are looked up, not byte-pair encoded. The lookup hashes the
 * piece where it lies in the text and compares it there, so a piece seen before costs no string.
 */

/** Where the piece starting at `i` ends: a pre-tokenizer (split-o200k.ts, split-cl100k.ts). */
export type PieceEnd = (text: string, i: number) => number;

/** Pieces kept per generation; two generations are kept, so at most twice this many. */
const GENERATION = 32_768;
/** Longer pieces (long runs of spaces or punctuation, rare) are counted each time, not kept. */
const MAX_KEPT_LENGTH = 128;

/** An open-addressing table of up to `limit` pieces, at most half full. */
class PieceTable {
  readonly keys: (string | undefined)[];
  readonly hashes: Int32Array;
  readonly counts: Int32Array;
  readonly mask: number;
  size = 0;

  constructor(readonly limit: number) {
    let slots = 4;
    while (slots < limit * 2) slots *= 2;
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.hashes = new Int32Array(slots);
    this.counts = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** The slot holding `text[start, end)` (hash `hash`), or the empty slot where it would go. */
  slot(text: string, start: number, end: number, hash: number): number {
    const { keys, hashes, mask } = this;
    const length = end - start;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const key = keys[s];
      if (key === undefined) return s;
      if (hashes[s] === hash && key.length === length && text.startsWith(key, start)) return s;
    }
  }
}

/**
 * The count of a text: the sum over its pieces of `countPiece(piece)`. `countPiece` must give the
 * count of a piece alone, which equals its count inside the text when the pre-tokenizer splits
 * the piece alone into itself (see index.ts). Memory stays bounded: when the young generation is
 * full it becomes the old one and the previous old one is dropped; a piece found only in the old
 * generation moves back to the young one.
 */
export function pieceCounter(
  pieceEnd: PieceEnd,
  countPiece: (piece: string) => number,
  generation = GENERATION,
): (text: string) => number {
  let young = new PieceTable(generation);
  let old = new PieceTable(0);
  const count = (text: string, start: number, end: number): number => {
    if (end - start > MAX_KEPT_LENGTH) return countPiece(text.slice(start, end));
    // FNV-1a over the UTF-16 code units
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    let s = young.slot(text, start, end, hash);
    if (young.keys[s] !== undefined) return young.counts[s] as number;
    const o = old.slot(text, start, end, hash);
    const key = old.keys[o] ?? text.slice(start, end);
    const c = old.keys[o] !== undefined ? (old.counts[o] as number) : countPiece(key);
    if (young.size >= young.limit) {
      old = young;
      young = new PieceTable(generation);
      s = young.slot(text, start, end, hash);
    }
    young.keys[s] = key;
    young.hashes[s] = hash;
    young.counts[s] = c;
    young.size++;
    return c;
  };
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
