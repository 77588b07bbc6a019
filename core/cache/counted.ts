/**
 * A request segmented in cache order with each segment's tokens as the provider bills them
 * (`countRequestTokens`), so every prefix sum is the number of tokens the provider has read up to
 * that point: the figure a prompt cache's minimum, increments and reads are measured in.
 *
 * The provider's fixed framing before the first segment is counted with the first segment, and
 * the reply primer after the last with the last, so the segments still add up to the request's
 * total (as a fingerprint bundle requires) and every prefix includes the framing it starts with.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import { type CountPrefix, continuedMessages, countTokensWith } from "../tokens/count.ts";
import { type CountFigures, countFigures } from "../tokens/count-prefix.ts";
import { FULL_COUNT_KIT } from "../tokens/count-kit.ts";
import { memoizedTokenizer } from "../tokens/tokenizer-memo.ts";
import type { CountKit } from "../tokens/count-kit.ts";
import type { CountTokensOptions, TokenCount, Tokenizer } from "../tokens/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { plainSegment, segmentJson } from "./segment-record.ts";
import { sameJson } from "../util/same-json.ts";
import { type SegmentedRequest, segmentLazily } from "./segments.ts";
import type { CacheProvider, TokenEstimator } from "./types.ts";

export interface CountedOptions {
  readonly provider: CacheProvider;
  /** Model for the count's encoding and media rules; default the request's. */
  readonly model?: string;
  /** `createOpenAITokenizer(model)`: exact OpenAI counts. */
  readonly tokenizer?: Tokenizer;
}

/** The segmented request (tokens from the count) and the count itself. */
export interface CountedRequest extends SegmentedRequest {
  readonly count: TokenCount;
}

type Counter = (
  request: ProviderRequest | NormalizedRequest,
  options: CountTokensOptions,
  prefix: CountPrefix | undefined,
) => TokenCount;

/** Pieces of two requests that serialize alike are counted alike (the same object, or equal JSON). */
const sameValue = (a: unknown, b: unknown): boolean => a === b || sameJson(a, b);

/** The twin's count as a `CountPrefix` (pieces compared by content), when it was counted. */
function prefixOf(twin: SegmentedRequest | undefined): CountPrefix | undefined {
  const count = twin === undefined ? null : countOf(twin);
  return count === null ? undefined : { count, same: sameValue };
}

/**
 * `request` segmented lazily (`segmentLazily`: hashed only when read) with `count`'s figure for
 * each segment (see `countedTokens`), and the count itself. The figures are counted already, so the
 * segmenter never reads a text to measure it: plain text blocks keep their own texts (their JSON is
 * written only to hash them or to show them), and with `keep` `"sources"` other blocks keep none.
 */
function counted(
  request: ProviderRequest | NormalizedRequest,
  options: CountedOptions,
  twin: SegmentedRequest | undefined,
  count: Counter,
  keep: true | "sources",
): CountedRequest {
  // The twin's count lends where it ended when this request only appends to it (a next turn, a
  // conversation's next request in a session).
  const c = count(
    request,
    {
      provider: options.provider,
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer }),
    },
    prefixOf(twin),
  );
  const figures = countFigures(c);
  // The segmenter measures each segment once, in prompt order: hand it the counted figures in turn.
  // A count that went on from the twin's found its tools and first messages equal: the segmenter
  // takes their segments from the twin without comparing them again.
  const known = twin === undefined ? -1 : continuedMessages(c);
  const seg = segmentLazily(request, options.provider, countedTokens(c, figures), twin, known, keep);
  // perSegment is aligned with the segments by construction; a mismatch would be a bug upstream.
  // (Kinds, not paths: a segment's path is written only when read, and most never are.)
  if (seg.segments.length !== figures.length || !sameKinds(seg.segments, figures))
    throw new InvalidInputError("request", "the token count and the segments disagree on the prompt's order.");
  return { ...seg, count: c };
}

/** True when `segments` have the kinds of `figures`' segments, in order. */
function sameKinds(segments: readonly { readonly kind: string }[], figures: CountFigures): boolean {
  let index = 0;
  for (const run of figures.runs)
    for (let i = 0; i < run.tokens.length; i++) if (segments[index++]!.kind !== run.kinds.kind(i)) return false;
  return true;
}

/**
 * `segmentRequest` with billed tokens per segment (see the file comment). Linear in the request.
 * `twin`: the other turn of a comparison, whose identical segments lend their hashes (`segmentWith`).
 */
export function segmentCounted(
  request: ProviderRequest | NormalizedRequest,
  options: CountedOptions,
  twin?: SegmentedRequest,
): CountedRequest {
  // Every text is written out below: a block's JSON is kept as it is written for measuring.
  const seg = counted(request, options, twin, (r, o, prefix) => countTokensWith(r, o, FULL_COUNT_KIT, prefix), true);
  return {
    ...seg,
    segments: seg.segments.map(plainSegment),
    texts: seg.texts.map((t, i) => segmentJson(seg.segments[i]!, t)),
  };
}

/**
 * How an analysis (inspect, its next turns) measures the requests it segments: billed tokens by
 * default, the caller's estimator when one is given. One measure per analysis, so every figure of
 * it comes from the same counter.
 */
export interface Measure {
  readonly provider: CacheProvider;
  /** `counted`: countRequestTokens per segment; `estimator`: the caller's. */
  readonly source: "counted" | "estimator";
  /** `request` segmented with its tokens; `twin` lends hashes of identical segments (`segmentWith`). */
  segment(request: ProviderRequest | NormalizedRequest, twin?: SegmentedRequest): SegmentedRequest | CountedRequest;
  /** Tokens of the shared start of a segment that then differs (`commonPrefix`). */
  readonly partial: TokenEstimator;
}

/** The measure of a caller's estimator (already checked): `segmentWith` as `segmentRequest` measures. */
export const estimatorMeasure = (provider: CacheProvider, estimator: TokenEstimator): Measure => ({
  provider,
  source: "estimator",
  partial: estimator,
  segment: (r, twin) => segmentLazily(r, provider, estimator, twin),
});

/**
 * The measure that counts with `countTokensWith(kit)` — the kit holds the counter's optional parts
 * the requests need (`FULL_COUNT_KIT`: all of them) — with `tokenizer` for exact OpenAI counts and
 * `model` overriding the requests'. A partial segment is counted by the tokenizer when there is
 * one, else by `fallback` (checked, ÷4 by default), as `simulateCache` counts it.
 */
export function countedMeasure(
  provider: CacheProvider,
  fallback: TokenEstimator,
  kit: CountKit,
  options: { readonly model?: string; readonly tokenizer?: Tokenizer } = {},
): Measure {
  // One memo of the tokenizer's counts for every request this measure counts.
  const tokenizer = memoizedTokenizer(options.tokenizer);
  const opts: CountedOptions = {
    provider,
    ...(options.model === undefined || options.model === "" ? {} : { model: options.model }),
    ...(tokenizer === undefined ? {} : { tokenizer }),
  };
  const count: Counter = (r, o, prefix) => countTokensWith(r, o, kit, prefix);
  return {
    provider,
    source: "counted",
    partial: tokenizer === undefined ? fallback : (text) => tokenizer.count(text),
    // The analysis keeps the requests: a block's JSON is written again from it when read.
    segment: (r, twin) => counted(r, opts, twin, count, "sources"),
  };
}

/** The count behind a segmented request, when it was counted. */
export const countOf = (seg: SegmentedRequest): TokenCount | null =>
  "count" in seg ? (seg as CountedRequest).count : null;

/**
 * Each segment's tokens from `count` (a count of the same request for the same provider) in turn,
 * one per call: its `figures` (`countFigures`), with the provider's framing before the first
 * segment counted with it and the reply primer with the last. Read run by run, so nothing the
 * size of the request is copied; 0 once every segment was given.
 */
function countedTokens(count: TokenCount, figures: CountFigures): () => number {
  const last = figures.length - 1;
  const runs = figures.runs;
  let run = 0;
  let at = 0;
  let index = 0;
  // A fitted framing term can make one segment −1 (e.g. a tool result's wrapper): the deficit is
  // carried into the next segments, so no segment is negative and prefix sums never go down.
  let debt = 0;
  return () => {
    while (run < runs.length && at >= runs[run]!.tokens.length) {
      run++;
      at = 0;
    }
    if (run === runs.length) return 0;
    let raw = runs[run]!.tokens[at++]! + debt;
    if (index === 0) raw += count.leading;
    if (index === last) raw += count.trailing;
    index++;
    const tokens = Math.max(0, raw);
    debt = raw - tokens;
    return tokens;
  };
}
