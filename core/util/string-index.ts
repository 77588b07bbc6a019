/**
 * String keys → first position, for loops that meet 100,000 keys in one call: the composer's
 * duplicate-id check (`firstRepeat`) and eviction's tool-call owners (`StringIndex`). A JavaScript
 * `Set` or `Map` of that size costs more than the rest of such a loop: it grows by rehashing into
 * ever larger tables (garbage a moment later), and each insert lands somewhere in megabytes of
 * table. Both helpers here work on typed arrays with each key's hash stored beside it, so keys
 * are compared only when their hashes agree.
 *
 * The hash is fixed (FNV-1a over the UTF-16 code units, then mixed), so keys could be chosen to
 * collide. A probe longer than `MAX_PROBE` therefore switches to a `Map`: colliding keys cost what
 * a `Map` costs, never quadratic time.
 */

import { IntList } from "./int-list.ts";

/** Keys per list of `StringIndex`'s keys (2^KEY_SHIFT). */
const KEY_SHIFT = 12;
const KEY_MASK = (1 << KEY_SHIFT) - 1;

/** Probes one lookup may take before the index falls back to a `Map`. */
const MAX_PROBE = 64;

/** A 32-bit hash of `key`'s UTF-16 code units (the one `StringIndex` and `firstRepeat` use). */
export function stringHash(key: string): number {
  let h = 0x811c9dc5 ^ key.length;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/**
 * The first value recorded for each key, growing as keys come: open addressing over one typed
 * array, each slot's entry beside its key's hash (one cache line per probe).
 */
export class StringIndex {
  /** Two numbers per slot: entry number + 1 (0 = empty), then the hash of its key. */
  #table: Int32Array;
  /** Slots - 1 (slots are a power of two). */
  #mask: number;
  #size = 0;
  /**
   * The keys in lists of 4,096 (entry e in `#keys[e >> KEY_SHIFT]`): one list grown by
   * push past ~16,000 keys copies itself as large objects V8 maps afresh on every call.
   */
  readonly #keys: string[][] = [];
  /** Values in a typed array (see `IntList`): whole numbers from 0 to 2^31 − 1. */
  readonly #values: IntList;
  /** Where the entries live once a probe ran too long. */
  #map: Map<string, number> | undefined;

  /** `expected`: about how many keys will be added (the table then never grows). */
  constructor(expected = 0) {
    let slots = 16;
    while (slots < expected * 2) slots *= 2;
    this.#table = new Int32Array(slots * 2);
    this.#mask = slots - 1;
    this.#values = new IntList(expected);
  }

  /** The value recorded for `key`, or -1. */
  get(key: string): number {
    if (this.#map !== undefined) return this.#map.get(key) ?? -1;
    const at = this.#find(key, stringHash(key));
    if (at < 0) return -1;
    const entry = this.#table[at]!;
    return entry === 0 ? -1 : this.#values.get(entry - 1);
  }

  /**
   * Records `value` (a whole number from 0 to 2^31 − 1) for `key` unless the key is there
   * already. Returns -1 when it was recorded, otherwise the value recorded first (which stays).
   */
  add(key: string, value: number): number {
    if (this.#map === undefined) {
      const hash = stringHash(key);
      const at = this.#find(key, hash);
      if (at >= 0) {
        const entry = this.#table[at]!;
        if (entry !== 0) return this.#values.get(entry - 1);
        const e = this.#size++;
        if ((e & KEY_MASK) === 0) this.#keys.push([]);
        this.#keys[e >> KEY_SHIFT]!.push(key);
        this.#values.push(value);
        this.#table[at] = e + 1;
        this.#table[at + 1] = hash;
        if (this.#size * 2 > this.#mask + 1) this.#grow();
        return -1;
      }
    }
    const map = this.#map!;
    const first = map.get(key);
    if (first !== undefined) return first;
    map.set(key, value);
    return -1;
  }

  /**
   * Where in the table the slot holding `key` is, or the empty slot where it would go; -1 after
   * moving to the `Map` (the probe ran too long). Triangular probing visits every slot of a
   * power-of-two table.
   */
  #find(key: string, hash: number): number {
    const table = this.#table;
    const mask = this.#mask;
    let slot = hash & mask;
    for (let step = 1; step <= MAX_PROBE; step++) {
      const at = slot * 2;
      const entry = table[at]!;
      if (entry === 0 || (table[at + 1] === hash && this.#key(entry - 1) === key)) return at;
      slot = (slot + step) & mask;
    }
    this.#toMap();
    return -1;
  }

  #grow(): void {
    const old = this.#table;
    const table = new Int32Array(old.length * 2);
    const mask = (this.#mask = table.length / 2 - 1);
    for (let at = 0; at < old.length; at += 2) {
      const entry = old[at]!;
      if (entry === 0) continue;
      const hash = old[at + 1]!;
      let slot = hash & mask;
      for (let step = 1; table[slot * 2] !== 0; step++) slot = (slot + step) & mask;
      table[slot * 2] = entry;
      table[slot * 2 + 1] = hash;
    }
    this.#table = table;
  }

  #key(e: number): string {
    return this.#keys[e >> KEY_SHIFT]![e & KEY_MASK]!;
  }

  #toMap(): void {
    const map = new Map<string, number>();
    for (let e = 0; e < this.#size; e++) map.set(this.#key(e), this.#values.get(e));
    this.#map = map;
    this.#keys.length = 0;
    this.#table = new Int32Array(0);
  }
}

/** Keys per bucket `firstRepeat` aims at: a bucket's table then stays in the fastest cache. */
const BUCKET_KEYS = 256;

/**
 * The first position `at` whose key equals an earlier key, and the first position `first` holding
 * that key; `undefined` when all keys differ. `hashes[i]` is `stringHash` of key `i`; keys are
 * compared (through `keyAt`) only when their hashes agree. For a whole list known up front, this
 * beats any one big table at 100,000 keys: the positions are first split by hash into buckets of
 * about `BUCKET_KEYS` (sequential writes), then each bucket is checked with a small table, so no
 * step jumps around megabytes of memory.
 */
export function firstRepeat(
  hashes: Int32Array,
  keyAt: (i: number) => string,
): { readonly at: number; readonly first: number } | undefined {
  const n = hashes.length;
  let buckets = 1;
  while (buckets * BUCKET_KEYS < n) buckets *= 2;
  const shift = 32 - Math.log2(buckets);
  // Counting sort of the positions by bucket (the hash's top bits); ascending within a bucket.
  const starts = new Int32Array(buckets + 1);
  for (let i = 0; i < n; i++) starts[buckets === 1 ? 1 : (hashes[i]! >>> shift) + 1]!++;
  let largest = 0;
  for (let b = 0; b < buckets; b++) {
    largest = Math.max(largest, starts[b + 1]!);
    starts[b + 1]! += starts[b]!;
  }
  const order = new Int32Array(n);
  const fill = starts.slice(0, buckets);
  for (let i = 0; i < n; i++) order[fill[buckets === 1 ? 0 : hashes[i]! >>> shift]!++] = i;

  // Keys chosen to share a hash would make one bucket huge: check those with a Map instead.
  if (largest > BUCKET_KEYS * 16) return firstRepeatByMap(n, keyAt);

  // One small table, cleared per bucket: slot = position + 1 (0 = empty).
  let slots = 16;
  while (slots < largest * 2) slots *= 2;
  const table = new Int32Array(slots);
  const mask = slots - 1;
  let at = -1;
  let first = -1;
  for (let b = 0; b < buckets; b++) {
    const end = starts[b + 1]!;
    for (let o = starts[b]!; o < end; o++) {
      const i = order[o]!;
      const hash = hashes[i]!;
      let slot = hash & mask;
      for (let step = 1; ; step++) {
        if (step > MAX_PROBE) return firstRepeatByMap(n, keyAt);
        const j = table[slot]! - 1;
        if (j < 0) {
          table[slot] = i + 1;
          break;
        }
        // Positions come in ascending order, so `j` is the first holder of an equal key.
        if (hashes[j] === hash && keyAt(j) === keyAt(i)) {
          if (at === -1 || i < at) {
            at = i;
            first = j;
          }
          break;
        }
        slot = (slot + step) & mask;
      }
    }
    table.fill(0);
  }
  return at === -1 ? undefined : { at, first };
}

/** `firstRepeat` with a `Map`, in position order: for keys whose hashes collide too often. */
function firstRepeatByMap(n: number, keyAt: (i: number) => string): { at: number; first: number } | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = keyAt(i);
    const first = seen.get(key);
    if (first !== undefined) return { at: i, first };
    seen.set(key, i);
  }
  return undefined;
}
