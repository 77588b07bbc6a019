// Sessions: a recorded conversation (HAR, JSONL request log, JSON array) → its threads, turn by turn
// cache reads, writes and busts with their causes, actual usage against the prediction, and cost.
export { parseSession, createSessionReader, readTime } from "./parse.ts";
export type { SessionItem, SessionReader } from "./parse.ts";
export { createSessionAnalyzer, createSessionInspector, inspectSession } from "./inspect-session.ts";
export type { InspectSessionOptions, SessionAnalyzer, SessionInspector } from "./inspect-session.ts";
export { matchEndpoint } from "./endpoints.ts";
export type { Endpoint } from "./endpoints.ts";
export { JsonArrayScanner } from "./json-stream.ts";
export type { ScanProblem, ScannedElement } from "./json-stream.ts";
export { SESSION_REPORT_VERSION } from "./types.ts";
// hash-only sessions: shareable without prompt text
export { fromSessionFingerprints, isSessionFingerprints } from "./fingerprints.ts";
export type { FingerprintSegment, FingerprintTurn, SessionFingerprints } from "./fingerprints.ts";
// the provider's reported usage, normalized (also used for predicted vs actual)
export { USAGE_FORMATS, readUsage } from "../tokens/usage.ts";
export type { Usage, UsageFormat } from "../tokens/usage.ts";
export type {
  BustCause,
  EntryHints,
  PredictedUsage,
  Session,
  SessionBust,
  SessionEntry,
  SessionInputKind,
  SessionProblem,
  SessionReport,
  SessionThread,
  SessionTotals,
  SessionTurn,
  SkipCode,
  SkippedRecord,
  TurnCause,
  TurnCost,
} from "./types.ts";
export { sessionReportCsv } from "./csv.ts";
