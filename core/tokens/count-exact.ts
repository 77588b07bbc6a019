/**
 * The exact OpenAI count (with a tokenizer): the pieces of count-openai.ts under the fitted framing
 * constants. Its own module so that `inspect` loads it (by `import()`) only with a tokenizer.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { OPENAI_FITTED_FRAMING } from "./coefficients.ts";
import { band, mediaBand } from "./count-band.ts";
import type { FeatureContext } from "./count-estimate.ts";
import { currentLoopStart } from "./count-estimate.ts";
import { FITTED_EVENTS, type FittedEvents, NO_EVENTS, openaiPieces } from "./count-openai.ts";
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
import type { MediaCost } from "./media.ts";
import { SegmentWalk } from "./segment-order.ts";
import type { CountMethod, TokenCount, Tokenizer, TokenNote } from "./types.ts";

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

/**
 * Where an exact count ended, so a request that only appends messages to its request (a simulated
 * next turn, the current turn after the previous one) is counted from there: the segments already
 * counted read the same tools, options, first system message and tool loop, so they count the same.
 */
interface ExactEnd extends CountEnd {
  readonly format: "openai-chat" | "openai-responses";
  /** The very tokenizer (its encoding, its counts, and with the model whether the count is trusted). */
  readonly tokenizer: Tokenizer;
  /** Index of the first system message, or -1 (`OpenAIPieces.firstSystem`). */
  readonly firstSystem: number;
  /** Running figures after the last segment, summed in segment order as a fresh count sums them. */
  readonly segmentTokens: number;
  readonly estimated: number;
  readonly estimate: boolean;
  readonly segmentNotes: readonly TokenNote[];
  /** The count's figures (its `perSegment` is written from them when read). */
  readonly segments: WalkFigures;
}
const ends = new WeakMap<TokenCount, ExactEnd>();

/**
 * `prefix`'s end when `request` only appends messages to its request and nothing counted changes
 * with the append: the same first system message (it decides the function definitions' padding
 * and share), and the same tool loop unless no reasoning item was counted in it (an item counts
 * only within the current loop).
 */
function continuable(
  prefix: CountPrefix | undefined,
  request: NormalizedRequest,
  model: string,
  format: "openai-chat" | "openai-responses",
  tokenizer: Tokenizer,
): ExactEnd | undefined {
  const end = prefix === undefined ? undefined : ends.get(prefix.count);
  if (end === undefined || end.model !== model || end.format !== format || end.tokenizer !== tokenizer)
    return undefined;
  if (!appendsTo(prefix!, request, end.request)) return undefined;
  if (request.messages.findIndex((m) => m.role === "system") !== end.firstSystem) return undefined;
  if (end.loopSensitive && currentLoopStart(request) !== end.loopStart) return undefined;
  return end;
}

export function exactCount(
  request: NormalizedRequest,
  model: string,
  format: "openai-chat" | "openai-responses",
  tokenizer: Tokenizer,
  ctx: FeatureContext,
  notes: TokenNote[],
  trusted: boolean,
  prefix?: CountPrefix,
): TokenCount {
  const from = continuable(prefix, request, model, format, tokenizer);
  const counted = from === undefined ? 0 : from.request.messages.length;
  // Counting on from `prefix`: only the appended messages are walked.
  const walk = new SegmentWalk(request, "openai", from === undefined ? -1 : counted);
  const base = from === undefined ? 0 : from.segments.length;
  const k = OPENAI_FITTED_FRAMING[format];
  // Indexed loops below, not reduce or for…of: a closure or an iterator per segment was most of what
  // this loop allocated.
  const fitted = (e: FittedEvents): number => {
    if (e === NO_EVENTS) return 0;
    let sum = 0;
    for (let j = 0; j < FITTED_EVENTS.length; j++) sum += e[FITTED_EVENTS[j]!] * k[FITTED_EVENTS[j]!];
    return Math.round(sum);
  };
  // The leading pieces' share is added once they are known (after the segments): whole numbers,
  // so the sum does not depend on the order.
  let estimated = from?.estimated ?? 0;
  let estimate = from?.estimate ?? false;
  let segmentTokens = from?.segmentTokens ?? 0;
  const media: MediaCost[] = from === undefined ? [] : [...from.media];
  // This walk's figures only: the earlier count's runs are shared, not copied (see `WalkFigures`).
  const tokenList = new Array<number>(walk.length);
  const exact = new Uint8Array(walk.length);
  const segmentMedia = new Map(from?.segments.media);
  const pieces = openaiPieces(request, walk, checkedCount(tokenizer), model, ctx, (i, p) => {
    const tokens = p.fixed + fitted(p.events);
    let mediaTokens = 0;
    for (let j = 0; j < p.media.length; j++) {
      media.push(p.media[j]!);
      mediaTokens += p.media[j]!.tokens;
    }
    // With another model's encoding nothing is exact: the whole count gets the estimate band.
    const segmentMethod = trusted ? p.method : "estimate";
    if (segmentMethod === "estimate") {
      estimate = true;
      estimated += tokens - mediaTokens;
    }
    segmentTokens += tokens;
    tokenList[i] = tokens;
    if (segmentMethod === "exact") exact[i] = 1;
    // The segment's own list (a new one for every segment that has media): kept, not the pieces.
    if (p.media.length > 0) segmentMedia.set(base + i, p.media);
  });
  if (from === undefined && pieces.leadingMethod === "estimate") estimated += pieces.leading;
  const segments = walkFigures(from?.segments, { tokens: tokenList, kinds: walk, exact }, segmentMedia);
  const segmentNotes = from === undefined ? pieces.notes : [...from.segmentNotes, ...pieces.notes];
  notes.push(...segmentNotes, ...pieces.leadingNotes);
  const method: CountMethod = !trusted || estimate ? "estimate" : pieces.leadingMethod;
  const total = pieces.leading + segmentTokens + pieces.trailing;
  const end: ExactEnd = {
    request,
    model,
    format,
    tokenizer,
    firstSystem: pieces.firstSystem,
    loopStart: pieces.loopStart,
    // Reasoning in the loop: among the segments walked now, or (the loop unchanged) among those counted before.
    loopSensitive:
      pieces.loopSensitive || (from !== undefined && from.loopSensitive && from.loopStart === pieces.loopStart),
    segmentTokens,
    estimated,
    estimate,
    media,
    segmentNotes,
    segments,
  };
  if (!trusted) estimated += pieces.trailing + (pieces.leadingMethod === "exact" ? pieces.leading : 0);
  const count: TokenCount = {
    total,
    method,
    ...band(total, estimated, OPENAI_FITTED_FRAMING.band, mediaBand(media)),
    leading: pieces.leading,
    perSegment: NO_SEGMENTS,
    trailing: pieces.trailing,
    provider: "openai",
    model,
    format,
    encoding: tokenizer.encoding,
    notes,
  };
  keepFigures(count, segments);
  ends.set(count, end);
  if (from !== undefined) continued.set(count, counted);
  return count;
}
