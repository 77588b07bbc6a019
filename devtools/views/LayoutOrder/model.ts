import type { InspectionReport, TracedMessage } from "../../../core/inspect/index.ts";
import { PROVENANCE_KINDS, provenanceKind, type ProvenanceKind } from "../../components/provenance.ts";

/** Where one assembled message sits in `legacy` and in `cache_aware`. */
export interface Move {
  readonly source: string;
  readonly kind: ProvenanceKind;
  readonly legacy: number;
  readonly cacheAware: number;
}

/**
 * Pairs messages across the two layouts by provenance: the k-th message with source `s` in one
 * layout is the k-th with source `s` in the other (sources such as `instructions` repeat).
 * Messages present in only one layout are left out.
 */
export function computeMoves(legacy: readonly TracedMessage[], cacheAware: readonly TracedMessage[]): readonly Move[] {
  const positions = new Map<string, number[]>();
  for (const m of cacheAware) {
    const list = positions.get(m.source);
    if (list) list.push(m.index);
    else positions.set(m.source, [m.index]);
  }
  const taken = new Map<string, number>();
  const moves: Move[] = [];
  for (const m of legacy) {
    const k = taken.get(m.source) ?? 0;
    const to = positions.get(m.source)?.[k];
    taken.set(m.source, k + 1);
    if (to !== undefined)
      moves.push({ source: m.source, kind: provenanceKind(m.sourceKind), legacy: m.index, cacheAware: to });
  }
  return moves;
}

/** A strip block: one message, or a run of consecutive messages of one kind when there are many. */
export interface StripBlock {
  readonly kind: ProvenanceKind;
  readonly label: string;
  readonly chars: number;
  readonly count: number;
  readonly first: number;
}

export function stripBlocks(messages: readonly TracedMessage[], mergeAbove = 60): readonly StripBlock[] {
  // Runs are summed in place and labelled once at the end: no object or label per message (a
  // 37,000-message order made as many of each on every switch to the view).
  const blocks: { -readonly [K in keyof StripBlock]: StripBlock[K] }[] = [];
  const merge = messages.length > mergeAbove;
  let last: (typeof blocks)[number] | undefined;
  for (const m of messages) {
    const kind = provenanceKind(m.sourceKind);
    if (merge && last !== undefined && last.kind === kind) {
      last.chars += m.chars;
      last.count++;
    } else blocks.push((last = { kind, label: m.source, chars: m.chars, count: 1, first: m.index }));
  }
  for (const b of blocks) if (b.count > 1) b.label = `${b.kind} ×${b.count}`;
  return blocks;
}

/**
 * How many messages sit elsewhere in `cacheAware` than in `legacy` (`computeMoves`, counted).
 * When both orders list the same sources at the same indices, nothing moved: that is found in one
 * pass, without pairing the messages (the usual answer for a long conversation).
 */
export function countMoves(legacy: readonly TracedMessage[], cacheAware: readonly TracedMessage[]): number {
  let same = legacy.length === cacheAware.length;
  for (let i = 0; same && i < legacy.length; i++)
    same = legacy[i]!.source === cacheAware[i]!.source && legacy[i]!.index === cacheAware[i]!.index;
  if (same) return 0;
  let moved = 0;
  for (const m of computeMoves(legacy, cacheAware)) if (m.legacy !== m.cacheAware) moved++;
  return moved;
}

/** Kinds present in either layout, in palette order, for the legend. */
export function presentKinds(report: InspectionReport): readonly ProvenanceKind[] {
  const seen = new Set<ProvenanceKind>();
  for (const t of [report.assembly?.legacy, report.assembly?.cache_aware])
    for (const m of t?.messages ?? []) seen.add(provenanceKind(m.sourceKind));
  return PROVENANCE_KINDS.filter((k) => seen.has(k));
}
