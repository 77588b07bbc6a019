/**
 * Every error Strata throws on purpose is a `StrataError` with a stable string `code` from a typed
 * union, so callers can branch without parsing messages. One subclass per failure family, defined
 * in the layer that throws it; each message says what to change.
 *
 * `instanceof StrataError` works across duplicate installs of the package (a brand registered with
 * `Symbol.for`, as the AI SDK does), and for `TokenEstimatorError`, which must be a `TypeError`.
 */
const BRAND = Symbol.for("prompt-strata.error");

/** Marks `error` as a Strata error (for classes that cannot extend `StrataError`). */
export function brandStrataError(error: Error): void {
  Object.defineProperty(error, BRAND, { value: true, enumerable: false });
}

export class StrataError<C extends string = string> extends Error {
  readonly code: C;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StrataError";
    this.code = code;
    brandStrataError(this);
  }

  /** `value instanceof StrataError`: any error Strata threw on purpose, from any copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== StrataError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}

/** Codes of `InvalidInputError`, by the layer that throws them. */
export type InvalidInputCode =
  // any layer: a value of the wrong type or shape
  | "invalid_input"
  // util: a value the canonical JSON writer refuses
  | "not_json"
  | "json_cycle"
  | "json_too_deep"
  // assembly: resources
  | "resource_loader_missing"
  | "resource_load_failed"
  // composer
  | "invalid_budgeted_section"
  | "invalid_contribution"
  | "contribution_failed"
  // inspect
  | "no_previous_turn";

/** A caller-supplied value has the wrong type or shape. `field` names it, e.g. `attachments[2]`. */
export class InvalidInputError extends StrataError<InvalidInputCode> {
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown; code?: InvalidInputCode }) {
    super(options?.code ?? "invalid_input", `${field}: ${message}`, options);
    this.name = "InvalidInputError";
    this.field = field;
  }
}
