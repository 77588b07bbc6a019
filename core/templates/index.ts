// Jinja-style templates (issue 4): rendering, limits, compiled templates, prompt context, volatility lint.
export { compileJinjaTemplate } from "./jinja-compile.ts";
export type { CompiledJinjaTemplate, JinjaCompileOptions } from "./jinja-compile.ts";
export {
  DEFAULT_TEMPLATE_LIMITS,
  TEMPLATE_ERROR_CODES,
  TEMPLATE_LIMIT_CODES,
  TemplateLimitError,
  isTemplateLimitError,
  resolveTemplateLimits,
} from "./jinja-limits.ts";
export type { TemplateLimitCode, TemplateLimitName, TemplateLimits } from "./jinja-limits.ts";
export { renderCompiledJinjaTemplate, renderJinjaTemplate } from "./jinja-render.ts";
export type { JinjaRenderOptions, TemplateErrorMode } from "./jinja-render.ts";
export { strftimeUtc } from "./jinja-strftime.ts";
export { PROMPT_CONTEXT_NAMESPACES, buildPromptContext } from "./prompt-context.ts";
export type {
  AssistantArguments,
  AssistantInfo,
  ConversationArguments,
  ConversationInfo,
  MessageArguments,
  PromptContext,
  PromptContextInput,
} from "./prompt-context.ts";
export type { SystemArguments } from "./system-clock.ts";
export { TEMPLATE_VOLATILE_VARIABLES, lintTemplateVolatility } from "./volatility.ts";
export type {
  VolatileVariable,
  TemplateVolatility,
  VolatilityLintOptions,
  TemplateVolatilityWarning,
} from "./volatility.ts";
