/**
 * Reference recovery sections: what to tell the model after the previous turn was
 * truncated or the provider failed. `undefined`/`null` (or `truncated: false`) gives "".
 */
import { oneLine, truncate } from "./sections-text.ts";

export interface PriorTruncation {
  readonly truncated: boolean;
  /** Provider finish reason, e.g. "max_tokens" or "length". */
  readonly reason?: string;
  /** The output-token limit that was hit. */
  readonly maxOutputTokens?: number;
}

export interface ProviderErrorInfo {
  readonly provider?: string;
  /** HTTP status, when there was one. */
  readonly status?: number;
  readonly code?: string;
  readonly message?: string;
}

const MAX_DETAIL_CHARS = 300;

/** Recovery prompt when the prior response was cut off. */
export function buildPriorTruncationRecoverySection(prior: PriorTruncation | null | undefined): string {
  if (prior === null || prior === undefined || prior.truncated !== true) return "";
  const details: string[] = [];
  if (prior.reason !== undefined && oneLine(prior.reason) !== "")
    details.push(`reason: ${truncate(oneLine(prior.reason), MAX_DETAIL_CHARS)}`);
  if (prior.maxOutputTokens !== undefined) details.push(`limit: ${prior.maxOutputTokens} output tokens`);
  return [
    `Your previous response was cut off before it finished${details.length > 0 ? ` (${details.join("; ")})` : ""}.`,
    "Continue from where it stopped without repeating what was already said, and keep this response shorter: split long output into parts.",
  ].join("\n");
}

/** Recovery prompt when the provider errored on the previous call. */
export function buildProviderErrorRecoverySection(error: ProviderErrorInfo | null | undefined): string {
  if (error === null || error === undefined) return "";
  const details: string[] = [];
  if (error.provider !== undefined && oneLine(error.provider) !== "")
    details.push(`provider ${truncate(oneLine(error.provider), MAX_DETAIL_CHARS)}`);
  if (error.status !== undefined) details.push(`status ${error.status}`);
  if (error.code !== undefined && oneLine(error.code) !== "")
    details.push(`code ${truncate(oneLine(error.code), MAX_DETAIL_CHARS)}`);
  const message = error.message === undefined ? "" : truncate(oneLine(error.message), MAX_DETAIL_CHARS);
  return [
    `The previous model call failed${details.length > 0 ? ` (${details.join(", ")})` : ""}${message === "" ? "." : `: ${message}`}`,
    "Its response never reached the user. Pick up from the last completed step and don't assume anything from the failed call happened.",
  ].join("\n");
}
