/**
 * `explainBudgetedPrompt`: why each candidate was kept or dropped. It runs the very gate the
 * composer runs (`runTierGate`) and turns each of its decisions into a row, so a row's verdict
 * always matches `composeBudgetedPrompt`.
 */
import { runTierGate } from "./tier-gate.ts";
import { explainRow } from "./tier-gate-explain.ts";
import type { BudgetExplanationRow, BudgetLimit } from "./tier-gate-explain.ts";
import type { BudgetConfig, BudgetedSection, BudgetedSectionInput } from "./tier-gate-types.ts";

/**
 * One row per candidate, in candidate order: tier, chars, the running total before it, the limit
 * it was tested against (active ceiling or budget, with the numbers), the verdict and a short
 * reason. Plain JSON except that an unlimited budget appears as `Infinity`.
 */
export function explainBudgetedPrompt(
  candidates: readonly BudgetedSectionInput[],
  config: BudgetConfig,
): readonly BudgetExplanationRow[] {
  const decisions: { readonly section: BudgetedSection; readonly totalBefore: number; readonly included: boolean }[] =
    [];
  const gate = runTierGate(candidates, config, (section, totalBefore, included) =>
    decisions.push({ section, totalBefore, included }),
  );
  const { effectiveBudget } = gate;
  // The limits are known once the gate has summed the core; rows of one tier share one limit.
  const active: BudgetLimit = {
    kind: "active_ceiling",
    value: gate.activeCeiling,
    budget: effectiveBudget,
    coreChars: gate.coreChars,
    fraction: gate.activeBudgetFraction,
  };
  const budget: BudgetLimit = { kind: "budget", value: effectiveBudget };
  return decisions.map(({ section, totalBefore, included }, i) => {
    const limit: BudgetLimit = section.tier === "core" ? { kind: "none" } : section.tier === "active" ? active : budget;
    return explainRow(i, section.id, section.tier, section.chars, totalBefore, limit, included, effectiveBudget);
  });
}
