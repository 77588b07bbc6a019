/**
 * The structured event a composition emits: forward it to a logger without
 * re-deriving section sizes.
 */
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
