// What the calibration corpus keeps of one recorded request: its feature vector, media costs and,
// for OpenAI, the tokenizer's counts under the published framing rules. Bundled by build.mjs;
// uses core internals on purpose (the committed corpus must match what the counter computes).
import { segmentRequest } from "../../core/cache/segments.ts";
import { parseWireRequest } from "../../core/formats/parse.ts";
import type { NormalizedRequest } from "../../core/formats/types.ts";
import { requestFeatures, totalFeatures } from "../../core/tokens/count-estimate.ts";
import { FITTED_EVENTS, openaiPieces } from "../../core/tokens/count-openai.ts";
import { segmentOrderOf } from "../../core/tokens/count.ts";
import { mediaCoster } from "../../core/tokens/media.ts";
import { SegmentWalk } from "../../core/tokens/segment-order.ts";
import type { TokenProvider } from "../../core/tokens/types.ts";
import type { CorpusMedia, CorpusOpenAI } from "../../core/tokens/calibration/fit.ts";

export { parseWireRequest };
export { FEATURES } from "../../core/tokens/features.ts";
export { ESTIMATORS, openaiEncoding } from "../../core/tokens/model-info.ts";
export {
  CORRECTIONS,
  evaluate,
  fitEstimator,
  fitOpenAIFraming,
  fitTextPrior,
  splitOf,
  usable,
  estimatePair,
  openaiExactPair,
} from "../../core/tokens/calibration/fit.ts";
export { createOpenAITokenizer } from "../../core/tokenizers/openai/index.ts";

const r1 = (v: number) => Math.round(v * 10) / 10;

export function pairFeatures(
  request: NormalizedRequest,
  provider: TokenProvider,
  model: string,
  o200k: (text: string) => number,
): { x: number[]; media: CorpusMedia[]; notes: string[]; o200k: number; quarter: number } {
  const mediaProvider = provider;
  const ctx = { provider: mediaProvider, model, media: mediaCoster(mediaProvider, model) } as const;
  let tokens = 0;
  const f = requestFeatures(request, new SegmentWalk(request, segmentOrderOf(provider)), ctx, (text) => {
    tokens += o200k(text);
  });
  const media: CorpusMedia[] = [];
  for (const s of f.segments)
    for (const m of s.media) media.push([m.kind, m.tokens, m.low, m.high, m.width, m.height, m.pages]);
  const quarter = segmentRequest(request, { provider: segmentOrderOf(provider) }).totalTokens;
  return { x: [...totalFeatures(f)].map(r1), media, notes: f.notes.map((n) => n.code), o200k: tokens, quarter };
}

export function openaiFeatures(
  request: NormalizedRequest,
  model: string,
  count: (text: string) => number,
): CorpusOpenAI & { media: CorpusMedia[] } {
  const ctx = { provider: "openai", model, media: mediaCoster("openai", model) } as const;
  let fixed = 0;
  let estimated = 0;
  let segmentsEstimated = false;
  const events = FITTED_EVENTS.map(() => 0);
  const media: CorpusMedia[] = [];
  const p = openaiPieces(request, new SegmentWalk(request, "openai"), count, model, ctx, (_i, s) => {
    fixed += s.fixed;
    const mediaTokens = s.media.reduce((t, m) => t + m.tokens, 0);
    if (s.method === "estimate") {
      segmentsEstimated = true;
      estimated += s.fixed - mediaTokens;
    }
    FITTED_EVENTS.forEach((name, i) => {
      events[i] = events[i]! + s.events[name];
    });
    for (const m of s.media) media.push([m.kind, m.tokens, m.low, m.high, m.width, m.height, m.pages]);
  });
  fixed += p.leading + p.trailing;
  if (p.leadingMethod === "estimate") estimated += p.leading;
  const method: "exact" | "estimate" = segmentsEstimated ? "estimate" : p.leadingMethod;
  return { fixed, estimated, events, messageTokens: [...p.messageContentTokens], method, media };
}
