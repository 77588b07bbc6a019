/**
 * A tokenizer that remembers what it counted, for one analysis that counts the same texts in
 * several requests (inspect's turn, the previous turn, the simulated next turns). BPE counting
 * costs far more than a lookup, even of a text never looked up before (hashing is one fast pass),
 * so every text after its first count is almost free. The counts are the tokenizer's own.
 */
import type { Tokenizer } from "./types.ts";

/**
 * Longest text remembered: engines hash a longer string by its length alone (V8 above 16,383
 * characters), so many long texts of one length would be compared with each other on every
 * lookup. Longer texts are counted each time.
 */
const MEMO_MAX_CHARS = 16_383;

/**
 * Tokenizers that need no memo: those made here (wrapping one again would only add a second
 * lookup), and those that keep their own counts (`keepsItsCounts`).
 */
const memoized = new WeakSet<object>();

/**
 * Marks `tokenizer` as keeping its own counts, so `memoizedTokenizer` hands it back as is. Core's
 * OpenAI tokenizers keep each piece's count (piece-counter.ts): a text counted again costs a scan
 * of its pieces, no byte-pair encoding. A memo in front of them stored every text of a 5 MB paste
 * for 2 hits in 11,144 lookups, and an inspection took 10–25 ms longer with it (Node, 2026-12-04).
 */
export function keepsItsCounts(tokenizer: Tokenizer): void {
  memoized.add(tokenizer);
}

/**
 * `tokenizer` with a memo of its counts, for a batch of counts over the same texts (one memo lives
 * as long as the returned tokenizer: drop it with the batch). Anything that is not a tokenizer is
 * returned as is (for the counter's own error), and so is a tokenizer this function made or one
 * that keeps its own counts (`keepsItsCounts`).
 */
export function memoizedTokenizer<T>(tokenizer: T): T {
  const t = tokenizer as Partial<Tokenizer> | null | undefined;
  if (t === null || typeof t !== "object" || t.kind !== "strata-tokenizer" || typeof t.count !== "function")
    return tokenizer;
  if (memoized.has(t)) return tokenizer;
  const count = t.count.bind(t);
  const memo = new Map<string, number>();
  const made: Tokenizer = {
    kind: "strata-tokenizer",
    provider: t.provider as Tokenizer["provider"],
    encoding: t.encoding as string,
    count: (text: string) => {
      if (text.length > MEMO_MAX_CHARS) return count(text);
      let n = memo.get(text);
      if (n === undefined) {
        n = count(text);
        memo.set(text, n);
      }
      return n;
    },
  };
  memoized.add(made);
  return made as T;
}
