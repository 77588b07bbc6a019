// The tiered budget composer: core / active / informational sections gated by a character budget,
// its explanation, guidance, section builders and prompt contributions.
export { SECTION_SEPARATOR, budgetUsedPercent, composeBudgetedPrompt } from "./composer.ts";
export type { ComposedPrompt, ComposerWarning } from "./composer.ts";
export { explainBudgetedPrompt } from "./composer-explain.ts";
export { applyBudgetGate } from "./tier-gate.ts";
export type { BudgetGateResult } from "./tier-gate.ts";
export {
  DEFAULT_ACTIVE_BUDGET_FRACTION,
  computeActiveCeiling,
  getActiveBudgetFraction,
  getEffectiveBudget,
} from "./tier-gate-config.ts";
export { BUDGETED_SECTION_ISSUES, BudgetedSectionError } from "./tier-gate-errors.ts";
export type { BudgetedSectionIssue } from "./tier-gate-errors.ts";
export { describeLimit } from "./tier-gate-explain.ts";
export type { BudgetExplanationRow, BudgetLimit, BudgetVerdict } from "./tier-gate-explain.ts";
export { PROMPT_TIERS } from "./tier-gate-types.ts";
export { splitPromptSections } from "./prompt-sections.ts";
export type { PromptSection } from "./prompt-sections.ts";
export type {
  BudgetConfig,
  BudgetResolver,
  BudgetResolverInput,
  BudgetedSection,
  BudgetedSectionInput,
  PromptTier,
  RuntimeRole,
  RuntimeRoles,
} from "./tier-gate-types.ts";
export {
  DEFAULT_CONDENSE_DEPTH,
  DEFAULT_SKIP_INFORMATIONAL_DEPTH,
  shouldCondense,
  skipInformational,
  wouldFit,
} from "./predicates.ts";
export { buildPromptBuiltEvent } from "./composer.ts";
export type { ComposerProbes, PromptBuiltEvent } from "./events.ts";

// guidance and section builders
export { GUIDANCE_MATCH_MODES, createGuidanceRegistry, resolveGuidance } from "./guidance.ts";
export { estimateGuidanceChars } from "./sections-tools.ts";
export type {
  GuidanceEntry,
  GuidanceMatchMode,
  GuidanceRegistry,
  ResolveGuidanceParams,
  ResolvedGuidance,
} from "./guidance.ts";
export { matchGlob } from "../util/glob.ts";
export {
  DEFAULT_RECENT_TOOL_ERRORS_LIMIT,
  DEFAULT_TOOL_ERROR_MESSAGE_CHARS,
  buildExhaustedToolsSection,
  buildRecentToolErrorsSection,
  buildToolGuidanceSection,
  buildUserRequestedToolsSection,
} from "./sections-tools.ts";
export type { ExhaustedTool, RecentToolErrorEntry, RecentToolErrorsOptions } from "./sections-tools.ts";
export { buildPriorTruncationRecoverySection, buildProviderErrorRecoverySection } from "./sections-recovery.ts";
export type { PriorTruncation, ProviderErrorInfo } from "./sections-recovery.ts";

// prompt contributions
export { ALL_CORE_FRAGMENT_TEMPLATE_IDS, isCoreFragmentTemplateId } from "./fragments.ts";
export type { CoreFragmentTemplateId } from "./fragments.ts";
export { appendPrompt, createPlugin, gatedPrompt, prependPersona, replaceCore, scopedPrompt } from "./contributions.ts";
export type {
  AppendPromptOptions,
  ContributionOptions,
  CreatePluginOptions,
  GatedPromptOptions,
  ReplaceCoreOptions,
  ScopedPromptOptions,
} from "./contributions.ts";
export { resolvePromptCandidates } from "./resolve.ts";
export { PROMPT_CONTRIBUTION_MODES, PROMPT_SLOTS } from "./contribution-types.ts";
export type {
  HarnessPlugin,
  PlacedContribution,
  PromptContent,
  PromptContribution,
  PromptContributionMode,
  PromptGate,
  PromptRuntimeContext,
  PromptScope,
  PromptSlot,
  ReplaceContribution,
} from "./contribution-types.ts";
