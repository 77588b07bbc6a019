import { StrataError } from "../util/errors.ts";

export interface ContextBudgetErrorDetails {
  /** Which cap tripped. */
  readonly limit: "maxInputTokens" | "maxInputBytes";
  /** The cap's value. */
  readonly cap: number;
  /** Size of what may not be dropped, in the cap's unit. */
  readonly required: number;
}

/** The protected part of a prompt (instructions, current input, tool catalog) alone exceeds a context budget. */
export class ContextBudgetError extends StrataError<"context_budget_exceeded"> {
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
