/**
 * `countRequestTokens`: the input tokens a provider will bill for a request, per segment, with
 * the method (exact or estimate) and an error band measured on real request/usage pairs.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { InvalidInputError } from "../util/errors.ts";
import { ESTIMATE_MODELS, type EstimateModel } from "./coefficients.ts";
import { currentLoopStart, type FeatureContext, leadingFeatures, visitSegmentFeatures } from "./count-estimate.ts";
import { band, mediaBand } from "./count-band.ts";
import type { MediaCost } from "./media.ts";
import { type CountKit, FULL_COUNT_KIT } from "./count-kit.ts";
import {
  appendsTo,
  type CountEnd,
  type CountPrefix,
  continued,
  keepFigures,
  NO_SEGMENTS,
  type WalkFigures,
  walkFigures,
} from "./count-prefix.ts";
import { dot, FEATURES } from "./features.ts";
import { estimatorFor, openaiEncoding } from "./model-info.ts";
import { type SegmentOrder, SegmentWalk } from "./segment-order.ts";
import { leadingSystemCount } from "../formats/system-placement.ts";
import {
  type CountTokensOptions,
  TOKEN_PROVIDERS,
  type TokenCount,
  type TokenFormat,
  type Tokenizer,
  type TokenNote,
  type TokenProvider,
} from "./types.ts";

export { type CountPrefix, continuedMessages } from "./count-prefix.ts";

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

/**
 * Where an estimate ended, so a longer request that starts with the very same pieces (a simulated
 * next turn: this request plus the reply and the next input) is counted from there: its first
 * segments have the same features, so the same running sums and the same per-segment figures.
 */
interface EstimateEnd extends CountEnd {
  readonly provider: TokenProvider;
  readonly format: TokenFormat;
  readonly leadingSystem: number;
  readonly cum: number;
  readonly previous: number;
  readonly featureNotes: readonly TokenNote[];
  readonly segments: WalkFigures;
}
const ends = new WeakMap<TokenCount, EstimateEnd>();

/**
 * `prefix`'s end when `request` only appends messages to its request (same tools, options and
 * message objects) and nothing already counted changes with the append: the same leading system
 * messages, and no reasoning in a tool loop the append closes (its features depend on the loop).
 */
function continuable(
  prefix: CountPrefix | undefined,
  request: NormalizedRequest,
  provider: TokenProvider,
  model: string,
  format: TokenFormat,
): EstimateEnd | undefined {
  const end = prefix === undefined ? undefined : ends.get(prefix.count);
  if (end === undefined || end.provider !== provider || end.model !== model || end.format !== format) return undefined;
  if (!appendsTo(prefix!, request, end.request)) return undefined;
  if (segmentOrderOf(provider) !== "openai" && leadingSystemCount(request.messages) !== end.leadingSystem)
    return undefined;
  // A later loop start moves the counted blocks from the old loop out of it: safe only without reasoning there.
  const loopStart = currentLoopStart(request);
  if (loopStart < end.loopStart || (loopStart > end.loopStart && end.loopSensitive)) return undefined;
  return end;
}

function estimateCount(
  request: NormalizedRequest,
  provider: TokenProvider,
  model: string,
  format: TokenFormat,
  ctx: FeatureContext,
  notes: TokenNote[],
  prefix?: CountPrefix,
): TokenCount {
  const from = continuable(prefix, request, provider, model, format);
  const order = segmentOrderOf(provider);
  // Counting on from `prefix`: only the appended messages are walked.
  const walk = new SegmentWalk(request, order, from ? from.request.messages.length : -1);
  const before = from?.segments;
  const base = before ? before.length : 0;
  const est: EstimateModel = ESTIMATE_MODELS[estimatorFor(provider, model)];
  const c = FEATURES.map((f) => est.coefficients[f]);
  // Round running sums, not each segment: every prefix sum stays the rounded estimate of its prefix.
  let cum = from ? from.cum : dot(leadingFeatures(request, ctx), c);
  const leading = from ? prefix!.count.leading : Math.round(cum);
  let previous = from ? from.previous : leading;
  const media: MediaCost[] = from ? [...from.media] : [];
  // This walk's figures only: the earlier count's runs are shared, not copied (see `CountFigures`).
  const tokens = new Array<number>(walk.length);
  const segmentMedia = new Map(before?.media);
  const visited = visitSegmentFeatures(request, walk, ctx, (i, features, own) => {
    cum += dot(features, c);
    const rounded = Math.round(cum);
    let mediaTokens = 0;
    // Indexed: `own` is nearly always the shared empty list, and an iterator over it was an allocation per segment.
    for (let k = 0; k < own.length; k++) {
      media.push(own[k]!);
      mediaTokens += own[k]!.tokens;
    }
    tokens[i] = rounded - previous + mediaTokens;
    if (own.length > 0) segmentMedia.set(base + i, own);
    previous = rounded;
  });
  const segments = walkFigures(before, { tokens, kinds: walk, exact: null }, segmentMedia);
  const featureNotes = from ? [...from.featureNotes, ...visited.notes] : visited.notes;
  notes.push(...featureNotes);
  const mediaTokens = media.reduce((s, m) => s + m.tokens, 0);
  const total = previous + mediaTokens;
  const count: TokenCount = {
    total,
    method: "estimate",
    ...band(total, previous, est.band, mediaBand(media)),
    leading,
    perSegment: NO_SEGMENTS,
    trailing: 0,
    provider,
    model,
    format,
    encoding: null,
    notes,
  };
  keepFigures(count, segments);
  const counted = from ? from.request.messages.length : 0;
  if (from) continued.set(count, counted);
  ends.set(count, {
    request,
    provider,
    model,
    format,
    leadingSystem: order === "openai" ? 0 : leadingSystemCount(request.messages),
    cum,
    previous,
    media,
    featureNotes,
    segments,
    loopStart: visited.loopStart,
    // Reasoning in the new loop: among the blocks walked now, or (when the loop reaches back into
    // what `prefix` counted) among those.
    loopSensitive: visited.loopSensitive || (from !== undefined && visited.loopStart < counted && from.loopSensitive),
  });
  return count;
}

const missing = (what: string) => (): never => {
  throw new InvalidInputError("request", `the counter was not given ${what}: count with countRequestTokens.`);
};

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
  return countTokensWith(request, options, FULL_COUNT_KIT);
}

/**
 * `countRequestTokens` with the parts of `kit` (see `CountKit`); the same count when the kit has
 * what the request needs. `prefix`: an earlier count; when `request` only appends messages to that
 * count's request (`CountPrefix.same` tells), the count goes on from where that one ended (the same
 * result): an estimate from an estimate, an exact OpenAI count from an exact one.
 */
export function countTokensWith(
  request: ProviderRequest | NormalizedRequest,
  options: CountTokensOptions,
  kit: CountKit,
  prefix?: CountPrefix,
): TokenCount {
  const opts = checkOptions(options);
  const tokenizer = checkTokenizer(opts.tokenizer);
  assertProviderRequest(request);
  const provider = opts.provider;
  const model = opts.model ?? request.model.model;
  const format = opts.format ?? defaultFormat(provider, request);
  const mediaProvider = provider;
  const ctx: FeatureContext = {
    provider: mediaProvider,
    model,
    media: kit.media === null ? missing("the media rules") : kit.media(mediaProvider, model),
  };
  const notes: TokenNote[] = [];
  if (tokenizer !== undefined && provider === "openai" && (format === "openai-chat" || format === "openai-responses")) {
    const expected = openaiEncoding(model);
    if (tokenizer.encoding !== expected)
      notes.push({
        code: "tokenizer_mismatch",
        path: "",
        message: `The tokenizer uses ${tokenizer.encoding}, but ${model} uses ${expected}: counts may differ.`,
      });
    const exact = kit.exact ?? missing("the exact OpenAI counter");
    return exact(request, model, format, tokenizer, ctx, notes, tokenizer.encoding === expected, prefix);
  }
  if (tokenizer !== undefined)
    notes.push({
      code: "tokenizer_mismatch",
      path: "",
      message: `An OpenAI tokenizer does not count ${provider === "openai" ? `the ${format} format` : provider} exactly: this is a calibrated estimate.`,
    });
  return estimateCount(request, provider, model, format, ctx, notes, prefix);
}
