/**
 * prompt-strata: assemble LLM prompts deterministically and see exactly what was assembled.
 *
 * The root entry holds what most users need to build a prompt: messages, assembly with context
 * budgets, the tiered composer, `{{name}}` templates and the errors. Everything else is a subpath
 * entry, so an import pays only for what it uses (none of these pull in the Jinja engine or zod):
 *
 *   prompt-strata/assembly      input and prompt builders, layouts, middleware, context budgets
 *   prompt-strata/composer      tier gate, guidance, section builders, contributions
 *   prompt-strata/templates     Jinja-style templates with limits, volatility lint
 *   prompt-strata/conversation  history rules, request pipeline, prompt arguments, language
 *   prompt-strata/formats       read and write provider wire formats
 *   prompt-strata/request       Strata's AssemblyRequest JSON: parseRequest (it or any wire format)
 *   prompt-strata/cache         segments, stable-prefix comparison, cache rules and simulator
 *   prompt-strata/inspect       inspect(): one request → one plain-JSON report
 *   prompt-strata/session       a recorded session (HAR, JSONL) → threads, cache busts, usage and cost
 */

import type { ContextBudgetError } from "./assembly/errors.ts";
import type { HistoryValidationError } from "./conversation/errors.ts";
import type { RequestFormatErrorCode } from "./formats/errors.ts";
import type { UnsupportedModalityError } from "./messages/errors.ts";
import type { TemplateErrorCode } from "./templates/errors.ts";
import type { TokenEstimatorError } from "./tokens/errors.ts";
import type { InvalidInputCode } from "./util/errors.ts";

// errors: every error Strata throws on purpose
export { StrataError, InvalidInputError } from "./util/errors.ts";
export type { InvalidInputCode } from "./util/errors.ts";
export type { RequestFormatErrorCode } from "./formats/errors.ts";
export type { TemplateErrorCode } from "./templates/errors.ts";
export { UnsupportedModalityError } from "./messages/errors.ts";
export { RequestFormatError } from "./formats/errors.ts";
export type { RequestFormatIssue } from "./formats/errors.ts";
export { TokenEstimatorError } from "./tokens/errors.ts";
export { TemplateError } from "./templates/errors.ts";
export { ContextBudgetError } from "./assembly/errors.ts";
export { BudgetedSectionError } from "./composer/tier-gate-errors.ts";
export { HistoryValidationError } from "./conversation/errors.ts";

/** Every `code` a Strata error can carry: switch on it after `error instanceof StrataError`. */
export type StrataErrorCode =
  | InvalidInputCode
  | RequestFormatErrorCode
  | TemplateErrorCode
  | TokenEstimatorError["code"]
  | UnsupportedModalityError["code"]
  | ContextBudgetError["code"]
  | HistoryValidationError["code"];

// messages: the shapes every stage passes along
export {
  assistantMessage,
  messageText,
  systemMessage,
  textBlock,
  textMessage,
  toolCallBlock,
  toolResultBlock,
  toolResultMessage,
  userMessage,
} from "./messages/build.ts";
export type {
  ContentBlock,
  JsonValue,
  Message,
  ModelCapabilities,
  ModelRef,
  Role,
} from "./messages/types.ts";
export type { ProviderRequest, ToolDefinition } from "./messages/request.ts";

// assembly: the provider input, with context budgets
export { assembleProviderInput, explainProviderInput } from "./assembly/assemble.ts";
export type { AssembleProviderInputOptions } from "./assembly/types.ts";
export type { AssemblyTrace, ExplainedProviderInput } from "./assembly/trace.ts";
export { createMiddlewareRegistry } from "./assembly/middleware.ts";
export type { AgentInput, InputAssemblyLayout } from "./assembly/types.ts";
export { getContextBudgetReport } from "./assembly/context-budget.ts";
export type { ContextBudget, ContextBudgetReport } from "./assembly/context-types.ts";
export { renderPromptTemplate } from "./templates/prompt-template.ts";

// composer: the tiered system prompt
export { composeBudgetedPrompt } from "./composer/composer.ts";
export { explainBudgetedPrompt } from "./composer/composer-explain.ts";
export type { ComposedPrompt, ComposerWarning } from "./composer/composer.ts";
export type { BudgetConfig, BudgetedSectionInput, PromptTier } from "./composer/tier-gate-types.ts";
