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
import { countRequestTokens } from "../tokens/count.ts";
import type { TokenCount, Tokenizer } from "../tokens/types.ts";
import { type SegmentedRequest, segmentWith } from "./segments.ts";
import type { CacheProvider, Segment } from "./types.ts";

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

const bytesOnly = () => 0;

/** `segmentRequest` with billed tokens per segment (see the file comment). Linear in the request. */
export function segmentCounted(request: ProviderRequest | NormalizedRequest, options: CountedOptions): CountedRequest {
  const count = countRequestTokens(request, {
    provider: options.provider,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer }),
  });
  const seg = segmentWith(request, options.provider, bytesOnly);
  return withCount(seg, count);
}

/** `seg`'s segments re-measured by `count` (a count of the same request for the same provider). */
export function withCount(seg: SegmentedRequest, count: TokenCount): CountedRequest {
  const last = seg.segments.length - 1;
  let total = 0;
  // A fitted framing term can make one segment −1 (e.g. a tool result's wrapper): the deficit is
  // carried into the next segments, so no segment is negative and prefix sums never go down.
  let debt = 0;
  const segments = seg.segments.map((s, i): Segment => {
    const own = count.perSegment[i];
    // perSegment is aligned with segmentRequest by construction; a path mismatch would be a bug upstream.
    let raw = (own !== undefined && own.path === s.path ? own.tokens : 0) + debt;
    if (i === 0) raw += count.leading;
    if (i === last) raw += count.trailing;
    const tokens = Math.max(0, raw);
    debt = raw - tokens;
    total += tokens;
    return { ...s, tokens };
  });
  return { ...seg, segments, totalTokens: segments.length === 0 ? 0 : total, count };
}
