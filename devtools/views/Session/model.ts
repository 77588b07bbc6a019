/** Pure helpers of the Session view: labels, money, and the timeline's geometry (tested without a DOM). */
import type { BustCause, SessionThread, SessionTurn, TurnCause } from "../../../core/session/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { CAUSE_LABELS } from "../../components/names.ts";

/** A turn's cause in words (the divergence causes as the Cache prefix view names them). */
export const TURN_CAUSE_LABELS: Labels<TurnCause> = { first: "first turn", identical: "identical", ...CAUSE_LABELS };
export const BUST_CAUSE_LABELS: Labels<BustCause> = { ...CAUSE_LABELS, ttl_expired: "cache expired" };

/** Short marks for the timeline, where a bar is 22 px wide. */
export const BUST_MARKS: Labels<BustCause> = {
  appended: "appended",
  truncated: "truncated",
  tools_changed: "tools",
  tool_order_changed: "tool order",
  json_key_order_changed: "key order",
  system_changed: "system",
  volatile_template_value: "volatile",
  history_window_shifted: "window",
  message_edited: "edited",
  model_changed: "model",
  ttl_expired: "expired",
};

/** USD, with digits enough for a turn's fraction of a cent. No locale: screenshots match everywhere. */
export function fmtUsd(x: number | null | undefined): string {
  if (x === null || x === undefined) return "—";
  if (x === 0) return "$0";
  if (Math.abs(x) >= 1) return `$${x.toFixed(2)}`;
  if (Math.abs(x) >= 0.01) return `$${x.toFixed(3)}`;
  return `$${x.toFixed(4)}`;
}

/** "6 min 38 s", "57 s". */
export function fmtGap(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "08:14:05" of an ISO time (UTC, as the report writes it). */
export const fmtClock = (iso: string | null) => (iso ? `${iso.slice(11, 19)} UTC` : "—");

/** The badge tone of a turn's cause. */
export function causeTone(t: SessionTurn): "error" | "warn" | "ok" | "plain" {
  if (t.bustsCache) return "error";
  if (t.predicted.expired) return "warn";
  if (t.cause === "appended" || t.cause === "identical") return "ok";
  return "plain";
}

export const TIMELINE = {
  left: 64,
  right: 16,
  top: 44,
  plot: 150,
  bottom: 40,
  /** The width a short thread spreads over; longer ones scroll, at `minSlot` per turn. */
  width: 1100,
  minSlot: 36,
  maxSlot: 110,
} as const;

/** Per-turn widths: a short thread spreads over the chart, a long one gets narrow slots and scrolls. */
export function slotWidths(turns: number): { readonly slot: number; readonly bar: number; readonly actual: number } {
  const slot = Math.max(TIMELINE.minSlot, Math.min(TIMELINE.maxSlot, Math.floor(TIMELINE.width / Math.max(1, turns))));
  const bar = Math.min(40, Math.round(slot * 0.5));
  return { slot, bar, actual: Math.max(5, Math.round(bar / 3)) };
}

export interface Segment {
  readonly y: number;
  readonly height: number;
}

export interface TimelineBar {
  readonly turn: SessionTurn;
  readonly x: number;
  readonly read: Segment;
  readonly write: Segment;
  readonly uncached: Segment;
  /** The response's figures beside the prediction; null without usage. */
  readonly actual: { readonly read: Segment; readonly write: Segment; readonly rest: Segment } | null;
  /** Set when the turn lost cache: the cause, and the row (0 or 1) of its label. */
  readonly bust: { readonly cause: BustCause; readonly row: number } | null;
}

export interface TimelineModel {
  readonly slot: number;
  readonly bar: number;
  readonly actual: number;
  readonly width: number;
  readonly height: number;
  readonly max: number;
  readonly ticks: readonly { readonly value: number; readonly y: number }[];
  readonly bars: readonly TimelineBar[];
}

/** A round upper bound for the token axis: 1, 2 or 5 × 10ⁿ at or above `x`. */
export function niceMax(x: number): number {
  if (x <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

/** Stacked bars per turn (read at the bottom, then written, then uncached), one slot per turn. */
export function timelineModel(thread: SessionThread, busts: ReadonlyMap<number, BustCause>): TimelineModel {
  const T = TIMELINE;
  const { slot, bar, actual: actualWidth } = slotWidths(thread.turns.length);
  const max = niceMax(thread.turns.reduce((m, t) => Math.max(m, t.predicted.input, t.actual?.input ?? 0), 0));
  const scale = (tokens: number) => (tokens / max) * T.plot;
  const base = T.top + T.plot;
  const stack = (values: readonly number[]): Segment[] => {
    let y = base;
    return values.map((v) => {
      const height = scale(v);
      y -= height;
      return { y, height };
    });
  };
  let bustIndex = 0;
  const bars = thread.turns.map((turn, i): TimelineBar => {
    const [read, write, uncached] = stack([
      turn.predicted.cacheRead,
      turn.predicted.cacheWrite,
      turn.predicted.uncached,
    ]);
    const a = turn.actual;
    const actual = a
      ? (() => {
          const [r, w, rest] = stack([a.cacheRead, a.cacheWrite, Math.max(0, a.input - a.cacheRead - a.cacheWrite)]);
          return { read: r!, write: w!, rest: rest! };
        })()
      : null;
    const cause = busts.get(turn.turn);
    return {
      turn,
      x: T.left + i * slot + (slot - bar - actualWidth - 2) / 2,
      read: read!,
      write: write!,
      uncached: uncached!,
      actual,
      bust: cause ? { cause, row: bustIndex++ % 2 } : null,
    };
  });
  return {
    slot,
    bar,
    actual: actualWidth,
    width: T.left + thread.turns.length * slot + T.right,
    height: T.top + T.plot + T.bottom,
    max,
    ticks: [0, max / 2, max].map((value) => ({ value, y: base - scale(value) })),
    bars,
  };
}
