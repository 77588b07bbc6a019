import { StrataError } from "../util/errors.ts";

/** Codes of `TemplateError` (and of `TemplateLimitError`, the limits). */
export type TemplateErrorCode =
  // `{{name}}` prompt templates
  | "invalid_template"
  | "invalid_variables"
  | "invalid_variable"
  | "invalid_options"
  | "missing_variable"
  // Jinja-style templates: see TEMPLATE_ERROR_CODES
  | "template_syntax_error"
  | "template_render_error"
  | "template_raised"
  // Jinja-style limits: see TEMPLATE_LIMIT_CODES
  | "template_too_long"
  | "template_loop_limit"
  | "template_output_limit"
  | "template_depth_limit"
  | "template_range_limit"
  | "template_work_limit"
  // the wall-clock guard of a Jinja render (`deadlineMs`)
  | "template_deadline";

/** A template failed to parse or render, or tripped a hard limit. `line`/`column` are 1-based when known. */
export class TemplateError extends StrataError<TemplateErrorCode> {
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    code: TemplateErrorCode,
    message: string,
    position?: { line?: number; column?: number },
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = "TemplateError";
    this.line = position?.line;
    this.column = position?.column;
  }
}
