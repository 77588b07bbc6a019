/**
 * Rows of the "why kept / why dropped" explanation. They are built from the tier gate's own
 * decisions (`runTierGate`'s `onDecision`, see composer-explain.ts), so an explanation can never
 * disagree with the composer; the composer itself never reaches this text.
 */
import type { PromptTier } from "./tier-gate-types.ts";

/** The limit a candidate was tested against. */
export type BudgetLimit =
  /** `core` sections are never tested: they are always included. */
  | { readonly kind: "none" }
  /** `active` sections: `totalBefore + chars <= value`. */
  | {
      readonly kind: "active_ceiling";
      /** The ceiling: `min(budget, coreChars + floor((budget - coreChars) * fraction))`, or Infinity. */
      readonly value: number;
      readonly budget: number;
      readonly coreChars: number;
      readonly fraction: number;
    }
  /** `informational` sections: `totalBefore + chars <= value`. */
  | { readonly kind: "budget"; readonly value: number };

export type BudgetVerdict = "included" | "dropped";

/** One candidate's fate, in candidate order. */
export interface BudgetExplanationRow {
  /** Position in the candidate list. */
  readonly index: number;
  readonly id: string;
  readonly tier: PromptTier;
  readonly chars: number;
  /** Sum of the `chars` of sections included before this one. */
  readonly totalBefore: number;
  readonly limit: BudgetLimit;
  readonly verdict: BudgetVerdict;
  /** Running total after this candidate (equals `totalBefore` when it was dropped). */
  readonly totalAfter: number;
  /** One short sentence, e.g. `active: 40 + 45 = 85 > active ceiling 81`. */
  readonly reason: string;
}

function formatNumber(value: number): string {
  return value === Number.POSITIVE_INFINITY ? "Infinity" : String(value);
}

/** `active ceiling 72 = 10 + floor((100 - 10) * 0.7)`, with the cap or infinity spelled out. */
export function describeLimit(limit: BudgetLimit): string {
  switch (limit.kind) {
    case "none":
      return "no limit";
    case "budget":
      return `budget ${formatNumber(limit.value)}`;
    case "active_ceiling": {
      if (limit.value === Number.POSITIVE_INFINITY) return "active ceiling Infinity (no budget)";
      const formula = `${limit.coreChars} + floor((${limit.budget} - ${limit.coreChars}) * ${limit.fraction})`;
      const capped = limit.coreChars + Math.floor((limit.budget - limit.coreChars) * limit.fraction) > limit.budget;
      return capped
        ? `active ceiling ${limit.value} (${formula} capped at the budget, which the core alone exceeds)`
        : `active ceiling ${limit.value} = ${formula}`;
    }
  }
}

export function explainRow(
  index: number,
  id: string,
  tier: PromptTier,
  chars: number,
  totalBefore: number,
  limit: BudgetLimit,
  included: boolean,
  budget: number,
): BudgetExplanationRow {
  const totalAfter = included ? totalBefore + chars : totalBefore;
  let reason: string;
  if (limit.kind === "none") {
    reason =
      totalAfter > budget
        ? `core: always included; the total is now ${totalAfter}, over the budget of ${budget} by ${totalAfter - budget}`
        : "core: always included";
  } else if (limit.value === Number.POSITIVE_INFINITY) {
    reason = `${tier}: included, no budget is set`;
  } else {
    reason = `${tier}: ${totalBefore} + ${chars} = ${totalBefore + chars} ${included ? "<=" : ">"} ${describeLimit(limit)}`;
  }
  return { index, id, tier, chars, totalBefore, limit, verdict: included ? "included" : "dropped", totalAfter, reason };
}
