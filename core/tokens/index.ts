// Token counts: what a provider will bill for a request, and the estimator contract every size figure goes through.
export { TokenEstimatorError } from "./errors.ts";
export { checkedTokenEstimator, estimateTextTokens } from "./estimate.ts";
export type { TokenEstimator } from "./estimate.ts";

// countRequestTokens: per provider, per segment, exact or calibrated with an error band
export { countRequestTokens, segmentOrderOf } from "./count.ts";
export { memoizedTokenizer } from "./tokenizer-memo.ts";
export { TOKEN_PROVIDERS } from "./types.ts";
export type {
  CountMethod,
  CountTokensOptions,
  SegmentTokens,
  TokenCount,
  TokenFormat,
  Tokenizer,
  TokenNote,
  TokenProvider,
} from "./types.ts";

// images and documents by their documented cost
export { imageSizeFromBase64 } from "./image-size.ts";
export type { ImageFormat, ImageSize } from "./image-size.ts";
export { imageTokens, MEDIA_TOKEN_RULES, selectMediaRule } from "./media-rules.ts";
export type { ImageDetail, ImageFormula, MediaResolution, MediaTokenRule, PageFormula } from "./media-rules.ts";
export type { MediaCost } from "./media.ts";

// the calibrated estimators
export { ESTIMATE_MODELS } from "./coefficients.ts";
export { textFeatures, TEXT_FEATURES } from "./text-features.ts";

// Usage a provider reported in its response (JSON, SSE or a Bedrock event stream), normalized.
export { USAGE_FORMATS, eventStreamEvents, readUsage, sseEvents } from "./usage.ts";
export type { Usage, UsageFormat } from "./usage.ts";
