import type { TokenEstimator } from "../tokens/estimate.ts";

/** Assembly-time input budget. At least one cap is required. */
export interface ContextBudget {
  readonly maxInputTokens?: number;
  readonly maxInputBytes?: number;
  /** Attach the report at `request.metadata[CONTEXT_BUDGET_REPORT_METADATA_KEY]`. */
  readonly reportOmissions?: boolean;
  /** Replaces `ceil(UTF-16 length / 4)` for eviction accounting only; byte caps never use it. */
  readonly tokenEstimator?: TokenEstimator;
}

/** A validated budget; `estimate` is the estimator wrapped with its result checks. */
export interface ResolvedContextBudget {
  readonly maxInputTokens?: number;
  readonly maxInputBytes?: number;
  readonly reportOmissions: boolean;
  readonly estimate: TokenEstimator;
}

/** Evictable kinds, in eviction order. Instructions, the current input and the tool catalog are protected. */
export const CONTEXT_BUDGET_OMISSION_KINDS = [
  "tool_results",
  "history",
  "summaries",
  "context",
  "skills",
  "attachments",
] as const;
export type ContextBudgetOmissionKind = (typeof CONTEXT_BUDGET_OMISSION_KINDS)[number];
export type ContextBudgetLimit = "maxInputTokens" | "maxInputBytes";

/** One evicted item: kinds, ids and sizes only — never content — plus the arithmetic that decided it. */
export type ContextBudgetOmission = {
  readonly kind: ContextBudgetOmissionKind;
  /** Provenance label of the item (`history:4`, `toolResult:call_1`, `tail:skill:review`, …). */
  readonly source: string;
  /** The host's id for the item, when it has one the label does not carry (a summary's `id`). */
  readonly id?: string;
  /** Every message dropped with it: a tool exchange (assistant call + its results) goes as one item. */
  readonly sources: readonly string[];
  /** The item's size. */
  readonly tokens: number;
  readonly bytes: number;
  /** The prompt's size just before this item was dropped. */
  readonly tokensBefore: number;
  readonly bytesBefore: number;
  /** The caps `tokensBefore` / `bytesBefore` were over, i.e. why the item was dropped. */
  readonly exceeded: readonly ContextBudgetLimit[];
};

export type ContextBudgetReport = {
  readonly maxInputTokens?: number;
  readonly maxInputBytes?: number;
  /** Whole prompt before eviction (messages plus native tool schemas). */
  readonly tokensBefore: number;
  readonly bytesBefore: number;
  /** What may not be dropped: instructions, current input, tool catalog (and anything bound to them). */
  readonly protectedTokens: number;
  readonly protectedBytes: number;
  readonly keptTokens: number;
  readonly keptBytes: number;
  /** `true` when anything was omitted. */
  readonly truncated: boolean;
  readonly omitted: readonly ContextBudgetOmission[];
};

/** Where `assembleProviderInput` puts the report when `reportOmissions` is set. */
export const CONTEXT_BUDGET_REPORT_METADATA_KEY = "contextBudgetReport" as const;
