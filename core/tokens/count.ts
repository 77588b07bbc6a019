/**
 * `countRequestTokens`: the input tokens a provider will bill for a request, per segment, with
 * the method (exact or estimate) and an error band measured on real request/usage pairs.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { InvalidInputError } from "../util/errors.ts";
import { ESTIMATE_MODELS, type EstimateModel, OPENAI_FITTED_FRAMING } from "./coefficients.ts";
import { type FeatureContext, requestFeatures } from "./count-estimate.ts";
import { FITTED_EVENTS, type FittedEvents, openaiPieces } from "./count-openai.ts";
import { dot, FEATURES } from "./features.ts";
import type { MediaCost } from "./media.ts";
import { selectMediaRule } from "./media-rules.ts";
import { estimatorFor, openaiEncoding } from "./model-info.ts";
import { type SegmentOrder, segmentRefs } from "./segment-order.ts";
import {
  type CountMethod,
  type CountTokensOptions,
  type SegmentTokens,
  TOKEN_PROVIDERS,
  type TokenCount,
  type TokenFormat,
  type Tokenizer,
  type TokenNote,
  type TokenProvider,
} from "./types.ts";

const FORMATS: readonly TokenFormat[] = ["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse"];

/** The prompt order of a provider (Bedrock Converse sends Claude the Anthropic order). */
export const segmentOrderOf = (provider: TokenProvider): SegmentOrder =>
  provider === "openai" ? "openai" : provider === "gemini" ? "gemini" : "anthropic";

/** Responses when the request came from a Responses body (its blocks carry Responses fields), else the provider's own format. */
function defaultFormat(provider: TokenProvider, request: NormalizedRequest): TokenFormat {
  if (provider === "anthropic" || provider === "gemini") return provider;
  if (provider === "bedrock") return "bedrock-converse";
  const responses =
    request.messages.some(
      (m) =>
        m.providerFields?.["openai-responses"] !== undefined ||
        m.content.some((b) => b.providerFields?.["openai-responses"] !== undefined),
    ) || request.tools.some((t) => t.providerFields?.["openai-responses"] !== undefined);
  return responses ? "openai-responses" : "openai-chat";
}

function checkTokenizer(value: unknown): Tokenizer | undefined {
  if (value === undefined) return undefined;
  const t = value as Partial<Tokenizer> | null;
  if (t === null || typeof t !== "object" || t.kind !== "strata-tokenizer" || typeof t.count !== "function")
    throw new InvalidInputError(
      "tokenizer",
      "must be a tokenizer from prompt-strata/tokenizers/openai (await createOpenAITokenizer(model)).",
    );
  return t as Tokenizer;
}

function checkOptions(options: CountTokensOptions | undefined): CountTokensOptions {
  if (options === null || typeof options !== "object")
    throw new InvalidInputError("options", `must be an object with a provider (${TOKEN_PROVIDERS.join(", ")}).`);
  if (!TOKEN_PROVIDERS.includes(options.provider))
    throw new InvalidInputError(
      "provider",
      `expected one of ${TOKEN_PROVIDERS.map((p) => `"${p}"`).join(", ")}, got ${JSON.stringify(options.provider) ?? String(options.provider)}`,
    );
  if (options.model !== undefined && typeof options.model !== "string")
    throw new InvalidInputError("model", "must be a model id string.");
  if (options.format !== undefined && !FORMATS.includes(options.format))
    throw new InvalidInputError(
      "format",
      `expected one of ${FORMATS.map((f) => `"${f}"`).join(", ")}, got ${JSON.stringify(options.format) ?? String(options.format)}`,
    );
  return options;
}

/** A tokenizer's count, checked to be a whole number ≥ 0. */
function checkedCount(tokenizer: Tokenizer): (text: string) => number {
  const memo = new Map<string, number>();
  return (text) => {
    if (text === "") return 0;
    const hit = text.length <= 64 ? memo.get(text) : undefined;
    if (hit !== undefined) return hit;
    const n: unknown = tokenizer.count(text);
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
      throw new InvalidInputError("tokenizer", `count() returned ${String(n)}: it must return a whole number ≥ 0.`);
    if (text.length <= 64) memo.set(text, n);
    return n;
  };
}

const mediaBand = (media: readonly MediaCost[]) => {
  let below = 0;
  let above = 0;
  for (const m of media) {
    below += m.tokens - m.low;
    above += m.high - m.tokens;
  }
  return { below, above };
};

/** `[low, high]` for a total whose `estimated` part is a calibrated estimate and whose media have their own ranges. */
function band(
  total: number,
  estimated: number,
  b: EstimateModel["band"],
  media: { below: number; above: number },
): { low: number; high: number } {
  if (estimated <= 0 && media.below === 0 && media.above === 0) return { low: total, high: total };
  const below = estimated > 0 ? estimated * b.below + b.slack : 0;
  const above = estimated > 0 ? estimated * b.above + b.slack : 0;
  return {
    low: Math.max(0, Math.floor(total - below - media.below)),
    high: Math.ceil(total + above + media.above),
  };
}

function estimateCount(
  request: NormalizedRequest,
  provider: TokenProvider,
  model: string,
  format: TokenFormat,
  ctx: FeatureContext,
  notes: TokenNote[],
): TokenCount {
  const refs = segmentRefs(request, segmentOrderOf(provider));
  const features = requestFeatures(request, refs, ctx);
  notes.push(...features.notes);
  const est: EstimateModel = ESTIMATE_MODELS[estimatorFor(provider, model)];
  const c = FEATURES.map((f) => est.coefficients[f]);
  // Round running sums, not each segment: every prefix sum stays the rounded estimate of its prefix.
  let cum = dot(features.leading, c);
  const leading = Math.round(cum);
  let previous = leading;
  const media: MediaCost[] = [];
  const perSegment = refs.map((ref, index): SegmentTokens => {
    cum += dot(features.segments[index]!.features, c);
    const rounded = Math.round(cum);
    const own = features.segments[index]!.media;
    media.push(...own);
    const tokens = rounded - previous + own.reduce((s, m) => s + m.tokens, 0);
    previous = rounded;
    return { index, path: ref.path, kind: ref.kind, tokens, method: "estimate", media: own };
  });
  const mediaTokens = media.reduce((s, m) => s + m.tokens, 0);
  const total = previous + mediaTokens;
  return {
    total,
    method: "estimate",
    ...band(total, previous, est.band, mediaBand(media)),
    leading,
    perSegment,
    trailing: 0,
    provider,
    model,
    format,
    encoding: null,
    notes,
  };
}

function exactCount(
  request: NormalizedRequest,
  model: string,
  format: "openai-chat" | "openai-responses",
  tokenizer: Tokenizer,
  ctx: FeatureContext,
  notes: TokenNote[],
  trusted: boolean,
): TokenCount {
  const refs = segmentRefs(request, "openai");
  const pieces = openaiPieces(request, refs, checkedCount(tokenizer), model, ctx);
  notes.push(...pieces.notes);
  const k = OPENAI_FITTED_FRAMING[format];
  const fitted = (e: FittedEvents) => Math.round(FITTED_EVENTS.reduce((s, name) => s + e[name] * k[name], 0));
  let estimated = pieces.leadingMethod === "estimate" ? pieces.leading : 0;
  const media: MediaCost[] = [];
  let method: CountMethod = trusted ? pieces.leadingMethod : "estimate";
  const perSegment = refs.map((ref, index): SegmentTokens => {
    const p = pieces.segments[index]!;
    const tokens = p.fixed + fitted(p.events);
    media.push(...p.media);
    // With another model's encoding nothing is exact: the whole count gets the estimate band.
    const segmentMethod = trusted ? p.method : "estimate";
    if (segmentMethod === "estimate") {
      method = "estimate";
      estimated += tokens - p.media.reduce((s, m) => s + m.tokens, 0);
    }
    return { index, path: ref.path, kind: ref.kind, tokens, method: segmentMethod, media: p.media };
  });
  const total = pieces.leading + perSegment.reduce((s, x) => s + x.tokens, 0) + pieces.trailing;
  if (!trusted) estimated += pieces.trailing + (pieces.leadingMethod === "exact" ? pieces.leading : 0);
  return {
    total,
    method,
    ...band(total, estimated, OPENAI_FITTED_FRAMING.band, mediaBand(media)),
    leading: pieces.leading,
    perSegment,
    trailing: pieces.trailing,
    provider: "openai",
    model,
    format,
    encoding: tokenizer.encoding,
    notes,
  };
}

/**
 * The input tokens `options.provider` will bill for `request` (a parsed or assembled request):
 * exact for OpenAI text with a tokenizer, else a calibrated estimate; images and documents by
 * their documented cost. See `TokenCount` for the fields and how `perSegment` lines up with
 * `segmentRequest`. Linear in the request size; deterministic.
 */
export function countRequestTokens(
  request: ProviderRequest | NormalizedRequest,
  options: CountTokensOptions,
): TokenCount {
  const opts = checkOptions(options);
  const tokenizer = checkTokenizer(opts.tokenizer);
  assertProviderRequest(request);
  const provider = opts.provider;
  const model = opts.model ?? request.model.model;
  const format = opts.format ?? defaultFormat(provider, request);
  const mediaProvider = provider;
  const ctx: FeatureContext = { rule: selectMediaRule(mediaProvider, model), provider: mediaProvider, model };
  const notes: TokenNote[] = [];
  if (tokenizer !== undefined && provider === "openai" && (format === "openai-chat" || format === "openai-responses")) {
    const expected = openaiEncoding(model);
    if (tokenizer.encoding !== expected)
      notes.push({
        code: "tokenizer_mismatch",
        path: "",
        message: `The tokenizer uses ${tokenizer.encoding}, but ${model} uses ${expected}: counts may differ.`,
      });
    return exactCount(request, model, format, tokenizer, ctx, notes, tokenizer.encoding === expected);
  }
  if (tokenizer !== undefined)
    notes.push({
      code: "tokenizer_mismatch",
      path: "",
      message: `An OpenAI tokenizer does not count ${provider === "openai" ? `the ${format} format` : provider} exactly: this is a calibrated estimate.`,
    });
  return estimateCount(request, provider, model, format, ctx, notes);
}
