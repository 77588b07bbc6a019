import { StrataError } from "../util/errors.ts";

/** One problem found in a conversation history. */
export interface HistoryIssue {
  readonly code: string;
  /** Index of the message the issue is pinned to. */
  readonly index: number;
  readonly message: string;
}

/** `assertValidHistory` found one or more issues; all are carried, not just the first. */
export class HistoryValidationError extends StrataError<"invalid_history"> {
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
