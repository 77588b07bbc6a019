// Cache analysis: requests cut into segments, the stable prefix two turns share and why it ends,
// each provider's cache rules, the offline simulator, breakpoints and hash-only fingerprints.
export { canonicalJson } from "../util/canonical.ts";
export { sha256Hex, utf8Bytes } from "../util/hash.ts";
export { utf8Length } from "../util/utf8.ts";
export { PROMPT_ORDER, segmentRequest, serializeRequest } from "./segments.ts";
export type { SegmentOptions, SegmentedRequest } from "./segments.ts";
export { compareRequests } from "./compare.ts";
export type { CompareOptions, RequestLike } from "./compare.ts";
export { CACHE_RULES, selectCacheRule } from "./rules.ts";
export type { SelectedRule } from "./rules.ts";
export { simulateCache } from "./simulate.ts";
export type { SimulateOptions } from "./simulate.ts";
export { applyBreakpoints, suggestCacheBreakpoints } from "./breakpoints.ts";
export type { SuggestBreakpointsOptions } from "./breakpoints.ts";
export { isFingerprintBundle, toFingerprintBundle } from "./fingerprints.ts";
export { inferCacheProvider } from "./provider.ts";
export { CACHE_PROVIDERS, DIVERGENCE_CAUSES } from "./types.ts";
export type {
  BreakpointSuggestion,
  CachePrevented,
  CacheProvider,
  CacheRule,
  CacheSimulation,
  CacheTurnResult,
  Divergence,
  DivergenceCause,
  DivergenceExcerpt,
  FingerprintBundle,
  LayoutNextTurn,
  NextTurnSimulation,
  PrefixComparison,
  PrefixSize,
  ReportSegment,
  Segment,
  SegmentKind,
  SegmentRegion,
  TokenEstimator,
} from "./types.ts";
