/**
 * `renderJinjaTemplate`: Jinja-style prompt templates (variables, attribute and index access,
 * if/elif/else, for with `loop.*`, set, macros, filters and tests of real chat templates) on
 * @huggingface/jinja, inside Strata's sandbox and hard limits.
 *
 * Error policy ("parse or execute error returns the original template string"):
 * - `onError: "original"` (default) returns the template unchanged on a syntax or render error
 *   and calls `onErrorReport(error)` so the caller still learns about it;
 * - `onError: "throw"` throws the `TemplateError` (`code`, `line`, `column`);
 * - a LIMIT error (`TemplateLimitError`) or a passed deadline (`TemplateDeadlineError`) is always
 *   thrown: returning the template would hide that the render was cut short by a possibly hostile
 *   template;
 * - invalid arguments or options (`InvalidInputError`) are caller bugs and always thrown.
 */
import { Environment } from "./vendor/huggingface-jinja.js";
import { InvalidInputError } from "../../util/errors.ts";
import { TemplateError } from "../errors.ts";
import type { CompiledJinjaTemplate, JinjaCompileOptions } from "./compile.ts";
import { compileJinjaTemplate } from "./compile.ts";
import { toTemplateValues } from "./data.ts";
import { RenderGuard, guardedRange } from "./guard.ts";
import { RaisedByTemplate, SandboxedInterpreter } from "./interpreter.ts";
import { TEMPLATE_ERROR_CODES, TemplateDeadlineError, isTemplateLimitError, resolveDeadline } from "./limits.ts";
import { strftimeUtc } from "./strftime.ts";
import { asValue, isLoopControl } from "./values.ts";
import { isDate } from "../../util/plain-object.ts";

export type TemplateErrorMode = "original" | "throw";

export interface JinjaRenderOptions extends JinjaCompileOptions {
  /** `"original"` (default): return the template on a syntax/render error. `"throw"`: throw it. */
  readonly onError?: TemplateErrorMode;
  /** Called with every error `onError: "original"` swallows. */
  readonly onErrorReport?: (error: TemplateError) => void;
  /** Template variable defaults; runtime `args` win over them (top-level keys). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /**
   * Clock for `strftime_now(format)` (UTC, English names). Without it `strftime_now` is
   * undefined, so `{% if strftime_now is defined %}` takes its fallback.
   */
  readonly now?: Date;
  /**
   * Wall-clock guard: a render still running this many milliseconds after it started throws
   * `TemplateDeadlineError` (code `template_deadline`), checked where work is charged. Output is
   * unchanged when it does not trip. Default: none (`inspect` passes 1,000).
   */
  readonly deadlineMs?: number;
  /** The deadline's clock in milliseconds (default `performance.now`); only with `deadlineMs`. */
  readonly clock?: () => number;
}

function checkOptions(options: JinjaRenderOptions): void {
  if (typeof options !== "object" || options === null) throw new InvalidInputError("options", "must be an object.");
  if (options.onError !== undefined && options.onError !== "original" && options.onError !== "throw") {
    throw new InvalidInputError(
      "options.onError",
      `must be "original" or "throw", got ${JSON.stringify(options.onError)}.`,
    );
  }
  if (options.onErrorReport !== undefined && typeof options.onErrorReport !== "function") {
    throw new InvalidInputError("options.onErrorReport", "must be a function.");
  }
  if (options.now !== undefined && (!isDate(options.now) || Number.isNaN(options.now.getTime()))) {
    throw new InvalidInputError("options.now", "must be a valid Date.");
  }
  resolveDeadline(options.deadlineMs, options.clock);
}

function raiseException(message?: unknown): never {
  throw new RaisedByTemplate(typeof message === "string" ? message : "raise_exception() was called");
}

let constants: Environment | undefined;

/**
 * The globals every render shares: constants and `raise_exception`. Rendering never writes to a
 * parent scope (`set` writes to the innermost one), so one environment serves every render.
 */
function constantGlobals(): Environment {
  if (constants !== undefined) return constants;
  const globals = new Environment();
  for (const [name, value] of [
    ["true", true],
    ["false", false],
    ["none", null],
    ["True", true],
    ["False", false],
    ["None", null],
  ] as const) {
    globals.set(name, value);
  }
  globals.set("raise_exception", raiseException);
  constants = globals;
  return globals;
}

/** Renders a compiled template; always throws on error (no fallback). */
export function renderCompiledJinjaTemplate(
  compiled: CompiledJinjaTemplate,
  args?: Readonly<Record<string, unknown>>,
  options: Pick<JinjaRenderOptions, "defaults" | "now" | "deadlineMs" | "clock"> = {},
): string {
  const deadline = resolveDeadline(options.deadlineMs, options.clock);
  const data = toTemplateValues(args, options.defaults, compiled.limits.maxDepth);
  const guard = new RenderGuard(compiled.limits, deadline);
  const scope = new Environment(constantGlobals());
  scope.set("range", guardedRange(guard));
  const now = options.now;
  if (now !== undefined)
    scope.set("strftime_now", (format: unknown) =>
      strftimeUtc(now, typeof format === "string" ? format : String(format)),
    );
  // Set after the globals so an argument may shadow one (Jinja context semantics).
  for (const [key, value] of data) scope.setVariable(key, value);
  const interpreter = new SandboxedInterpreter(scope, guard);
  try {
    return String(
      asValue(interpreter.run(compiled.program as unknown as Parameters<SandboxedInterpreter["run"]>[0])).value,
    );
  } catch (error) {
    if (isLoopControl(error)) {
      throw new TemplateError(
        TEMPLATE_ERROR_CODES.syntax,
        "{% break %} or {% continue %} ran outside a {% for %} loop (inside a macro called outside the loop).",
      );
    }
    throw error;
  }
}

/**
 * Renders a Jinja-style template with `args` (e.g. `buildPromptContext(…)`). See the file
 * comment for the error policy; `options.limits` tunes the hard limits.
 */
export function renderJinjaTemplate(
  template: string,
  args?: Readonly<Record<string, unknown>>,
  options: JinjaRenderOptions = {},
): string {
  checkOptions(options);
  try {
    return renderCompiledJinjaTemplate(compileJinjaTemplate(template, options), args, options);
  } catch (error) {
    if (
      !(error instanceof TemplateError) ||
      isTemplateLimitError(error) ||
      error instanceof TemplateDeadlineError ||
      options.onError === "throw"
    )
      throw error;
    options.onErrorReport?.(error);
    return template;
  }
}
