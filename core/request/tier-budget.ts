/** A tier budget as the composer takes it: the request's `tierBudget` with an override merged in. */
import type { BudgetConfig } from "../composer/tier-gate-types.ts";
import type { TierBudgetJson } from "./assembly-request.ts";

export function tierBudgetConfig(
  json: TierBudgetJson | undefined,
  override?: number | null | TierBudgetJson,
): BudgetConfig {
  const merged: TierBudgetJson =
    override === undefined
      ? (json ?? {})
      : typeof override === "number" || override === null
        ? { ...json, totalBudget: override }
        : { ...json, ...override };
  const config: { -readonly [K in keyof BudgetConfig]: BudgetConfig[K] } = { depth: merged.depth ?? 0 };
  if (merged.runtimeRole !== undefined) config.runtimeRole = merged.runtimeRole;
  if (merged.totalBudget !== undefined)
    config.totalBudget = merged.totalBudget === null ? Number.POSITIVE_INFINITY : merged.totalBudget;
  if (merged.activeBudgetFraction !== undefined) config.activeBudgetFraction = merged.activeBudgetFraction;
  return config;
}
