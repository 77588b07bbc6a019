/**
 * Budget resolution and quantization for the tiered composer.
 * Every budget and ceiling the gate compares against is an integer or `Infinity`.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { BudgetConfig, BudgetResolverInput } from "./tier-gate-types.ts";

/** Share of the post-core budget that `active` sections may use. */
export const DEFAULT_ACTIVE_BUDGET_FRACTION = 0.95;

function checkConfig(config: BudgetConfig): void {
  if (config === null || typeof config !== "object") {
    throw new InvalidInputError("config", "expected a BudgetConfig object such as { depth: 0, totalBudget: 8000 }.");
  }
  const { depth } = config;
  if (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0) {
    throw new InvalidInputError(
      "config.depth",
      `must be a non-negative integer (0 = top level), got ${String(depth)}.`,
    );
  }
}

function quantizeBudget(value: unknown, field: string): number {
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new InvalidInputError(
      field,
      `must be a non-negative number of chars or Infinity (no limit), got ${typeof value === "number" ? String(value) : typeof value}.`,
    );
  }
  return value === Number.POSITIVE_INFINITY ? value : Math.floor(value);
}

/**
 * The budget the composer gates against. Precedence: `config.totalBudget`, then
 * `config.resolveBudget({ depth, runtimeRole })`, then `Infinity` (every candidate is kept).
 * Finite budgets are floored to an integer; a negative or NaN budget is an `InvalidInputError`.
 */
export function getEffectiveBudget(config: BudgetConfig): number {
  checkConfig(config);
  if (config.totalBudget !== undefined) return quantizeBudget(config.totalBudget, "config.totalBudget");
  if (config.resolveBudget !== undefined) {
    if (typeof config.resolveBudget !== "function") {
      throw new InvalidInputError("config.resolveBudget", "must be a function ({ depth, runtimeRole }) => number.");
    }
    const input: BudgetResolverInput =
      config.runtimeRole === undefined
        ? { depth: config.depth }
        : { depth: config.depth, runtimeRole: config.runtimeRole };
    return quantizeBudget(config.resolveBudget(input), "config.resolveBudget(...)");
  }
  return Number.POSITIVE_INFINITY;
}

/** `config.activeBudgetFraction` or the default, checked to lie in [0, 1]. */
export function getActiveBudgetFraction(config: BudgetConfig): number {
  const fraction = config.activeBudgetFraction;
  if (fraction === undefined) return DEFAULT_ACTIVE_BUDGET_FRACTION;
  if (typeof fraction !== "number" || !(fraction >= 0 && fraction <= 1)) {
    throw new InvalidInputError(
      "config.activeBudgetFraction",
      `must be a number from 0 to 1 (default ${DEFAULT_ACTIVE_BUDGET_FRACTION}), got ${String(fraction)}.`,
    );
  }
  return fraction;
}

/**
 * The spec's active-tier ceiling: `coreChars + Math.floor((budget - coreChars) * fraction)`,
 * capped at `budget`. The cap only binds when the core alone overflows the budget (otherwise
 * the formula is already ≤ budget because fraction ≤ 1); it keeps active sections placed
 * before the core from pushing non-core content past the budget. An infinite budget gives an
 * infinite ceiling (even with fraction 0, where the formula would be NaN).
 */
export function computeActiveCeiling(coreChars: number, budget: number, fraction: number): number {
  if (budget === Number.POSITIVE_INFINITY) return budget;
  return Math.min(budget, coreChars + Math.floor((budget - coreChars) * fraction));
}
