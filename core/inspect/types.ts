/**
 * The `InspectionReport`: everything `inspect()` finds out about one request, as plain
 * JSON (no functions, no `undefined`, no `Infinity`). Every key is always present;
 * a section that does not apply is `null`. The devtools and the edge worker draw
 * this report and never re-derive anything from the request.
 *
 * Stability: adding a key bumps nothing; renaming, removing or changing the meaning of
 * a key bumps `REPORT_VERSION`.
 */
import type {
  BreakpointSuggestion,
  CacheProvider,
  CacheSimulation,
  FingerprintBundle,
  NextTurnSimulation,
  PrefixComparison,
  ReportSegment,
} from "../cache/types.ts";
import type { HistoryIssue } from "../conversation/errors.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { RequestFormat } from "../request/parse-request.ts";
import type { Role } from "../messages/types.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";

export const REPORT_VERSION = 1 as const;

export interface InspectionReport {
  readonly reportVersion: typeof REPORT_VERSION;
  /** What `parseRequest` detected. */
  readonly format: RequestFormat;
  /** Provider whose cache rules and prompt order were used (option, else inferred from format/model). */
  readonly provider: CacheProvider;
  /** Model id used for cache rules (option, else the request's). */
  readonly model: string;
  /** The options that shaped the report, echoed back. */
  readonly settings: InspectionSettings;
  /**
   * The normalized request: for wire formats the parsed request, for a Strata
   * `AssemblyRequest` the assembled one (in `settings.layout`). Null when assembly failed
   * (see `problems`).
   */
  readonly request: NormalizedRequest | null;
  /** Assembly trace for both layouts; null unless the input is a Strata `AssemblyRequest`. */
  readonly assembly: ReportAssembly | null;
  /** Tier gating rows; null unless the `AssemblyRequest` has `sections`. */
  readonly tiers: ReportTiers | null;
  /** Context-budget accounting; null unless the `AssemblyRequest` (or `options.budget`) sets a budget. */
  readonly contextBudget: ReportContextBudget | null;
  /** Everything that was left out, from every stage, with reasons and the arithmetic that decided it. */
  readonly dropped: readonly DroppedItem[];
  /** The request in provider prompt order; null when there is no request. */
  readonly segments: ReportSegments | null;
  /** Comparison with `options.previous`; null without one. */
  readonly prefix: PrefixComparison | null;
  /**
   * Cache simulation over [previous?, this request]; null when there is no request. An assembled
   * (Strata) request carries no cache markers: for Anthropic it is simulated with `breakpoints`
   * applied (see `cache.assumptions`).
   */
  readonly cache: CacheSimulation | null;
  /** Anthropic only: where `cache_control` breakpoints pay off (`suggestCacheBreakpoints`, with `previous` when given). */
  readonly breakpoints: readonly BreakpointSuggestion[] | null;
  /** This turn and a simulated next one under both layouts; null unless the input is an `AssemblyRequest`. */
  readonly nextTurn: NextTurnSimulation | null;
  /** History validation of the request's messages (always run). */
  readonly history: ReportHistory;
  /** Template rendering and volatility; null unless the `AssemblyRequest` has a `template`. */
  readonly templates: ReportTemplate | null;
  /** Hash-only bundle of this request, safe to share; null when there is no request. */
  readonly fingerprints: FingerprintBundle | null;
  /** Stages that failed or warned; the report still holds what the other stages found. */
  readonly problems: readonly ReportProblem[];
}

export interface InspectionSettings {
  readonly provider: CacheProvider;
  readonly model: string;
  /** Layout of `request` (Strata input only; `cache_aware` otherwise). */
  readonly layout: InputAssemblyLayout;
  /** `default` = `ceil(UTF-16 length / 4)`; `custom` = an injected `tokenEstimator`. */
  readonly tokenEstimator: "default" | "custom";
  /** What `options.previous` was: nothing, a request, or a fingerprint bundle. */
  readonly previous: "none" | "request" | "fingerprints";
  /** Id of the cache rule row used. */
  readonly cacheRuleId: string;
}

/** Assembly of a Strata `AssemblyRequest` under both layouts. */
export interface ReportAssembly {
  /** The layout `request` was assembled with. */
  readonly selectedLayout: InputAssemblyLayout;
  /** Null for a layout whose assembly failed (see `problems`). */
  readonly legacy: LayoutTrace | null;
  readonly cache_aware: LayoutTrace | null;
}

export interface LayoutTrace {
  readonly layout: InputAssemblyLayout;
  /** Every output message in order, with where it came from. */
  readonly messages: readonly TracedMessage[];
  /** What this layout's assembly left out (context-budget omissions). */
  readonly omissions: readonly DroppedItem[];
  readonly totalChars: number;
  readonly totalBytes: number;
  readonly totalTokens: number;
}

export interface TracedMessage {
  /** Index in the assembled `messages`. */
  readonly index: number;
  readonly role: Role;
  /**
   * Provenance, as the assembly trace names it: `instructions`, `context:<id>`, `skill:<name>`,
   * `tools`, `attachment:<name>`, `resource:<uri>`, `summary`, `history:<index>`,
   * `toolResult:<toolCallId>`, `input`, `tail:<id>`.
   */
  readonly source: string;
  /** The part of `source` before the first `:` (`history`, `attachment`, …). */
  readonly sourceKind: string;
  /** UTF-16 length of the message's text blocks. */
  readonly chars: number;
  /** UTF-8 bytes of the message's text blocks. */
  readonly bytes: number;
  readonly tokens: number;
  /** Up to 80 characters of the message's text. */
  readonly preview: string;
}

/** The tier gate's decision for every candidate section (the composer's explanation). */
export interface ReportTiers {
  /** Null when the budget is unlimited. */
  readonly effectiveBudget: number | null;
  /** `coreChars + floor((budget - coreChars) × activeBudgetFraction)`; null when unlimited. */
  readonly activeCeiling: number | null;
  readonly activeBudgetFraction: number;
  readonly coreChars: number;
  /** Sum of included sections' chars (separators not counted). */
  readonly totalChars: number;
  readonly totalTokensEst: number;
  /** `totalChars / budget × 100`, 2 decimals; 0 with no limit; null when the budget is 0 and something is included. */
  readonly budgetUsedPct: number | null;
  /** Core sections alone exceed the budget (they are still included). */
  readonly overflowed: boolean;
  readonly rows: readonly TierRow[];
  /** UTF-16 length of the composed system prompt (`included` joined by "\n\n"). */
  readonly composedChars: number;
  readonly composedSha256: string;
}

export interface TierRow {
  readonly id: string;
  readonly tier: "core" | "active" | "informational";
  readonly chars: number;
  /** Running total of included chars before this candidate. */
  readonly runningBefore: number;
  /** What the candidate was tested against: nothing (core), the active ceiling, or the budget. */
  readonly limitKind: "none" | "ceiling" | "budget";
  /** The limit's value; null for `none` or an unlimited budget. */
  readonly limit: number | null;
  readonly verdict: "included" | "dropped";
  /** The arithmetic in words, e.g. `1200 + 900 = 2100 > ceiling 1900`. */
  readonly reason: string;
}

export interface ReportContextBudget {
  readonly maxInputTokens: number | null;
  readonly maxInputBytes: number | null;
  /** Totals of the assembled request in the selected layout. */
  readonly usedTokens: number;
  readonly usedBytes: number;
  readonly omitted: readonly DroppedItem[];
}

/** Something a stage left out. */
export interface DroppedItem {
  readonly stage: "tiers" | "context_budget";
  /** Section id, or the assembly source (`history:3`, `attachment:notes.md`, …). */
  readonly id: string;
  /** Tier for `tiers`; section kind (`history`, `toolResults`, …) for `context_budget`. */
  readonly kind: string;
  /** Size of the item in the unit that decided (chars for tiers; tokens or bytes for budgets). */
  readonly size: number;
  readonly unit: "chars" | "tokens" | "bytes";
  /** The limit it was tested against, when known. */
  readonly limit: number | null;
  /** What had been used before it, when known. */
  readonly usedBefore: number | null;
  /** The arithmetic in words. */
  readonly reason: string;
}

export interface ReportSegments {
  readonly provider: CacheProvider;
  /** Regions in prompt order, e.g. `["tools", "system", "messages"]`. */
  readonly order: readonly string[];
  /** Why this order for this provider (documented or assumed). */
  readonly orderNote: string;
  readonly totalBytes: number;
  readonly totalTokens: number;
  readonly segments: readonly ReportSegment[];
}

export interface ReportHistory {
  readonly issues: readonly HistoryIssue[];
}

export interface ReportTemplate {
  /** Length of the template source and of the rendered text (UTF-16). */
  readonly templateChars: number;
  readonly renderedChars: number;
  readonly renderedSha256: string;
  /** Where the rendered text went. */
  readonly target: "systemInstructions" | "developerInstructions" | "input";
  /** Null when rendering succeeded. */
  readonly error: ReportProblem | null;
  readonly volatility: readonly VolatilityWarning[];
}

export interface VolatilityWarning {
  /** What the template reads: `system.current_time`, a root alias such as `current_time`, `strftime_now()`. */
  readonly variable: string;
  /** How often it changes: `per_request`, `per_day` or `per_conversation`. */
  readonly volatility: string;
  /** 1-based position in the template; 0 when unknown. */
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface ReportProblem {
  readonly stage: "parse" | "template" | "tiers" | "assembly" | "history" | "cache" | "previous";
  /** The error's `code` (e.g. `context_budget_exceeded`). */
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  /** JSON path or field, when the error names one. */
  readonly path: string | null;
}
