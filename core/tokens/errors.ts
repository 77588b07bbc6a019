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
