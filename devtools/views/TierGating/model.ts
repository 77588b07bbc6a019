import {
  applyBudgetGate,
  explainBudgetedPrompt,
  type BudgetConfig,
  type BudgetExplanationRow,
  type BudgetGateResult,
} from "../../../core/composer/index.ts";
import { type ReportTiers } from "../../../core/inspect/index.ts";

/** Core's gate result at one budget, with the explanation rows the view draws. */
export interface GateAt
  extends Pick<
    BudgetGateResult,
    "effectiveBudget" | "coreChars" | "activeCeiling" | "totalChars" | "overflowed" | "overBudgetChars"
  > {
  readonly rows: readonly BudgetExplanationRow[];
  /** The rows of the dropped candidates, in candidate order. */
  readonly droppedRows: readonly BudgetExplanationRow[];
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
  const candidates = t.rows.map((r) => ({ id: r.id, tier: r.tier, chars: r.chars, content: "" }));
  const config: BudgetConfig = { depth: 0, totalBudget: budget, activeBudgetFraction: t.activeBudgetFraction };
  const gate = applyBudgetGate(candidates, config);
  const rows = explainBudgetedPrompt(candidates, config);
  return {
    effectiveBudget: gate.effectiveBudget,
    coreChars: gate.coreChars,
    activeCeiling: gate.activeCeiling,
    totalChars: gate.totalChars,
    overflowed: gate.overflowed,
    overBudgetChars: gate.overBudgetChars,
    rows,
    droppedRows: rows.filter((r) => r.verdict === "dropped"),
    scale: Math.max(gate.effectiveBudget, allChars(t), 1) * 1.04,
  };
}
