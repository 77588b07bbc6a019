/**
 * Strata's public API. Named re-exports only, grouped by pipeline stage;
 * types are exported separately from values.
 */

// errors
export {
  ContextBudgetError,
  HistoryValidationError,
  InvalidInputError,
  RequestFormatError,
  StrataError,
  TemplateError,
  TokenEstimatorError,
  UnsupportedModalityError,
} from "./errors.ts";
export type { ContextBudgetErrorDetails, HistoryIssue, RequestFormatIssue } from "./errors.ts";

// messages: the shapes every stage passes along
export {
  CONTENT_BLOCK_TYPES,
  MODALITIES,
  ROLES,
  assertMessagesSupportModelCapabilities,
  assistantMessage,
  blockModality,
  isContentBlockType,
  isRole,
  isTextBlock,
  isToolCallBlock,
  isToolResultBlock,
  messageText,
  systemMessage,
  textBlock,
  textMessage,
  toolCallBlock,
  toolCallsOf,
  toolResultBlock,
  toolResultMessage,
  toolResultsOf,
  userMessage,
} from "./messages/index.ts";
export type {
  AudioBlock,
  CacheMarker,
  ContentBlock,
  ContentBlockType,
  DocumentBlock,
  FileBlock,
  ImageBlock,
  JsonValue,
  Message,
  Modality,
  ModelCapabilities,
  ModelRef,
  Role,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
  ProviderRequest,
  ToolDefinition,
} from "./messages/index.ts";

// formats: JSON text in, with positions in errors
export { DEFAULT_MAX_JSON_DEPTH, findJsonSyntaxError, lineAndColumn, parseJson } from "./formats/json.ts";
export type { JsonParseResult, JsonSyntaxIssue } from "./formats/json.ts";

// ── issue 10: input, prompt, assembly, context budget, {{name}} templates ──
// input: the default input builder and its layouts
export {
  DEFAULT_INPUT_LAYOUT,
  EMPTY_TOOL_RESULT_TEXT,
  INPUT_ASSEMBLY_LAYOUTS,
  LAYOUT_GROUP_ORDER,
  createDefaultInputBuilder,
  flattenInputGroups,
  resolveInputLayout,
} from "./input/index.ts";
export type {
  AgentInput,
  DefaultInputBuildContext,
  DefaultInputBuilder,
  InputAssemblyLayout,
  InputAttachment,
  InputBuildContext,
  InputBuilder,
  InputGroups,
  InstructionsInput,
  LoadedResource,
  PromptInstruction,
  ResourceLoader,
  SummaryInput,
  ToolResultError,
  ToolResultInput,
} from "./input/index.ts";
// prompt: the default prompt builder, its text shapes and provenance labels
export {
  contextBlockMessage,
  createDefaultPromptBuilder,
  skillBodyMessage,
  skillCatalogRow,
  toolDeclarationsText,
} from "./prompt/index.ts";
export type {
  ContextBlock,
  ContextProvider,
  ContextResolutionContext,
  DefaultPromptBuilder,
  PromptBuildRequest,
  PromptBuilder,
  PromptSource,
  Skill,
  SourcedMessage,
  TailSegments,
} from "./prompt/index.ts";
// assemble: provider input, middleware hooks, request defaults, trace
export {
  MIDDLEWARE_HOOKS,
  applyDefaultProviderRequestOptions,
  assembleProviderInput,
  createMiddlewareRegistry,
  explainProviderInput,
  resolveContextProviders,
} from "./assemble/index.ts";
export type {
  AssembleProviderInputOptions,
  AssemblyTrace,
  AssemblyTraceRow,
  ExplainedProviderInput,
  Middleware,
  MiddlewareContext,
  MiddlewareHook,
  MiddlewarePayloads,
  MiddlewareRegistry,
  ProviderRequestDefaults,
  ResolveContextOptions,
} from "./assemble/index.ts";
// context budget: eviction, report, measurement
export {
  CONTEXT_BUDGET_OMISSION_KINDS,
  CONTEXT_BUDGET_REPORT_METADATA_KEY,
  applyContextBudget,
  getContextBudgetReport,
  resolveContextBudget,
} from "./budget/context-budget.ts";
export type { ApplyContextBudgetOptions, ContextBudgetResult } from "./budget/context-budget.ts";
export type {
  ContextBudget,
  ContextBudgetLimit,
  ContextBudgetOmission,
  ContextBudgetOmissionKind,
  ContextBudgetReport,
  ResolvedContextBudget,
} from "./budget/context-types.ts";
export { estimateTextTokens, measureMessage, messageMeasureText, utf8ByteLength } from "./budget/context-measure.ts";
export type { Measure, TokenEstimator } from "./budget/context-measure.ts";
// {{name}} prompt templates
export { renderPromptTemplate } from "./templates/prompt-template.ts";
export type { PromptTemplateOptions } from "./templates/prompt-template.ts";
// (end issue 10)

// ── issue 3: tiered budget composer, guidance, contributions, fingerprints ──
// tiered budget composer (spec 001)
export { SECTION_SEPARATOR, budgetUsedPercent, composeBudgetedPrompt } from "./budget/composer.ts";
export type { ComposedPrompt } from "./budget/composer.ts";
export { explainBudgetedPrompt } from "./budget/composer-explain.ts";
export { applyBudgetGate } from "./budget/tier-gate.ts";
export type { BudgetGateResult } from "./budget/tier-gate.ts";
export {
  DEFAULT_ACTIVE_BUDGET_FRACTION,
  computeActiveCeiling,
  getActiveBudgetFraction,
  getEffectiveBudget,
} from "./budget/tier-gate-config.ts";
export { BUDGETED_SECTION_ISSUES, BudgetedSectionError } from "./budget/tier-gate-errors.ts";
export type { BudgetedSectionIssue } from "./budget/tier-gate-errors.ts";
export { describeLimit } from "./budget/tier-gate-explain.ts";
export type { BudgetExplanationRow, BudgetLimit, BudgetVerdict } from "./budget/tier-gate-explain.ts";
export { PROMPT_TIERS } from "./budget/tier-gate-types.ts";
export type {
  BudgetConfig,
  BudgetResolver,
  BudgetResolverInput,
  BudgetedSection,
  BudgetedSectionInput,
  PromptTier,
  RuntimeRole,
  RuntimeRoles,
} from "./budget/tier-gate-types.ts";
export {
  DEFAULT_CONDENSE_DEPTH,
  DEFAULT_SKIP_INFORMATIONAL_DEPTH,
  shouldCondense,
  skipInformational,
  wouldFit,
} from "./budget/predicates.ts";
export { buildPromptBuiltEvent } from "./budget/events.ts";
export type { ComposerProbes, PromptBuiltEvent } from "./budget/events.ts";
export { fingerprintPrompt } from "./budget/fingerprint.ts";
export { sha256Hex, utf8Bytes, utf8Length } from "./cache/hash.ts";
// guidance and reference section builders
export {
  GUIDANCE_MATCH_MODES,
  createGuidanceRegistry,
  estimateGuidanceChars,
  resolveGuidance,
} from "./contributions/guidance.ts";
export type {
  GuidanceEntry,
  GuidanceMatchMode,
  GuidanceRegistry,
  ResolveGuidanceParams,
  ResolvedGuidance,
} from "./contributions/guidance.ts";
export { matchGlob } from "./contributions/glob.ts";
export {
  DEFAULT_RECENT_TOOL_ERRORS_LIMIT,
  DEFAULT_TOOL_ERROR_MESSAGE_CHARS,
  buildExhaustedToolsSection,
  buildRecentToolErrorsSection,
  buildToolGuidanceSection,
  buildUserRequestedToolsSection,
} from "./contributions/sections-tools.ts";
export type { ExhaustedTool, RecentToolErrorEntry, RecentToolErrorsOptions } from "./contributions/sections-tools.ts";
export {
  buildPriorTruncationRecoverySection,
  buildProviderErrorRecoverySection,
} from "./contributions/sections-recovery.ts";
export type { PriorTruncation, ProviderErrorInfo } from "./contributions/sections-recovery.ts";
// prompt contributions
export { ALL_CORE_FRAGMENT_TEMPLATE_IDS, isCoreFragmentTemplateId } from "./contributions/fragments.ts";
export type { CoreFragmentTemplateId } from "./contributions/fragments.ts";
export {
  appendPrompt,
  createPlugin,
  gatedPrompt,
  prependPersona,
  replaceCore,
  scopedPrompt,
} from "./contributions/helpers.ts";
export type {
  AppendPromptOptions,
  ContributionOptions,
  CreatePluginOptions,
  GatedPromptOptions,
  ReplaceCoreOptions,
  ScopedPromptOptions,
} from "./contributions/helpers.ts";
export { resolvePromptCandidates } from "./contributions/resolve.ts";
export { PROMPT_CONTRIBUTION_MODES, PROMPT_SLOTS } from "./contributions/types.ts";
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
} from "./contributions/types.ts";
// (end issue 3)

// ── issue 4: Jinja templates, prompt context, history validation, request pipeline ──
// templates: Jinja-style rendering in a sandbox with hard limits, prompt context, volatility lint
export {
  DEFAULT_TEMPLATE_LIMITS,
  PROMPT_CONTEXT_NAMESPACES,
  TEMPLATE_ERROR_CODES,
  TEMPLATE_LIMIT_CODES,
  TEMPLATE_VOLATILE_VARIABLES,
  TemplateLimitError,
  buildPromptContext,
  compileJinjaTemplate,
  isTemplateLimitError,
  lintTemplateVolatility,
  renderCompiledJinjaTemplate,
  renderJinjaTemplate,
  resolveTemplateLimits,
  strftimeUtc,
} from "./templates/index.ts";
export type {
  AssistantArguments,
  AssistantInfo,
  CompiledJinjaTemplate,
  ConversationArguments,
  ConversationInfo,
  JinjaCompileOptions,
  JinjaRenderOptions,
  MessageArguments,
  PromptContext,
  PromptContextInput,
  SystemArguments,
  TemplateErrorMode,
  TemplateLimitCode,
  TemplateLimitName,
  TemplateLimits,
  TemplateVolatility,
  TemplateVolatilityWarning,
  VolatileVariable,
  VolatilityLintOptions,
} from "./templates/index.ts";
// conversation: history validation, request pipeline, response language
export {
  CLIENT_LANGUAGE_KEY,
  HISTORY_ISSUE_CODES,
  MESSAGE_LANGUAGE_KEY,
  REQUEST_PIPELINE_STAGES,
  assertValidHistory,
  buildUserMessage,
  messageLanguage,
  preparePromptArgumentsForResponse,
  resolveResponseLanguage,
  runRequestPipeline,
  snapshotHistory,
  validateHistory,
} from "./conversation/index.ts";
export type {
  HistoryIssueCode,
  PromptArgumentSources,
  RequestPipelineInput,
  RequestPipelineResult,
  RequestPipelineStage,
  UserTextPacket,
} from "./conversation/index.ts";
// (end issue 4)

// ── issue 5: wire formats, cache analysis, cache simulation, inspect ──
// formats: detect + parse any request, convert to each wire format
export { DEFAULT_MAX_REQUEST_LENGTH, parseRequest, parseRequestValue } from "./formats/parse-request.ts";
export type { ParseRequestOptions, ParsedRequest } from "./formats/parse-request.ts";
export { DEFAULT_MAX_STRING_LENGTH, checkJsonValue } from "./formats/guard.ts";
export type { ValueLimits } from "./formats/guard.ts";
export { jsonPathAt } from "./formats/json-path.ts";
export { REQUEST_FORMATS, WIRE_FORMATS } from "./formats/types.ts";
export type { NormalizedRequest, RequestFormat, WireFormat } from "./formats/types.ts";
export { toAnthropic } from "./formats/anthropic.ts";
export type { ToAnthropicOptions } from "./formats/anthropic.ts";
export { toOpenAIChat } from "./formats/openai-chat.ts";
export { toOpenAIResponses } from "./formats/openai-responses.ts";
export { toGemini } from "./formats/gemini.ts";
export type {
  AssemblyRequest,
  AssemblyTemplate,
  ContextBudgetJson,
  TemplateTarget,
  TierBudgetJson,
} from "./formats/assembly-request.ts";
export { prepareAssembly, tierBudgetConfig } from "./formats/assembly-options.ts";
export type {
  PrepareAssemblyOptions,
  PreparedAssembly,
  PreparedTemplate,
  PreparedTiers,
} from "./formats/assembly-options.ts";
// cache: segments, prefix comparison, rules, simulation, fingerprints
export { canonicalJson } from "./cache/canonical.ts";
export { PROMPT_ORDER, segmentRequest, serializeRequest } from "./cache/segments.ts";
export type { SegmentOptions, SegmentedRequest } from "./cache/segments.ts";
export { compareRequests } from "./cache/compare.ts";
export type { CompareOptions, RequestLike } from "./cache/compare.ts";
export { CACHE_RULES, selectCacheRule } from "./cache/rules.ts";
export type { SelectedRule } from "./cache/rules.ts";
export { simulateCache } from "./cache/simulate.ts";
export type { SimulateOptions } from "./cache/simulate.ts";
export { simulateNextTurn } from "./cache/next-turn.ts";
export type { NextTurnOptions } from "./cache/next-turn.ts";
export { simulateAdjacentTurn } from "./cache/adjacent-turn.ts";
export type { AdjacentTurn, AdjacentTurnOptions } from "./cache/adjacent-turn.ts";
export { DEFAULT_SIMULATED_NEXT_INPUT, DEFAULT_SIMULATED_REPLY } from "./cache/turn-edit.ts";
export { applyBreakpoints, suggestCacheBreakpoints } from "./cache/breakpoints.ts";
export type { SuggestBreakpointsOptions } from "./cache/breakpoints.ts";
export { isFingerprintBundle, toFingerprintBundle } from "./cache/fingerprints.ts";
export { parseFingerprintBundle } from "./cache/fingerprint-schema.ts";
export { inferCacheProvider } from "./cache/provider.ts";
export { CACHE_PROVIDERS, DIVERGENCE_CAUSES } from "./cache/types.ts";
export type {
  AssemblyLayout,
  BreakpointSuggestion,
  CachePrevented,
  CacheProvider,
  CacheRule,
  CacheSimulation,
  CacheTurnResult,
  Divergence,
  DivergenceCause,
  DivergenceExcerpt,
  FingerprintBundle,
  LayoutNextTurn,
  NextTurnSimulation,
  PrefixComparison,
  PrefixSize,
  ReportSegment,
  Segment,
  SegmentKind,
  SegmentRegion,
} from "./cache/types.ts";
// inspect: the report every view draws
export { inspect } from "./inspect/inspect.ts";
export type { InspectOptions } from "./inspect/inspect.ts";
export { REPORT_VERSION } from "./inspect/types.ts";
export type {
  AssemblySection,
  ContextBudgetSection,
  DroppedItem,
  HistorySection,
  InspectionReport,
  InspectionSettings,
  LayoutTrace,
  ReportProblem,
  SegmentSection,
  TemplateSection,
  TierRow,
  TierSection,
  TracedMessage,
  VolatilityWarning as ReportVolatilityWarning,
} from "./inspect/types.ts";
// (end issue 5)
