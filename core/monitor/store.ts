/**
 * The default store: partitions in memory, least recently used first out, at most `maxKeys` of
 * them (default 10,000; a partition holds up to `MAX_THREADS` threads' last turns, about 130 bytes a
 * segment). Lost when the runtime instance ends (a server, a Worker isolate); share one between the
 * monitored fetches of that instance.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { MonitorStore, PartitionRecord } from "./types.ts";

export interface MemoryStore extends MonitorStore {
  get(key: string): PartitionRecord | undefined;
  set(key: string, record: PartitionRecord): void;
  /** Partitions held now. */
  readonly size: number;
}

export function createMemoryStore(options: { readonly maxKeys?: number } = {}): MemoryStore {
  const max = options.maxKeys ?? 10_000;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new InvalidInputError("maxKeys", `must be a whole number ≥ 1, got ${String(options.maxKeys)}.`);
  const map = new Map<string, PartitionRecord>();
  return {
    get(key) {
      const v = map.get(key);
      if (v !== undefined) {
        map.delete(key);
        map.set(key, v);
      }
      return v;
    },
    set(key, record) {
      map.delete(key);
      map.set(key, record);
      while (map.size > max) map.delete(map.keys().next().value as string);
    },
    get size() {
      return map.size;
    },
  };
}
