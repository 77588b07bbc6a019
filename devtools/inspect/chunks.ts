/**
 * A report sent from the worker in pieces, so that no single message takes the page long to read.
 * Structured clone reads a message in one task on the main thread: a 20 MB request's report (its
 * request, segments, parts, traced messages) would block the page for a second. So the worker
 * sends the report's skeleton with each long array left out (a placeholder naming it), then each
 * such array in slices of `CHUNK_ITEMS`, and the page puts them back (`Reassembly`). Arrays inside
 * a slice travel with it; objects are copied by structured clone, never serialized as text.
 */

/** Entries per slice: a few milliseconds to read on the main thread (2000 messages of a 20 MB chat took 40–60 ms). */
export const CHUNK_ITEMS = 500;

/** Where a long array sits in the value: the keys and indexes down to it (empty: the value itself). */
export type ChunkPath = readonly (string | number)[];

export type ChunkMessage =
  | {
      readonly kind: "skeleton";
      /** The value with each long array replaced by its length. */
      readonly skeleton: unknown;
      /** Path and length of each long array, in the order their slices follow. */
      readonly arrays: readonly { readonly path: ChunkPath; readonly length: number }[];
    }
  | { readonly kind: "slice"; readonly array: number; readonly items: readonly unknown[] };

const put = (target: object, key: string | number, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * The messages that carry `value`: its skeleton first, then the slices. Long arrays are found by a
 * walk that does not enter them; only the objects on the way to one are copied (with their own
 * keys, `__proto__` included), everything else is sent as it is.
 */
export function toChunks(value: unknown, chunkItems = CHUNK_ITEMS): ChunkMessage[] {
  const arrays: unknown[][] = [];
  const found: { path: ChunkPath; length: number }[] = [];
  const path: (string | number)[] = [];
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) {
      if (v.length > chunkItems) {
        arrays.push(v);
        found.push({ path: [...path], length: v.length });
        return v.length;
      }
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const x = walk(v[i]);
        path.pop();
        if (x !== v[i]) (copy ??= v.slice())[i] = x;
      }
      return copy ?? v;
    }
    let copy: object | undefined;
    for (const [k, x] of Object.entries(v)) {
      path.push(k);
      const y = walk(x);
      path.pop();
      if (y !== x) put((copy ??= { ...v }), k, y);
    }
    return copy ?? v;
  };
  const skeleton = walk(value);
  const messages: ChunkMessage[] = [{ kind: "skeleton", skeleton, arrays: found }];
  arrays.forEach((a, array) => {
    for (let start = 0; start < a.length; start += chunkItems)
      messages.push({ kind: "slice", array, items: a.slice(start, start + chunkItems) });
  });
  return messages;
}

/**
 * Puts a value sent by `toChunks` back together, message by message: the skeleton (fresh from
 * structured clone, so it is changed in place) gets each array back at its path.
 */
export class Reassembly {
  #skeleton: unknown;
  #paths: ChunkPath[] = [];
  #arrays: unknown[][] = [];
  #missing = -1;

  /** Takes one message; returns the whole value once its last slice is in, else undefined. */
  add(message: ChunkMessage): { readonly value: unknown } | undefined {
    if (message.kind === "skeleton") {
      this.#skeleton = message.skeleton;
      this.#paths = message.arrays.map((a) => a.path);
      this.#arrays = message.arrays.map(() => []);
      this.#missing = message.arrays.reduce((n, a) => n + a.length, 0);
    } else {
      const target = this.#arrays[message.array]!;
      for (const item of message.items) target.push(item);
      this.#missing -= message.items.length;
    }
    if (this.#missing !== 0) return undefined;
    let value = this.#skeleton;
    this.#paths.forEach((p, i) => {
      if (p.length === 0) {
        value = this.#arrays[i];
        return;
      }
      let parent = value as Record<string | number, unknown>;
      for (let j = 0; j < p.length - 1; j++) parent = parent[p[j]!] as Record<string | number, unknown>;
      put(parent, p[p.length - 1]!, this.#arrays[i]);
    });
    return { value };
  }
}
