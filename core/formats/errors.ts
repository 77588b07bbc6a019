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

/** Codes of `RequestFormatError`. */
export type RequestFormatErrorCode =
  /** The text is not JSON: a syntax error, nesting deeper than the limit, or nothing at all. */
  | "json_syntax"
  | "json_too_deep"
  | "json_empty"
  /** The text is longer than `maxLength`. */
  | "request_too_large"
  /** JSON that cannot be hashed or sent (lone surrogates, strings over the length limit …). */
  | "invalid_json_data"
  /** Not an object, or not valid in the format that was asked for. */
  | "invalid_request"
  /** Valid JSON that matches none of the formats tried. */
  | "no_format_matched"
  /** A fingerprint bundle received from someone else is malformed. */
  | "invalid_fingerprints"
  /** A `to*` converter wrote a body its target format would reject (checked before it is returned). */
  | "export_invalid";

/** A request could not be parsed or did not match any supported format. */
export class RequestFormatError extends StrataError<RequestFormatErrorCode> {
  readonly issues: readonly RequestFormatIssue[];
  /** Formats that were tried, closest first. */
  readonly tried: readonly string[];

  constructor(
    code: RequestFormatErrorCode,
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
