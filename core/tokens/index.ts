// Token counts: the estimator contract every size figure goes through.
export { TokenEstimatorError } from "./errors.ts";
export { checkedTokenEstimator, estimateTextTokens } from "./estimate.ts";
export type { TokenEstimator } from "./estimate.ts";
// Usage a provider reported in its response (JSON, SSE or a Bedrock event stream), normalized.
export { USAGE_FORMATS, eventStreamEvents, readUsage, sseEvents } from "./usage.ts";
export type { Usage, UsageFormat } from "./usage.ts";
