/**
 * A report sent from the worker in pieces, so that no single message takes the page long to read.
 * Structured clone reads a message in one task on the main thread: a 20 MB request's report (its
 * request, segments, parts, traced messages) would block the page for a second. So the worker
 * sends the report's skeleton with each long array left out (a placeholder naming it), then each
 * such array in slices of `CHUNK_ITEMS`, and the page puts them back (`Reassembly`). Arrays inside
 * a slice travel with it; objects are copied by structured clone, never serialized as text.
 */

import type { ReportSegment, Segment } from "../../core/cache/types.ts";
import type { InspectionReport } from "../../core/inspect/types.ts";

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
      /**
       * Further places of a long array found at more than one (`array` is its index in `arrays`):
       * sent once, put back at each as the very same array, as structured clone keeps one object
       * in one message (a report's three traced orders are often one list: 3 × 8.6 MB for a 20 MB chat).
       */
      readonly aliases?: readonly { readonly path: ChunkPath; readonly array: number }[];
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
  const aliases: { path: ChunkPath; array: number }[] = [];
  const path: (string | number)[] = [];
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) {
      if (v.length > chunkItems) {
        const seen = arrays.indexOf(v);
        if (seen >= 0) aliases.push({ path: [...path], array: seen });
        else {
          arrays.push(v);
          found.push({ path: [...path], length: v.length });
        }
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
  const messages: ChunkMessage[] = [
    { kind: "skeleton", skeleton, arrays: found, ...(aliases.length > 0 ? { aliases } : {}) },
  ];
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
  #aliases: readonly { readonly path: ChunkPath; readonly array: number }[] = [];
  #missing = -1;

  /** Takes one message; returns the whole value once its last slice is in, else undefined. */
  add(message: ChunkMessage): { readonly value: unknown } | undefined {
    if (message.kind === "skeleton") {
      this.#skeleton = message.skeleton;
      this.#paths = message.arrays.map((a) => a.path);
      this.#arrays = message.arrays.map(() => []);
      this.#aliases = message.aliases ?? [];
      this.#missing = message.arrays.reduce((n, a) => n + a.length, 0);
    } else {
      const target = this.#arrays[message.array]!;
      for (const item of message.items) target.push(item);
      this.#missing -= message.items.length;
    }
    if (this.#missing !== 0) return undefined;
    let value = this.#skeleton;
    const place = (p: ChunkPath, array: unknown[]) => {
      if (p.length === 0) {
        value = array;
        return;
      }
      let parent = value as Record<string | number, unknown>;
      for (let j = 0; j < p.length - 1; j++) parent = parent[p[j]!] as Record<string | number, unknown>;
      put(parent, p[p.length - 1]!, array);
    };
    this.#paths.forEach((p, i) => place(p, this.#arrays[i]!));
    for (const a of this.#aliases) place(a.path, this.#arrays[a.array]!);
    return { value };
  }
}

/**
 * A whole report's fingerprint bundle lists its segments again, without their previews: 28 MB of
 * a 20 MB chat's 98 MB report. The worker leaves that list out when it is exactly the report's
 * segments without previews (checked entry by entry), and the page makes it from them when it is
 * first read (`withDerivedFingerprints`). Returns the report to send and whether it was left out.
 */
export function withoutDerivedFingerprints(report: InspectionReport): {
  readonly report: InspectionReport;
  readonly derived: boolean;
} {
  const bundle = report.fingerprints;
  const segments = report.segments?.segments;
  if (!bundle || !segments || !sameWithoutPreviews(bundle.segments, segments)) return { report, derived: false };
  return { report: { ...report, fingerprints: { ...bundle, segments: [] } }, derived: true };
}

/** How many segments a bundle whose segments are made when read will have (see `fingerprintCount`). */
const derivedCounts = new WeakMap<object, number>();

/**
 * The number of segments in a report's fingerprint bundle, without making them when they are made
 * on first read (`withDerivedFingerprints`): 99,000 of them took the page ~25 ms, for a label.
 */
export const fingerprintCount = (bundle: NonNullable<InspectionReport["fingerprints"]>): number =>
  derivedCounts.get(bundle) ?? bundle.segments.length;

/** `withoutDerivedFingerprints` undone in place: the bundle's segments, made when first read. */
export function withDerivedFingerprints(report: InspectionReport): InspectionReport {
  const bundle = report.fingerprints;
  const segments = report.segments?.segments;
  if (!bundle || !segments) return report;
  derivedCounts.set(bundle, segments.length);
  let made: Segment[] | undefined;
  Object.defineProperty(bundle, "segments", {
    enumerable: true,
    configurable: true,
    get: () => (made ??= segments.map(({ preview: _preview, ...segment }) => segment)),
  });
  return report;
}

/** True when `plain[i]` is `withPreview[i]` without its `preview`, the same keys in the same order, for every i. */
function sameWithoutPreviews(plain: readonly Segment[], withPreview: readonly ReportSegment[]): boolean {
  if (plain.length !== withPreview.length) return false;
  for (let i = 0; i < plain.length; i++) {
    const a = plain[i] as unknown as Record<string, unknown>;
    const b = withPreview[i] as unknown as Record<string, unknown>;
    const keys = Object.keys(a);
    const bKeys = Object.keys(b);
    if (bKeys.length !== keys.length + 1 || bKeys[keys.length] !== "preview") return false;
    for (let k = 0; k < keys.length; k++) if (bKeys[k] !== keys[k] || a[keys[k]!] !== b[keys[k]!]) return false;
  }
  return true;
}
