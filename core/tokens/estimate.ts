import { describeValue } from "../util/describe.ts";
import { TokenEstimatorError } from "./errors.ts";

export type TokenEstimator = (text: string) => number;

/** The default estimate of a text `length` UTF-16 units long (for a text measured without being written). */
export const estimateLengthTokens = (length: number): number => Math.ceil(length / 4);

/** The spec's default estimate: `Math.ceil(UTF-16 length / 4)`. */
export const estimateTextTokens: TokenEstimator = (text) => estimateLengthTokens(text.length);

/**
 * The one token-estimator contract, shared by the context budget, `segmentRequest`,
 * `compareRequests`, `simulateCache` and `inspect`:
 *
 * - `undefined` → the default `estimateTextTokens`.
 * - Not a function → `TokenEstimatorError` (a `TypeError`, as the assembly rules require) at once, before any text is
 *   measured; a result that is not a finite number ≥ 0 → the same error when it is returned.
 *   `field` is the option's path in the error (`contextBudget.tokenEstimator`, `tokenEstimator`).
 * - Rounding: every measured text counts whole tokens. A host estimator's result is rounded up
 *   (`Math.ceil`) per measured text — a message for the context budget, a segment (or the shared
 *   start of one) for cache analysis — exactly as the default `ceil(length / 4)` rounds. Totals are
 *   sums of those integers, so budget accounting, segment tokens and fingerprint bundles all hold
 *   integers, and the default estimator's counts are unchanged.
 */
export function checkedTokenEstimator(estimator: unknown, field: string): TokenEstimator {
  if (estimator === undefined) return estimateTextTokens;
  if (typeof estimator !== "function") {
    throw new TokenEstimatorError(
      field,
      `${field} must be a function (text: string) => number, got ${estimator === null ? "null" : `a ${typeof estimator}`}.`,
    );
  }
  return (text) => {
    const tokens: unknown = estimator(text);
    if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0) {
      throw new TokenEstimatorError(
        field,
        `${field} returned ${describeValue(tokens)} for a ${text.length}-character text: it must return a finite, non-negative number.`,
      );
    }
    return Math.ceil(tokens);
  };
}
