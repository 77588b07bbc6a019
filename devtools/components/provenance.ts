/**
 * Provenance kinds of assembled messages (the part of a trace `source` before the first `:`),
 * with their label and colour. Colours come from the Okabe–Ito palette (CSS variables in
 * styles.css); every use also shows the text label, so colour is never the only cue.
 */
export const PROVENANCE_KINDS = [
  "instructions",
  "context",
  "skill",
  "tools",
  "attachment",
  "summary",
  "history",
  "toolResult",
  "input",
  "tail",
  "custom",
] as const;
export type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];

export const PROVENANCE_LABELS: Readonly<Record<ProvenanceKind, string>> = {
  instructions: "instructions",
  context: "context",
  skill: "skills",
  tools: "tools",
  attachment: "attachments",
  summary: "summaries",
  history: "history",
  toolResult: "tool results",
  input: "input",
  tail: "tail",
  custom: "custom",
};

/** Kinds whose colour is dark enough for white text. */
const DARK_FILLS: ReadonlySet<ProvenanceKind> = new Set(["instructions", "toolResult", "tail", "skill"]);

/** Maps a trace `sourceKind` to a palette kind (`resource` is shown with attachments). */
export function provenanceKind(sourceKind: string): ProvenanceKind {
  if (sourceKind === "resource") return "attachment";
  return (PROVENANCE_KINDS as readonly string[]).includes(sourceKind) ? (sourceKind as ProvenanceKind) : "custom";
}

export const provenanceFill = (kind: ProvenanceKind) => `var(--p-${kind})`;
export const provenanceInk = (kind: ProvenanceKind) =>
  DARK_FILLS.has(kind) ? "var(--p-on-dark)" : kind === "input" ? "var(--bg)" : "var(--p-on-light)";
