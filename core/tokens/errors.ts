import { brandStrataError } from "../util/errors.ts";

/**
 * A host `tokenEstimator` is not a function, or returned something other than a finite number
 * ≥ 0. The assembly rules make this a `TypeError`, so it extends `TypeError` and is branded as a
 * Strata error (`instanceof StrataError` is true), with the same structured fields: `code`
 * `"invalid_token_estimator"` and `field` naming the option (`contextBudget.tokenEstimator`,
 * `tokenEstimator`). The context budget, `segmentRequest`, `compareRequests`, `simulateCache` and
 * `inspect` all throw it with the same message.
 */
export class TokenEstimatorError extends TypeError {
  readonly code = "invalid_token_estimator" as const;
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = "TokenEstimatorError";
    this.field = field;
    brandStrataError(this);
  }
}
