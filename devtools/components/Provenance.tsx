import {
  PROVENANCE_KINDS,
  PROVENANCE_LABELS,
  provenanceFill,
  provenanceInk,
  provenanceKind,
  type ProvenanceKind,
} from "./provenance.ts";

/** A provenance label on its colour, e.g. `history:3`. */
export function ProvenanceChip({ source, sourceKind }: { readonly source: string; readonly sourceKind: string }) {
  const kind = provenanceKind(sourceKind);
  return (
    <span
      className="prov-chip"
      data-kind={kind}
      style={{ background: provenanceFill(kind), color: provenanceInk(kind) }}
      title={`${PROVENANCE_LABELS[kind]}: ${source}`}
    >
      {source}
    </span>
  );
}

/** Swatch + label for every kind present (or all). */
export function ProvenanceLegend({ kinds = PROVENANCE_KINDS }: { readonly kinds?: readonly ProvenanceKind[] }) {
  return (
    <ul className="legend" data-testid="provenance-legend" aria-label="Provenance colours">
      {kinds.map((k) => (
        <li key={k} data-kind={k}>
          <span className="swatch" style={{ background: provenanceFill(k) }} aria-hidden="true" />
          {PROVENANCE_LABELS[k]}
        </li>
      ))}
    </ul>
  );
}
