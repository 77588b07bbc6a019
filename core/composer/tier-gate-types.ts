/**
 * Shapes of the tiered budget composer: sections, tiers and budget config.
 */

/** Drop priority of a prompt section: `core` is never dropped, `informational` drops first. */
export const PROMPT_TIERS = ["core", "active", "informational"] as const;
export type PromptTier = (typeof PROMPT_TIERS)[number];

/** One candidate section of a system prompt, as the composer sees it. */
export interface BudgetedSection {
  /** Unique among the candidates of one composition. */
  readonly id: string;
  readonly content: string;
  readonly tier: PromptTier;
  /** Size the budget counts; canonically `content.length` (UTF-16 code units). A non-negative integer. */
  readonly chars: number;
}

/** A candidate as callers may pass it: `chars` may be omitted and defaults to `content.length`. */
export interface BudgetedSectionInput {
  readonly id: string;
  readonly content: string;
  readonly tier: PromptTier;
  readonly chars?: number;
}

/**
 * Runtime roles a budget resolver can branch on. Empty by default, so `runtimeRole` is any string;
 * a host narrows it with module augmentation:
 * `declare module "prompt-strata" { interface RuntimeRoles { planner: true; worker: true } }`.
 */
// oxlint-disable-next-line typescript/no-empty-interface, typescript/no-empty-object-type
export interface RuntimeRoles {}

/** `keyof RuntimeRoles` once a host declares roles; any string until then. */
export type RuntimeRole = [keyof RuntimeRoles] extends [never] ? string : Extract<keyof RuntimeRoles, string>;

/** What a budget resolver is asked about. `runtimeRole` is present only when the config sets it. */
export interface BudgetResolverInput {
  readonly depth: number;
  readonly runtimeRole?: RuntimeRole;
}

/** Maps a composition's depth (and role) to a char budget. May return `Infinity` for "no limit". */
export type BudgetResolver = (input: BudgetResolverInput) => number;

export interface BudgetConfig {
  /** Nesting depth of the call (0 = top level); passed to `resolveBudget` and the depth predicates. */
  readonly depth: number;
  readonly runtimeRole?: RuntimeRole;
  readonly resolveBudget?: BudgetResolver;
  /** Direct budget in chars; wins over `resolveBudget`. Fractions are floored; `Infinity` means no limit. */
  readonly totalBudget?: number;
  /** Share of the budget left after `core` that `active` sections may fill. In [0, 1]; default 0.95. */
  readonly activeBudgetFraction?: number;
}
