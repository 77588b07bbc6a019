// inspect(): one request (any format) → one plain-JSON report of everything Strata can tell about it.
export { createInspection, inspect } from "./inspect.ts";
export { DEFAULT_INSPECT_DEADLINE_MS } from "./deadline.ts";
export type { Inspection, InspectOptions } from "./inspect.ts";
export { REPORT_VERSION } from "./types.ts";
// what inspect reads and what a report keeps at most
export { DEFAULT_LIST_CAP, DEFAULT_MAX_ITEMS } from "./bounds.ts";
export { InspectLimitError } from "./errors.ts";
// a wire request's system prompt as tier-gated sections, and the request with the composed prompt
export { composeInstructions, instructionSections } from "./wire-tiers.ts";
export type { ComposedInstructions, InstructionSections } from "./wire-tiers.ts";
export { parseFingerprintBundle } from "./fingerprint-schema.ts";
// the next turn, simulated: what a reply and a new input would read from the cache
export { simulateNextTurn } from "./next-turn-lazy.ts";
export type { NextTurnOptions } from "./next-turn.ts";
export { simulateAdjacentTurn } from "./adjacent-turn.ts";
export type { AdjacentTurn, AdjacentTurnOptions } from "./adjacent-turn.ts";
export { DEFAULT_SIMULATED_NEXT_INPUT, DEFAULT_SIMULATED_REPLY } from "./turn-edit.ts";
export type {
  ReportAssembly,
  ReportContextBudget,
  DroppedItem,
  ReportHistory,
  InspectionReport,
  InspectionSettings,
  LayoutTrace,
  ReportProblem,
  ReportSegments,
  ReportTemplate,
  TierRow,
  ReportTiers,
  ReportTruncation,
  TracedMessage,
  VolatilityWarning,
  LiteralFinding,
  ReportLiterals,
  ReportModelRow,
  ReportParts,
  ReportWindow,
  WireOrder,
} from "./types.ts";
