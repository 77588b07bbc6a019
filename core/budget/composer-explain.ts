/**
 * `explainBudgetedPrompt`: why each candidate was kept or dropped. It runs the very gate the
 * composer runs (`runTierGate`), so a row's verdict always matches `composeBudgetedPrompt`.
 */
import { runTierGate } from "./tier-gate.ts";
import type { BudgetExplanationRow } from "./tier-gate-explain.ts";
import type { BudgetConfig, BudgetedSectionInput } from "./tier-gate-types.ts";

/**
 * One row per candidate, in candidate order: tier, chars, the running total before it, the limit
 * it was tested against (active ceiling or budget, with the numbers), the verdict and a short
 * reason. Plain JSON except that an unlimited budget appears as `Infinity`.
 */
export function explainBudgetedPrompt(
  candidates: readonly BudgetedSectionInput[],
  config: BudgetConfig,
): readonly BudgetExplanationRow[] {
  const rows: BudgetExplanationRow[] = [];
  runTierGate(candidates, config, rows);
  return rows;
}
