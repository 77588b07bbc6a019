// What the cache-turn fixture keeps of one recorded request: its segments in cache order with the
// tokens countRequestTokens gives them (the bundle the simulator reads), and the usage its
// response reported. Bundled by cache-turns.mjs; uses core internals on purpose (the committed
// fixture must match what the simulator computes from a request).
import { segmentCounted } from "../../core/cache/counted.ts";
import { bundleFromSegments } from "../../core/cache/fingerprints.ts";
import { parseWireRequest } from "../../core/formats/parse.ts";
import { readUsage } from "../../core/tokens/usage.ts";
import type { Tokenizer } from "../../core/tokens/types.ts";
import type { CacheProvider } from "../../core/cache/types.ts";

export { createOpenAITokenizer } from "../../core/tokenizers/openai/index.ts";
export { openaiEncoding } from "../../core/tokens/model-info.ts";
export { readUsage };

export function countedBundle(
  body: unknown,
  format: "openai-chat" | "openai-responses" | "anthropic" | "gemini",
  provider: CacheProvider,
  model: string,
  tokenizer: Tokenizer | undefined,
) {
  const { request } = parseWireRequest(body, { format });
  const counted = segmentCounted(request, { provider, model, ...(tokenizer ? { tokenizer } : {}) });
  return { bundle: bundleFromSegments(counted), count: counted.count };
}
export { evaluateCacheTurns } from "../../core/cache/calibration/evaluate.ts";
export { simulateCache } from "../../core/cache/simulate.ts";
/** The request's bundle with the default ÷4 estimate per segment (the simulator's input before counted tokens). */
export function quarterBundle(
  body: unknown,
  format: "openai-chat" | "openai-responses" | "anthropic" | "gemini",
  provider: CacheProvider,
) {
  const { request } = parseWireRequest(body, { format });
  return bundleFromSegments(segmentRequest(request, { provider }));
}
import { segmentRequest } from "../../core/cache/segments.ts";
