/**
 * The exact OpenAI count (with a tokenizer): the pieces of count-openai.ts under the fitted framing
 * constants. Its own module so that `inspect` loads it (by `import()`) only with a tokenizer.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { OPENAI_FITTED_FRAMING } from "./coefficients.ts";
import { band, mediaBand } from "./count-band.ts";
import type { FeatureContext } from "./count-estimate.ts";
import { FITTED_EVENTS, type FittedEvents, openaiPieces } from "./count-openai.ts";
import type { MediaCost } from "./media.ts";
import { segmentRefs } from "./segment-order.ts";
import type { CountMethod, SegmentTokens, TokenCount, Tokenizer, TokenNote } from "./types.ts";

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

export function exactCount(
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
