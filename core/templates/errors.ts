import { StrataError } from "../util/errors.ts";

/** A template failed to parse or render, or tripped a hard limit. `line`/`column` are 1-based when known. */
export class TemplateError extends StrataError {
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(
    code: string,
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
