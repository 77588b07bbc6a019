/**
 * `composeBudgetedPrompt`: gate the candidates by tier against the resolved budget
 * and join what is kept with "\n\n". Same candidates + same budget → byte-identical output.
 */
import { putOwn } from "../util/plain-object.ts";
import type { ComposerProbes, PromptBuiltEvent } from "./events.ts";
import { runTierGate } from "./tier-gate.ts";
import type { BudgetGateResult } from "./tier-gate.ts";
import type { BudgetedSection, BudgetedSectionInput, BudgetConfig } from "./tier-gate-types.ts";

/** Separator between included sections in `composed`. Not counted in `totalChars`. */
export const SECTION_SEPARATOR = "\n\n";

/**
 * Something the result is right about but the caller may not expect. `core_after_non_core`: the
 * result is over budget and this core section comes after non-core sections that were included
 * before it (the gate never reorders, so they took room that core needed; put core sections first).
 */
export interface ComposerWarning {
  readonly code: "core_after_non_core";
  /** The core section's id and its index among the candidates' included sections. */
  readonly id: string;
  readonly index: number;
  readonly message: string;
}

/** The gate's decision (see `BudgetGateResult`) plus the joined text and derived numbers. */
export interface ComposedPrompt extends Omit<BudgetGateResult, "droppedSections"> {
  /** `included.map(s => s.content).join("\n\n")`. */
  readonly composed: string;
  /** `Math.ceil(totalChars / 4)`. */
  readonly totalTokensEst: number;
  /**
   * `totalChars / effectiveBudget × 100`, rounded to 2 decimals. 0 when the budget is infinite
   * (nothing measurable is used of an unlimited budget) or when nothing is included. Above 100
   * only when core sections overflow the budget; with a budget of 0 and included content it is
   * `Infinity`.
   */
  readonly budgetUsedPct: number;
  /** Chars of each included section, by id (computed on first read). Use `included` for order. */
  readonly sectionChars: Readonly<Record<string, number>>;
  /** Chars of each dropped section, by id (computed on first read). */
  readonly droppedChars: Readonly<Record<string, number>>;
  /** Ordering problems the caller can fix (empty when there are none). */
  readonly warnings: readonly ComposerWarning[];
}

/** Core sections after included non-core ones in a result that went over budget (see `ComposerWarning`). */
function orderWarnings(included: readonly BudgetedSection[], overflowed: boolean): ComposerWarning[] {
  const warnings: ComposerWarning[] = [];
  if (!overflowed) return warnings;
  let nonCore = 0;
  let nonCoreChars = 0;
  for (let i = 0; i < included.length; i++) {
    const s = included[i]!;
    if (s.tier !== "core") {
      nonCore++;
      nonCoreChars += s.chars;
    } else if (nonCore > 0)
      warnings.push({
        code: "core_after_non_core",
        id: s.id,
        index: i,
        message: `core section "${s.id}" comes after ${nonCore} non-core section(s) (${nonCoreChars} chars) that were included first, and the prompt is over budget: put core sections first so the gate can drop the others instead.`,
      });
  }
  return warnings;
}

/** Percentage of the budget used, as documented on `ComposedPrompt.budgetUsedPct`. */
export function budgetUsedPercent(totalChars: number, effectiveBudget: number): number {
  if (totalChars === 0 || effectiveBudget === Number.POSITIVE_INFINITY) return 0;
  if (effectiveBudget === 0) return Number.POSITIVE_INFINITY;
  return Math.round((totalChars / effectiveBudget) * 10_000) / 100;
}

/** A plain record of chars by id, safe for any id (including "__proto__"). */
function charsById(sections: readonly BudgetedSection[]): Record<string, number> {
  const record: Record<string, number> = {};
  for (let i = 0; i < sections.length; i++) putOwn(record, sections[i]!.id, sections[i]!.chars);
  return record;
}

/**
 * Composes a system prompt from ordered candidates. One pass in caller order: `core` is always
 * included, `active` while the running total stays within the active ceiling, `informational`
 * while it stays within the budget. Never reorders; a `core` section over budget is still
 * included and the result says so (`overflowed`, `overBudgetChars`). Throws
 * `BudgetedSectionError` for a malformed candidate and `InvalidInputError` for a bad config.
 */
export function composeBudgetedPrompt(
  candidates: readonly BudgetedSectionInput[],
  config: BudgetConfig,
  probes?: ComposerProbes,
): ComposedPrompt {
  const gate = runTierGate(candidates, config);
  const { included, droppedSections, totalChars, effectiveBudget } = gate;
  // Building a 100k-key record costs more than the join itself; do it only if someone reads it.
  let sectionChars: Record<string, number> | undefined;
  let droppedChars: Record<string, number> | undefined;
  const result: ComposedPrompt = {
    composed: gate.contents.join(SECTION_SEPARATOR),
    included,
    dropped: gate.dropped,
    totalChars,
    totalTokensEst: Math.ceil(totalChars / 4),
    effectiveBudget,
    budgetUsedPct: budgetUsedPercent(totalChars, effectiveBudget),
    get sectionChars() {
      return (sectionChars ??= charsById(included));
    },
    get droppedChars() {
      return (droppedChars ??= charsById(droppedSections));
    },
    coreChars: gate.coreChars,
    activeCeiling: gate.activeCeiling,
    activeBudgetFraction: gate.activeBudgetFraction,
    overflowed: gate.overflowed,
    overBudgetChars: gate.overBudgetChars,
    warnings: orderWarnings(included, gate.overflowed),
  };
  probes?.onBuilt?.(buildPromptBuiltEvent(result));
  return result;
}

/** Builds the `PromptBuiltEvent` for a composed prompt (the same event `probes.onBuilt` receives). */
export function buildPromptBuiltEvent(result: ComposedPrompt): PromptBuiltEvent {
  const base = {
    sections: result.included.length,
    totalChars: result.totalChars,
    totalTokensEst: result.totalTokensEst,
    budgetUsedPct: result.budgetUsedPct,
    effectiveBudget: result.effectiveBudget,
    sectionChars: result.sectionChars,
  };
  const dropped = result.dropped.length > 0 ? { dropped: result.dropped, droppedChars: result.droppedChars } : {};
  const over = result.overBudgetChars > 0 ? { overBudgetChars: result.overBudgetChars } : {};
  return { ...base, ...dropped, ...over };
}
