// Templates: `{{name}}` prompt templates, Jinja-style templates in a sandbox with hard limits, and
// the volatility lint that finds values which change every turn.
export { TemplateError } from "./errors.ts";
export { renderPromptTemplate } from "./prompt-template.ts";
export type { PromptTemplateOptions } from "./prompt-template.ts";
export { compileJinjaTemplate } from "./jinja/compile.ts";
export type { CompiledJinjaTemplate, JinjaCompileOptions } from "./jinja/compile.ts";
export {
  DEFAULT_TEMPLATE_LIMITS,
  TEMPLATE_ERROR_CODES,
  TEMPLATE_LIMIT_CODES,
  TemplateDeadlineError,
  TemplateLimitError,
  isTemplateLimitError,
  resolveTemplateLimits,
} from "./jinja/limits.ts";
export type { TemplateLimitCode, TemplateLimitName, TemplateLimits } from "./jinja/limits.ts";
export { renderCompiledJinjaTemplate, renderJinjaTemplate } from "./jinja/render.ts";
export type { JinjaRenderOptions, TemplateErrorMode } from "./jinja/render.ts";
export { strftimeUtc } from "./jinja/strftime.ts";
export { TEMPLATE_VOLATILE_VARIABLES, lintTemplateVolatility } from "./volatility.ts";
export {
  LITERAL_VOLATILITY_KINDS,
  MAX_FINDINGS,
  confirmLiteralChanges,
  lintLiteralVolatility,
} from "./literal-volatility.ts";
export type { LiteralText, LiteralVolatility, LiteralVolatilityKind } from "./literal-volatility.ts";
export type {
  TemplateVolatility,
  TemplateVolatilityWarning,
  VolatileVariable,
  VolatilityLintOptions,
} from "./volatility.ts";
