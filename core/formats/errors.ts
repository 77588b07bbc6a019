import { StrataError } from "../util/errors.ts";

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
