/**
 * Going on from an earlier count: `CountPrefix` names it, `appendsTo` tells whether a request only
 * appends messages to that count's request, and `continuedMessages` tells a caller how many
 * leading messages a count took from its prefix. Shared by the estimate (count.ts) and the exact
 * OpenAI counter (count-exact.ts, loaded on demand).
 */
import type { NormalizedRequest } from "../formats/types.ts";
import { NO_MEDIA } from "./count-estimate.ts";
import type { MediaCost } from "./media.ts";
import type { SegmentWalk } from "./segment-order.ts";
import type { SegmentTokens, TokenCount } from "./types.ts";

/**
 * What both counters keep of where a count ended, to go on from it: the request counted, the
 * model, the media costed so far, and the tool loop the last messages were counted in (a later
 * loop start moves counted blocks out of it, safe only when no reasoning was counted there).
 */
export interface CountEnd {
  readonly request: NormalizedRequest;
  readonly model: string;
  readonly media: readonly MediaCost[];
  readonly loopStart: number;
  readonly loopSensitive: boolean;
}

/**
 * An earlier count to go on from (see `countTokensWith`), and how to tell that a piece of the new
 * request is the earlier one's: by default the very same object; `same` may compare contents
 * (it must answer true only for values that are counted alike, e.g. equal JSON).
 */
export interface CountPrefix {
  readonly count: TokenCount;
  readonly same?: (a: unknown, b: unknown) => boolean;
}

/**
 * True when `request` has `before`'s tools and provider options and starts with its messages
 * (each compared by `prefix.same`), so it only appends messages to it.
 */
export function appendsTo(prefix: CountPrefix, request: NormalizedRequest, before: NormalizedRequest): boolean {
  const same = prefix.same ?? Object.is;
  if (request.tools.length !== before.tools.length || !same(request.providerOptions, before.providerOptions))
    return false;
  for (let i = 0; i < before.tools.length; i++) if (!same(request.tools[i], before.tools[i])) return false;
  const old = before.messages;
  const messages = request.messages;
  if (messages.length < old.length) return false;
  for (let i = 0; i < old.length; i++) if (!same(messages[i], old[i])) return false;
  return true;
}

/** Counts that went on from a `CountPrefix`: how many leading messages were the prefix's (see `continuedMessages`). */
export const continued = new WeakMap<TokenCount, number>();

/**
 * When `count` went on from its `CountPrefix`, how many of its request's leading messages that
 * prefix's `same` found equal to the earlier request's (its tools and provider options were found
 * equal too); else -1. A caller that segments both requests can then take those messages' segments
 * from the earlier request's without comparing them again.
 */
export const continuedMessages = (count: TokenCount): number => continued.get(count) ?? -1;

/** Consecutive segments of a count: `tokens[i]` is segment `i`'s figure and `kinds.kind(i)` its kind. */
export interface FigureRun {
  readonly tokens: readonly number[];
  readonly kinds: { kind(i: number): SegmentTokens["kind"] };
}

/**
 * A count's tokens and segment kinds in `perSegment` order, as runs laid end to end: a count that
 * went on from an earlier one holds that count's runs and adds its own, so counting a next turn of
 * a 20,000-segment chat copies no list of 20,000 figures (each such copy, and the list's growth
 * past it, was a fresh large array that V8 maps page by page).
 */
export interface CountFigures {
  /** Segments in all runs. */
  readonly length: number;
  readonly runs: readonly FigureRun[];
}

/** The figures of counts that keep them apart from `perSegment` (an estimate writes that list only when it is read). */
export const figures = new WeakMap<TokenCount, CountFigures>();

/**
 * Each segment's tokens and kind, without making the count's `perSegment` list where the count
 * kept them apart (an estimate's list of 100,000 segments is written only for a caller who reads it).
 */
export function countFigures(count: TokenCount): CountFigures {
  const kept = figures.get(count);
  if (kept !== undefined) return kept;
  const list = count.perSegment;
  return { length: list.length, runs: [{ tokens: list.map((s) => s.tokens), kinds: { kind: (i) => list[i]!.kind } }] };
}

/** Stands in `perSegment`'s place among a new count's keys until `keepFigures` defines it. */
export const NO_SEGMENTS: readonly SegmentTokens[] = [];

/**
 * A count's per-segment figures as both counters keep them: a run per count it went on from and
 * its own, each a walk (`SegmentWalk`, which places and names each segment) with its tokens and
 * methods, and the media of the few segments that have any. Its `perSegment` list is written from
 * these when first read: inspect and the cache analyses read only the figures, and a long chat's
 * list (an object and a path per segment) was most of what a count allocated.
 */
export interface WalkFigures extends CountFigures {
  /** A run per count this one went on from, then its own; each run's walk gives its kinds and paths. */
  readonly runs: readonly WalkRun[];
  /** By segment index over all runs. */
  readonly media: ReadonlyMap<number, readonly MediaCost[]>;
}

export interface WalkRun extends FigureRun {
  readonly kinds: SegmentWalk;
  /** Per segment, 1 when its figure is exact (an exact OpenAI count); null when every figure is an estimate. */
  readonly exact: Uint8Array | null;
}

/** A count's figures: `before`'s runs (shared, not copied) and then `run`, with `before`'s media and `media`. */
export function walkFigures(
  before: WalkFigures | undefined,
  run: WalkRun,
  media: ReadonlyMap<number, readonly MediaCost[]>,
): WalkFigures {
  return {
    length: (before ? before.length : 0) + run.kinds.length,
    runs: before ? [...before.runs, run] : [run],
    media,
  };
}

function writePerSegment(s: WalkFigures): SegmentTokens[] {
  const out: SegmentTokens[] = [];
  for (const { tokens, kinds: walk, exact } of s.runs)
    for (let i = 0; i < walk.length; i++) {
      const index = out.length;
      out.push({
        index,
        path: walk.path(i),
        kind: walk.kind(i),
        tokens: tokens[i]!,
        method: exact !== null && exact[i] === 1 ? "exact" : "estimate",
        media: s.media.get(index) ?? NO_MEDIA,
      });
    }
  return out;
}

/**
 * Keeps `s` as `count`'s figures, and makes `count.perSegment` a property written from them when
 * first read (then kept as a plain value): same place among the keys, same content, so JSON,
 * structured clone and spreading see the list as if it had been written at once.
 */
export function keepFigures(count: TokenCount, s: WalkFigures): void {
  figures.set(count, s);
  Object.defineProperty(count, "perSegment", {
    enumerable: true,
    configurable: true,
    get(this: TokenCount) {
      const value = writePerSegment(s);
      Object.defineProperty(this, "perSegment", { value, enumerable: true, writable: false, configurable: true });
      return value;
    },
  });
}
