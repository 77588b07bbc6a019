import { explainBudgetedPrompt } from "../../../core/index.ts";
import { computeActiveCeiling, type BudgetExplanationRow } from "../../../core/composer/index.ts";
import { type ReportTiers } from "../../../core/inspect/index.ts";

export interface GateAt {
  readonly budget: number;
  readonly rows: readonly BudgetExplanationRow[];
  readonly coreChars: number;
  readonly activeCeiling: number;
  readonly includedChars: number;
  readonly dropped: readonly BudgetExplanationRow[];
  /** Right end of the bar's scale. */
  readonly scale: number;
}

/** Sum of every candidate's chars: the budget at which nothing can drop. */
export const allChars = (t: ReportTiers) => t.rows.reduce((a, r) => a + r.chars, 0);

/** The slider's range: up to a quarter beyond what everything needs (or the request's budget). */
export const sliderMax = (t: ReportTiers) => Math.max(100, Math.ceil(allChars(t) * 1.25), t.effectiveBudget ?? 0);

/**
 * Re-runs core's tier gate on the report's rows at another budget. Only ids, tiers and sizes
 * are needed, so the report (which carries no section text) is enough; the arithmetic is core's.
 */
export function gateAt(t: ReportTiers, budget: number): GateAt {
  const rows = explainBudgetedPrompt(
    t.rows.map((r) => ({ id: r.id, tier: r.tier, chars: r.chars, content: "" })),
    { depth: 0, totalBudget: budget, activeBudgetFraction: t.activeBudgetFraction },
  );
  const coreChars = t.coreChars;
  const activeCeiling = computeActiveCeiling(coreChars, budget, t.activeBudgetFraction);
  const includedChars = rows.reduce((a, r) => a + (r.verdict === "included" ? r.chars : 0), 0);
  const scale = Math.max(budget, allChars(t), 1) * 1.04;
  return {
    budget,
    rows,
    coreChars,
    activeCeiling,
    includedChars,
    dropped: rows.filter((r) => r.verdict === "dropped"),
    scale,
  };
}
