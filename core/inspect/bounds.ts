/**
 * Bounds on what `inspect` reads and on what its report holds, so that a report is at most a
 * small multiple of its input and every input is answered in bounded time and memory:
 *
 * - `maxItems` (default `DEFAULT_MAX_ITEMS`): the most messages and content blocks a request may
 *   hold, counted on the parsed JSON before anything else is built (`InspectLimitError`).
 * - `listCap` (default `DEFAULT_LIST_CAP`): the most entries any per-message or per-segment list
 *   of the report keeps (segments, parts, traced messages, dropped items, history issues, tier
 *   rows). A list cut short is named in `report.truncated` with its full count.
 */
import { InvalidInputError } from "../util/errors.ts";
import { InspectLimitError } from "./errors.ts";
import type { ReportTruncation } from "./types.ts";

/** Default `maxItems`: messages and content blocks a request may hold. */
export const DEFAULT_MAX_ITEMS = 100_000;
/** Default `listCap`: entries a report list keeps. */
export const DEFAULT_LIST_CAP = 1_000;

/** A limit option: a whole number ≥ 1, or the default. */
export function limitOption(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidInputError(field, `must be a whole number ≥ 1, got ${String(value)}.`);
  }
  return value;
}

/**
 * Counts the messages and blocks of a parsed request: the entries of its top-level arrays
 * (`messages`, `contents`, `input`, `tools`, …) and of their entries' arrays (`content`, `parts`).
 * Format-blind, so it runs before detection; stops at the first count past `max`.
 */
export function checkItemCount(value: unknown, max: number): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  let count = 0;
  // Keys, not entries: a request has thousands of messages, and an entry is an array each.
  const top = value as Record<string, unknown>;
  for (const key of Object.keys(top)) {
    const list = top[key];
    if (!Array.isArray(list)) continue;
    count += list.length;
    if (count > max) throw new InspectLimitError(key, max, count);
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
      const o = item as Record<string, unknown>;
      for (const inner in o) {
        if (!Object.hasOwn(o, inner)) continue;
        const nested = o[inner];
        if (!Array.isArray(nested)) continue;
        count += nested.length;
        if (count > max) throw new InspectLimitError(`${key}[${i}].${inner}`, max, count);
      }
    }
  }
}

/** Cuts lists to `cap` entries, recording each cut. */
export class ListCap {
  readonly truncated: ReportTruncation[] = [];
  constructor(readonly cap: number) {}

  /**
   * The first `cap` entries of `list` (the list itself when it fits); `path` names it in the
   * report. `total`: how long the list is when `list` holds only its first entries (at least `cap`).
   */
  list<T>(list: readonly T[], path: string, total = list.length): readonly T[] {
    if (total <= this.cap) return list;
    this.truncated.push({ kind: "truncated", path, total, shown: this.cap });
    return list.length <= this.cap ? list : list.slice(0, this.cap);
  }

  /** Records a section left out whole because its list is longer than the cap (`shown` 0). */
  omit(path: string, total: number): void {
    this.truncated.push({ kind: "truncated", path, total, shown: 0 });
  }
}
