import { InvalidInputError } from "../../util/errors.ts";
import { TemplateError } from "../errors.ts";

/**
 * Hard limits of one Jinja render. Each trips a `TemplateLimitError` with its own `code`,
 * is checked while rendering (never only between nodes) and is never swallowed by
 * `onError: "original"`.
 */
export interface TemplateLimits {
  /** UTF-8 bytes of the template source. */
  readonly maxTemplateBytes: number;
  /** Loop iterations in the whole render: every `for` body run and every `for … if` test. */
  readonly maxLoopIterations: number;
  /**
   * Characters a render writes, counted at every append (text, `{{ … }}`, captured `{% set %}` /
   * `{% filter %}` blocks; a macro's output once). Also the longest string a template may build.
   */
  readonly maxOutputChars: number;
  /** How deeply the template nests (blocks, brackets, sub-expressions) and rendering recurses (macro calls). */
  readonly maxDepth: number;
  /** Items one `range()` call — or one list concatenation `a + b` — may produce. */
  readonly maxRangeLength: number;
  /**
   * Deterministic work units, each about 0.1 µs of V8 (calibration.test.ts checks that no kind of
   * operation costs much more, so the default is reached in about 150–250 ms whatever a template
   * does): one per evaluated node, six per loop iteration, one per item a loop, filter, operator,
   * method or comparison reads — at every depth for lists printed, compared with `==` or passed to
   * `startswith` — (n·log2 n for sorts, with the strings they compare), one per 64 characters a
   * string operation reads or builds (slices of strings with surrogates: one per 4). The five
   * limits above bound loops and sizes; this one bounds their product (a 100,000-iteration loop
   * that runs a filter over a large input on every pass). Chat templates over 1,000–2,000
   * messages use 50,000–150,000 units.
   */
  readonly maxWork: number;
}

export type TemplateLimitName = keyof TemplateLimits;

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = Object.freeze({
  maxTemplateBytes: 262_144,
  maxLoopIterations: 100_000,
  maxOutputChars: 1_000_000,
  maxDepth: 100,
  maxRangeLength: 100_000,
  maxWork: 1_500_000,
});

/** The `code` each limit trips with. */
export const TEMPLATE_LIMIT_CODES = Object.freeze({
  maxTemplateBytes: "template_too_long",
  maxLoopIterations: "template_loop_limit",
  maxOutputChars: "template_output_limit",
  maxDepth: "template_depth_limit",
  maxRangeLength: "template_range_limit",
  maxWork: "template_work_limit",
} as const satisfies Record<TemplateLimitName, string>);

export type TemplateLimitCode = (typeof TEMPLATE_LIMIT_CODES)[TemplateLimitName];

/** Codes of template errors that are not limits. */
export const TEMPLATE_ERROR_CODES = Object.freeze({
  /** The lexer or parser rejected the template (unknown tag, unclosed block, bad token). */
  syntax: "template_syntax_error",
  /** Rendering failed: unknown filter, wrong types, calling a non-function … */
  render: "template_render_error",
  /** The template called `raise_exception(message)`. */
  raised: "template_raised",
} as const);

const LIMIT_NAMES = Object.keys(DEFAULT_TEMPLATE_LIMITS) as TemplateLimitName[];
const LIMIT_CODE_SET: ReadonlySet<string> = new Set(Object.values(TEMPLATE_LIMIT_CODES));

/** A hard limit tripped. `limit` names the option, `cap` is its value. */
export class TemplateLimitError extends TemplateError {
  readonly limit: TemplateLimitName;
  readonly cap: number;

  constructor(limit: TemplateLimitName, cap: number, message: string, position?: { line?: number; column?: number }) {
    const where = position?.line === undefined ? "" : ` (line ${position.line}, column ${position.column ?? 1})`;
    super(
      TEMPLATE_LIMIT_CODES[limit],
      `${message}${where}: the limit is ${limit} = ${cap}. Simplify the template or raise options.limits.${limit}.`,
      position,
    );
    this.name = "TemplateLimitError";
    this.limit = limit;
    this.cap = cap;
  }
}

/**
 * A render ran past its `deadlineMs` (the wall-clock guard behind the work counter). Like a limit,
 * it is always thrown; unlike the limits it depends on the machine, so it is a second line only.
 */
export class TemplateDeadlineError extends TemplateError {
  readonly deadlineMs: number;

  constructor(deadlineMs: number, elapsedMs: number, position?: { line?: number; column?: number }) {
    const where = position?.line === undefined ? "" : ` (line ${position.line}, column ${position.column ?? 1})`;
    super(
      "template_deadline",
      `Rendering ran for ${Math.round(elapsedMs)} ms${where}, past its deadline of ${deadlineMs} ms. Simplify the template or raise deadlineMs.`,
      position,
    );
    this.name = "TemplateDeadlineError";
    this.deadlineMs = deadlineMs;
  }
}

/** `true` for errors that a limit raised: these are thrown even with `onError: "original"`. */
export function isTemplateLimitError(error: unknown): error is TemplateLimitError {
  return error instanceof TemplateError && LIMIT_CODE_SET.has(error.code);
}

/** A wall-clock guard for one render: `deadlineMs` from its start on `clock` (milliseconds). */
export interface RenderDeadline {
  readonly deadlineMs: number;
  readonly clock: () => number;
}

/** Checks `deadlineMs` and `clock` options; the clock defaults to `performance.now`. */
export function resolveDeadline(deadlineMs: unknown, clock: unknown, field = "options"): RenderDeadline | undefined {
  if (deadlineMs === undefined) {
    if (clock !== undefined)
      throw new InvalidInputError(`${field}.clock`, "needs deadlineMs: it only times the deadline.");
    return undefined;
  }
  if (typeof deadlineMs !== "number" || !Number.isFinite(deadlineMs) || deadlineMs <= 0)
    throw new InvalidInputError(
      `${field}.deadlineMs`,
      `must be a positive number of milliseconds, got ${String(deadlineMs)}.`,
    );
  if (clock !== undefined && typeof clock !== "function")
    throw new InvalidInputError(`${field}.clock`, "must be a function returning milliseconds (like performance.now).");
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  const now = (clock as (() => number) | undefined) ?? (perf ? () => perf.now() : undefined);
  if (now === undefined)
    throw new InvalidInputError(`${field}.clock`, "is required: this runtime has no performance.now().");
  return { deadlineMs, clock: now };
}

/** Fills unspecified limits with the defaults; every limit must be a positive safe integer. */
export function resolveTemplateLimits(limits: Partial<TemplateLimits> | undefined): TemplateLimits {
  if (limits === undefined) return DEFAULT_TEMPLATE_LIMITS;
  if (typeof limits !== "object" || limits === null)
    throw new InvalidInputError("options.limits", "must be an object of limit name → positive integer.");
  const out: Record<string, number> = {};
  for (const name of LIMIT_NAMES) {
    const value = limits[name] ?? DEFAULT_TEMPLATE_LIMITS[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new InvalidInputError(`options.limits.${name}`, `must be a positive integer, got ${String(value)}.`);
    }
    out[name] = value;
  }
  for (const key of Object.keys(limits)) {
    if (!(LIMIT_NAMES as string[]).includes(key)) {
      throw new InvalidInputError(
        `options.limits.${key}`,
        `is not a template limit; known limits: ${LIMIT_NAMES.join(", ")}.`,
      );
    }
  }
  return out as unknown as TemplateLimits;
}
