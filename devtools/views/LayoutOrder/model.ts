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
  const blocks: StripBlock[] = [];
  const merge = messages.length > mergeAbove;
  for (const m of messages) {
    const kind = provenanceKind(m.sourceKind);
    const last = blocks[blocks.length - 1];
    if (merge && last && last.kind === kind) {
      blocks[blocks.length - 1] = {
        ...last,
        chars: last.chars + m.chars,
        count: last.count + 1,
        label: `${kind} ×${last.count + 1}`,
      };
    } else {
      blocks.push({ kind, label: m.source, chars: m.chars, count: 1, first: m.index });
    }
  }
  return blocks;
}

/** Kinds present in either layout, in palette order, for the legend. */
export function presentKinds(report: InspectionReport): readonly ProvenanceKind[] {
  const seen = new Set<ProvenanceKind>();
  for (const t of [report.assembly?.legacy, report.assembly?.cache_aware])
    for (const m of t?.messages ?? []) seen.add(provenanceKind(m.sourceKind));
  return PROVENANCE_KINDS.filter((k) => seen.has(k));
}
