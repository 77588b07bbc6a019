/**
 * Provenance kinds of assembled messages (the part of a trace `source` before the first `:`),
 * with their label and colour. Colours come from the Okabe–Ito palette (CSS variables in
 * styles.css); every use also shows the text label, so colour is never the only cue.
 */
import type { PromptSource } from "../../core/assembly/index.ts";
import { allOf, isMember, type Labels } from "./closedSets.ts";

/** `history:3` → `history`; a source without a `:` is its own kind. */
type KindOf<S extends string> = S extends `${infer K}:${string}` ? K : S;

/** Core's source kinds; `resource` is drawn with attachments. */
export type ProvenanceKind = Exclude<KindOf<PromptSource>, "resource">;

/** Palette order. */
export const PROVENANCE_KINDS = allOf<ProvenanceKind>()([
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
]);

export const PROVENANCE_LABELS: Labels<ProvenanceKind> = {
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
  return isMember(PROVENANCE_KINDS, sourceKind) ? sourceKind : "custom";
}

export const provenanceFill = (kind: ProvenanceKind) => `var(--p-${kind})`;
export const provenanceInk = (kind: ProvenanceKind) =>
  DARK_FILLS.has(kind) ? "var(--p-on-dark)" : kind === "input" ? "var(--bg)" : "var(--p-on-light)";
