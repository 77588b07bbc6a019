// Prompt assembly: the input builder and its layouts, the prompt builder, middleware hooks,
// context budgets (eviction and report) and the provider input they make together.
export { ContextBudgetError } from "./errors.ts";
export type { ContextBudgetErrorDetails } from "./errors.ts";
export { assembleProviderInput, explainProviderInput } from "./assemble.ts";
export { resolveContextProviders } from "./context-providers.ts";
export type { ResolveContextOptions } from "./context-providers.ts";
export { MIDDLEWARE_HOOKS } from "./types.ts";
export { createMiddlewareRegistry } from "./middleware.ts";
export type { Middleware, MiddlewareContext, MiddlewareHook, MiddlewarePayloads, MiddlewareRegistry } from "./types.ts";
export { applyDefaultProviderRequestOptions } from "./request-defaults.ts";
export type { ProviderRequestDefaults } from "./request-defaults.ts";
export type { AssemblyTrace, AssemblyTraceRow, ExplainedProviderInput } from "./trace.ts";
export type { AssembleProviderInputOptions } from "./types.ts";
export { createDefaultInputBuilder } from "./input-builder.ts";
export type { InputGroups } from "./input-groups.ts";
export { LAYOUT_GROUP_ORDER, flattenInputGroups, resolveInputLayout } from "./layouts.ts";
export { EMPTY_TOOL_RESULT_TEXT } from "./input-shapes.ts";
export { DEFAULT_INPUT_LAYOUT, INPUT_ASSEMBLY_LAYOUTS } from "./types.ts";
export type {
  AgentInput,
  DefaultInputBuildContext,
  DefaultInputBuilder,
  InputAssemblyLayout,
  InputAttachment,
  InputBuildContext,
  InputBuilder,
  InstructionsInput,
  LoadedResource,
  PromptInstruction,
  ResourceLoader,
  SummaryInput,
  ToolResultError,
  ToolResultInput,
} from "./types.ts";
export { createDefaultPromptBuilder } from "./prompt-builder.ts";
export {
  contextBlockMessage,
  skillBodyMessage,
  skillCatalogRow,
  toolDeclarationsText,
} from "./prompt-shapes.ts";
export type { PromptSource, SourcedMessage } from "./sources.ts";
export type {
  ContextBlock,
  ContextProvider,
  ContextResolutionContext,
  DefaultPromptBuilder,
  PromptBuildRequest,
  PromptBuilder,
  Skill,
  TailSegments,
} from "./types.ts";

// context budget: eviction, report, measurement
export {
  CONTEXT_BUDGET_OMISSION_KINDS,
  CONTEXT_BUDGET_REPORT_METADATA_KEY,
  applyContextBudget,
  getContextBudgetReport,
  resolveContextBudget,
} from "./context-budget.ts";
export type { ApplyContextBudgetOptions, ContextBudgetResult } from "./context-budget.ts";
export type {
  ContextBudget,
  ContextBudgetLimit,
  ContextBudgetOmission,
  ContextBudgetOmissionKind,
  ContextBudgetReport,
  ResolvedContextBudget,
} from "./context-types.ts";
export { measureMessage, messageMeasureText } from "./context-measure.ts";
export type { Measure } from "./context-measure.ts";
export { estimateTextTokens } from "../tokens/estimate.ts";
export type { TokenEstimator } from "../tokens/estimate.ts";
export { renderPromptTemplate } from "../templates/prompt-template.ts";
export type { PromptTemplateOptions } from "../templates/prompt-template.ts";
