import { InvalidInputError } from "../util/errors.ts";
import { assertMessage, assertToolDefinitions, expectArray } from "../messages/validate.ts";
import { definedFields, isObject } from "../util/plain-object.ts";
import type { JsonValue, Message, ProviderRequest, ToolDefinition } from "../messages/index.ts";
import type { SourcedMessage } from "./sources.ts";
import { evictToBudget, evictionRank } from "./context-eviction.ts";
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { measureMessages, measureToolSchemas } from "./context-measure.ts";
import type { TokenEstimator } from "../tokens/estimate.ts";
import type { ContextBudget, ContextBudgetLimit, ContextBudgetReport, ResolvedContextBudget } from "./context-types.ts";
import { CONTEXT_BUDGET_REPORT_METADATA_KEY } from "./context-types.ts";

export { CONTEXT_BUDGET_OMISSION_KINDS, CONTEXT_BUDGET_REPORT_METADATA_KEY } from "./context-types.ts";

/**
 * Validates a budget: at least one cap, each a safe integer ≥ 1 (`InvalidInputError` naming the
 * field); `tokenEstimator`, when given, must be a function (`TokenEstimatorError`, a `TypeError`).
 * The returned `estimate` throws the same error when the estimator returns anything but a finite
 * number ≥ 0, and rounds each result up to whole tokens (`checkedTokenEstimator`).
 */
export function resolveContextBudget(budget: ContextBudget): ResolvedContextBudget {
  if (typeof budget !== "object" || budget === null) {
    throw new InvalidInputError("contextBudget", "must be an object with maxInputTokens and/or maxInputBytes.");
  }
  const { maxInputTokens, maxInputBytes, tokenEstimator } = budget;
  if (maxInputTokens === undefined && maxInputBytes === undefined) {
    throw new InvalidInputError("contextBudget", "needs maxInputTokens and/or maxInputBytes.");
  }
  if (maxInputTokens !== undefined) assertCap(maxInputTokens, "maxInputTokens");
  if (maxInputBytes !== undefined) assertCap(maxInputBytes, "maxInputBytes");
  // Shared contract (see `checkedTokenEstimator`): TypeError for a non-function or a bad result, whole tokens per message.
  const estimate: TokenEstimator = checkedTokenEstimator(tokenEstimator, "contextBudget.tokenEstimator");
  return {
    ...definedFields({ maxInputTokens, maxInputBytes }),
    reportOmissions: budget.reportOmissions === true,
    estimate,
  };
}

function assertCap(value: unknown, name: ContextBudgetLimit): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidInputError(`contextBudget.${name}`, `must be a whole number ≥ 1, got ${String(value)}.`);
  }
}

export interface ApplyContextBudgetOptions {
  /** The composed prompt with provenance (see `explainProviderInput`'s trace labels). */
  readonly items: readonly SourcedMessage[];
  readonly budget: ContextBudget;
  /** Native tool schemas sent beside the messages (protected). Leave out when tools are declared in text. */
  readonly toolSchemas?: readonly ToolDefinition[];
}

export interface ContextBudgetResult {
  /** Kept items, in their original order. */
  readonly items: readonly SourcedMessage[];
  readonly messages: readonly Message[];
  readonly report: ContextBudgetReport;
}

/**
 * Drops whole items until the prompt fits: tool results → history (oldest first) → summaries →
 * context → skills → attachments; within the other kinds the item nearest the end goes first.
 * A tool exchange (assistant `tool_call` + matching `tool_result` messages) is one item.
 * Instructions, current input, the tool catalog and `custom` messages are protected; if they alone
 * exceed a cap, throws `ContextBudgetError`. Each message is measured once; eviction keeps running
 * totals (O(n log n)).
 */
export function applyContextBudget(options: ApplyContextBudgetOptions): ContextBudgetResult {
  if (!isObject(options)) throw new InvalidInputError("options", "must be an object { items, budget, toolSchemas? }.");
  const budget = resolveContextBudget(options.budget);
  const items = options.items;
  // The one shape check of this call: the eviction below trusts it.
  const list = expectArray(items, "items");
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isObject(item) || typeof item["source"] !== "string") {
      throw new InvalidInputError(
        `items[${i}]`,
        'must be { message, source } (a provenance label such as "history:3").',
      );
    }
    assertMessage(item["message"], `items[${i}].message`);
  }
  if (options.toolSchemas !== undefined) assertToolDefinitions(options.toolSchemas, "toolSchemas");
  const messages = items.map((item) => item.message);
  const ranks = Int8Array.from(items, (item) => evictionRank(item.source));
  const measures = measureMessages(messages, budget.estimate);
  const tools =
    options.toolSchemas !== undefined && options.toolSchemas.length > 0
      ? measureToolSchemas(options.toolSchemas, budget.estimate)
      : undefined;
  const { keep, report } = evictToBudget({ messages, ranks, itemAt: (i) => items[i]! }, measures, tools, budget);
  const kept = items.filter((_, i) => keep[i] === 1);
  return { items: kept, messages: kept.map((item) => item.message), report };
}

/** The report `assembleProviderInput` attached (with `reportOmissions: true`), or `undefined`. */
export function getContextBudgetReport(request: Pick<ProviderRequest, "metadata">): ContextBudgetReport | undefined {
  if (!isObject(request))
    throw new InvalidInputError("request", "must be a provider request (the result of assembleProviderInput).");
  const value: JsonValue | undefined = request.metadata?.[CONTEXT_BUDGET_REPORT_METADATA_KEY];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const report = value as Record<string, JsonValue>;
  return Array.isArray(report["omitted"]) &&
    typeof report["keptTokens"] === "number" &&
    typeof report["keptBytes"] === "number"
    ? (value as ContextBudgetReport)
    : undefined;
}
