import type { InspectionReport } from "../../../core/inspect/index.ts";
import {
  PROVENANCE_KINDS,
  PROVENANCE_LABELS,
  provenanceKind,
  type ProvenanceKind,
} from "../../components/provenance.ts";

export interface Group {
  readonly key: string;
  readonly label: string;
  /** Provenance kind, for colour; null for wire groups. */
  readonly kind: ProvenanceKind | null;
  readonly count: number;
  readonly tokens: number;
  readonly bytes: number;
}

/**
 * Token and byte use per group. A Strata request groups its assembled messages (selected layout)
 * by provenance, a wire request its parts as sent (the tool catalog included); without either, the
 * prompt segments by region and role.
 */
export function budgetGroups(report: InspectionReport): readonly Group[] {
  const asSent = report.assembly?.asSent ?? null;
  const trace = asSent ?? (report.assembly ? report.assembly[report.assembly.selectedLayout] : null);
  if (trace) {
    const by = new Map<ProvenanceKind, Sums>();
    if (asSent) for (const p of report.parts?.parts ?? []) if (p.kind === "tools") add(by, "tools", p.tokens, p.bytes);
    for (const m of trace.messages) add(by, provenanceKind(m.sourceKind), m.tokens, m.bytes);
    return PROVENANCE_KINDS.filter((k) => by.has(k)).map((k) => ({
      key: k,
      label: PROVENANCE_LABELS[k],
      kind: k,
      ...by.get(k)!,
    }));
  }
  const by = new Map<string, Sums>();
  for (const s of report.segments?.segments ?? [])
    add(by, s.region === "messages" ? `messages · ${s.role ?? "?"}` : s.region, s.tokens, s.byteLength);
  return [...by].map(([key, g]) => ({ key, label: key, kind: null, ...g }));
}

interface Sums {
  count: number;
  tokens: number;
  bytes: number;
}

/** Adds one item to its group's sums, in place (a long request has tens of thousands). */
function add<K>(by: Map<K, Sums>, key: K, tokens: number, bytes: number): void {
  const g = by.get(key);
  if (g === undefined) by.set(key, { count: 1, tokens, bytes });
  else {
    g.count++;
    g.tokens += tokens;
    g.bytes += bytes;
  }
}

export interface EstimatorRow {
  readonly key: string;
  readonly label: string;
  readonly quarter: number;
  /** The counter's figure (countRequestTokens). */
  readonly counted: number;
}

/** Pairs groups of the chars/4 report with those of the counted report, by key. */
export function estimatorRows(quarter: readonly Group[], counted: readonly Group[]): readonly EstimatorRow[] {
  const t = new Map(counted.map((g) => [g.key, g.tokens]));
  return quarter.map((g) => ({ key: g.key, label: g.label, quarter: g.tokens, counted: t.get(g.key) ?? 0 }));
}
