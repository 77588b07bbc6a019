// Token counts: the estimator contract every size figure goes through.
export { TokenEstimatorError } from "./errors.ts";
export { checkedTokenEstimator, estimateTextTokens } from "./estimate.ts";
export type { TokenEstimator } from "./estimate.ts";
