/**
 * Every error Strata throws on purpose is a `StrataError` with a stable string
 * `code`, so callers can branch without parsing messages. One subclass per
 * failure family; each message says what to change.
 */
export class StrataError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StrataError";
    this.code = code;
  }
}

/** A caller-supplied value has the wrong type or shape. `field` names it, e.g. `attachments[2]`. */
export class InvalidInputError extends StrataError {
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? "invalid_input", `${field}: ${message}`, options);
    this.name = "InvalidInputError";
    this.field = field;
  }
}
