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

/**
 * A host `tokenEstimator` is not a function, or returned something other than a finite number
 * ≥ 0. Spec 000 makes this a `TypeError`, so it extends `TypeError` (not `StrataError`), and
 * carries the same structured fields: `code` `"invalid_token_estimator"` and `field` naming the option (`contextBudget.tokenEstimator`,
 * `tokenEstimator`). The context budget, `segmentRequest`, `compareRequests`, `simulateCache`
 * and `inspect` all throw it with the same message.
 */
export class TokenEstimatorError extends TypeError {
  readonly code = "invalid_token_estimator";
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = "TokenEstimatorError";
    this.field = field;
  }
}

export interface ContextBudgetErrorDetails {
  /** Which cap tripped. */
  readonly limit: "maxInputTokens" | "maxInputBytes";
  /** The cap's value. */
  readonly cap: number;
  /** Size of what may not be dropped, in the cap's unit. */
  readonly required: number;
}

/** The protected part of a prompt (instructions, current input, tool catalog) alone exceeds a context budget. */
export class ContextBudgetError extends StrataError {
  readonly limit: ContextBudgetErrorDetails["limit"];
  readonly cap: number;
  readonly required: number;
  /** `required - cap`: how much must be cut from the protected part, or added to the cap. */
  readonly overBy: number;

  constructor(details: ContextBudgetErrorDetails, message?: string) {
    const unit = details.limit === "maxInputTokens" ? "tokens" : "bytes";
    super(
      "context_budget_exceeded",
      message ??
        `Protected prompt parts (instructions, current input, tool catalog) need ${details.required} ${unit} ` +
          `but ${details.limit} is ${details.cap}: raise ${details.limit} by at least ${details.required - details.cap} ` +
          `or shorten the instructions or input.`,
    );
    this.name = "ContextBudgetError";
    this.limit = details.limit;
    this.cap = details.cap;
    this.required = details.required;
    this.overBy = details.required - details.cap;
  }
}

/** A message carries a content block whose modality the model does not declare in `capabilities.input`. */
export class UnsupportedModalityError extends StrataError {
  readonly modality: string;
  readonly messageIndex: number;
  readonly blockIndex: number;

  constructor(
    modality: string,
    messageIndex: number,
    blockIndex: number,
    modelName: string,
    supported: readonly string[],
  ) {
    super(
      "unsupported_modality",
      `messages[${messageIndex}].content[${blockIndex}] is a "${modality}" block but model "${modelName}" only accepts ` +
        `${supported.length > 0 ? supported.map((m) => `"${m}"`).join(", ") : "no declared modalities"}: ` +
        `remove the block or add "${modality}" to model.capabilities.input.`,
    );
    this.name = "UnsupportedModalityError";
    this.modality = modality;
    this.messageIndex = messageIndex;
    this.blockIndex = blockIndex;
  }
}

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

/** One problem found in a conversation history. */
export interface HistoryIssue {
  readonly code: string;
  /** Index of the message the issue is pinned to. */
  readonly index: number;
  readonly message: string;
}

/** `assertValidHistory` found one or more issues; all are carried, not just the first. */
export class HistoryValidationError extends StrataError {
  readonly issues: readonly HistoryIssue[];

  constructor(issues: readonly HistoryIssue[]) {
    super(
      "invalid_history",
      `History is invalid (${issues.length} issue${issues.length === 1 ? "" : "s"}): ` +
        issues.map((i) => `messages[${i.index}]: ${i.message}`).join("; "),
    );
    this.name = "HistoryValidationError";
    this.issues = issues;
  }
}

/** One problem found in a pasted or received request, located by JSON path (e.g. `messages[3].content[0].type`). */
export interface RequestFormatIssue {
  readonly code: string;
  readonly path: string;
  readonly message: string;
  /** Parse errors only: 1-based position in the source text. */
  readonly line?: number;
  readonly column?: number;
}

/** A request could not be parsed or did not match any supported format. */
export class RequestFormatError extends StrataError {
  readonly issues: readonly RequestFormatIssue[];
  /** Formats that were tried, closest first. */
  readonly tried: readonly string[];

  constructor(
    code: string,
    message: string,
    issues: readonly RequestFormatIssue[],
    tried: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = "RequestFormatError";
    this.issues = issues;
    this.tried = tried;
  }
}
