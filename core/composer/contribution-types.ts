/**
 * Prompt contributions: what plugins hand the resolver, which turns them into ordered
 * `BudgetedSection` candidates for `composeBudgetedPrompt`.
 */
import type { PromptTier } from "./tier-gate-types.ts";
import type { CoreFragmentTemplateId } from "./fragments.ts";

/** Where a contribution lands. Slots compose in this order. */
export const PROMPT_SLOTS = ["persona", "core", "body"] as const;
export type PromptSlot = (typeof PROMPT_SLOTS)[number];

/** How a contribution is placed within its slot. */
export const PROMPT_CONTRIBUTION_MODES = ["prepend", "append", "replace"] as const;
export type PromptContributionMode = (typeof PROMPT_CONTRIBUTION_MODES)[number];

/**
 * What the resolver knows about the current call. `scope` holds static selectors (channel,
 * tenant, runtime role …) matched by `scopedPrompt`; `state` holds per-turn data read by
 * `gatedPrompt` predicates and content functions; `depth` turns on the depth predicates.
 */
export interface PromptRuntimeContext {
  readonly scope?: Readonly<Record<string, string>>;
  readonly state?: Readonly<Record<string, unknown>>;
  /** When set: `condensed` content is used at depth ≥ 2 and `informational` contributions are skipped at depth ≥ 3. */
  readonly depth?: number;
}

/** Static text, or text computed from the runtime context at resolve time. */
export type PromptContent = string | ((context: PromptRuntimeContext) => string);

/** A scope matches when, for every key, the context's value equals the string or is one of the list. */
export type PromptScope = Readonly<Record<string, string | readonly string[]>>;

/** Per-turn predicate; must return a boolean. */
export type PromptGate = (context: PromptRuntimeContext) => boolean;

interface ContributionBase {
  /** Section id suffix; the section id is `<plugin name>:<id>`. Defaults to `<mode>-<n>` (n counts the plugin's contributions). */
  readonly id?: string;
  readonly tier: PromptTier;
  readonly content: PromptContent;
  /** Alternative content used when the context's depth calls for condensing (depth ≥ 2). */
  readonly condensed?: PromptContent;
  readonly scope?: PromptScope;
  readonly when?: PromptGate;
}

export interface PlacedContribution extends ContributionBase {
  readonly mode: "prepend" | "append";
  readonly slot: PromptSlot;
}

/** Supplies the content of a core template fragment; the section id is the fragment id. */
export interface ReplaceContribution extends ContributionBase {
  readonly mode: "replace";
  readonly slot: "core";
  readonly fragmentId: CoreFragmentTemplateId;
}

export type PromptContribution = PlacedContribution | ReplaceContribution;

/** A plugin as far as prompts are concerned. */
export interface HarnessPlugin {
  /** Unique among the plugins of one resolution; prefixes the plugin's section ids. */
  readonly name: string;
  readonly contributePrompts?: () => readonly PromptContribution[];
  readonly contributeRuntimeAwarePrompts?: (context: PromptRuntimeContext) => readonly PromptContribution[];
}
