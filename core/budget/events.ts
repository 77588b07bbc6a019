/**
 * The structured event a composition emits (spec 001): forward it to a logger without
 * re-deriving section sizes.
 */
import type { ComposedPrompt } from "./composer.ts";

export interface PromptBuiltEvent {
  /** Number of included sections. */
  readonly sections: number;
  readonly totalChars: number;
  readonly totalTokensEst: number;
  readonly budgetUsedPct: number;
  readonly effectiveBudget: number;
  readonly sectionChars: Readonly<Record<string, number>>;
  /** Present only when something was dropped: ids in candidate order. */
  readonly dropped?: readonly string[];
  /** Present only when something was dropped: chars by dropped id. */
  readonly droppedChars?: Readonly<Record<string, number>>;
  /** Present only when core sections pushed the total over the budget: `totalChars - effectiveBudget`. */
  readonly overBudgetChars?: number;
}

/** The probe hooks `composeBudgetedPrompt` accepts. */
export interface ComposerProbes {
  /** Called once per composition, after the result is complete. Errors it throws propagate. */
  readonly onBuilt?: (event: PromptBuiltEvent) => void;
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
