/**
 * `suggestCacheBreakpoints(request, { previous? })`: where Anthropic `cache_control`
 * breakpoints pay off — at most 4, at the ends of the stable levels and of the conversation.
 * Feed the result to `toAnthropic(request, { breakpoints })`.
 */
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import type { CacheMarker } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { commonSegments, type RequestLike, type Turn, toTurn } from "./compare.ts";
import { selectCacheRule } from "./rules.ts";
import { checkOptions, segmentWith } from "./segments.ts";
import type { BreakpointSuggestion, CacheRule, TokenEstimator } from "./types.ts";

export interface SuggestBreakpointsOptions {
  /** The previous turn: adds a breakpoint where the shared prefix ends, so a long turn still finds it (20-block lookback). */
  readonly previous?: RequestLike;
  readonly tokenEstimator?: TokenEstimator;
  readonly rules?: readonly CacheRule[];
  readonly ruleId?: string;
  /**
   * Default 4 (Anthropic's limit). A request with top-level `cache_control` (automatic caching)
   * spends one of them on its last block, so it gets at most one fewer, and none on that block.
   */
  readonly max?: number;
}

/**
 * Suggested breakpoints in prompt order; prefixes below the model's minimum are skipped (they would
 * cache nothing). `request` gets the message-shape check, `previous` the check of its kind.
 */
export function suggestCacheBreakpoints(
  request: ProviderRequest | NormalizedRequest,
  options: SuggestBreakpointsOptions = {},
): BreakpointSuggestion[] {
  checkOptions(options);
  const estimate = checkedTokenEstimator(options.tokenEstimator, "tokenEstimator");
  assertProviderRequest(request);
  if (options.max !== undefined && !(Number.isSafeInteger(options.max) && options.max >= 0))
    throw new InvalidInputError("max", `must be a whole number ≥ 0, got ${String(options.max)}.`);
  const previous = options.previous === undefined ? null : toTurn(options.previous, "anthropic", estimate, "previous");
  return breakpointsFor(request, options, estimate, previous);
}

/** `suggestCacheBreakpoints` for a request an earlier stage checked, with a checked estimator and the previous turn made. */
export function breakpointsFor(
  request: ProviderRequest | NormalizedRequest,
  options: SuggestBreakpointsOptions,
  estimate: TokenEstimator,
  previous: Turn | null,
): BreakpointSuggestion[] {
  const seg = segmentWith(request, "anthropic", estimate);
  const { rule } = selectCacheRule("anthropic", seg.model, options);
  const cumulative: number[] = [];
  let sum = 0;
  for (const s of seg.segments) cumulative.push((sum += s.tokens));
  const isBlock = (i: number) => seg.segments[i]!.kind === "tool" || seg.segments[i]!.kind === "block";
  const lastOf = (pred: (i: number) => boolean, before = seg.segments.length) => {
    for (let i = before - 1; i >= 0; i--) if (isBlock(i) && pred(i)) return i;
    return -1;
  };
  // Automatic caching marks the last block itself and counts against the limit (Anthropic docs).
  const automatic = seg.automaticCaching ? 1 : 0;
  const limit = Math.max(0, Math.min(options.max ?? rule.maxBreakpoints ?? 4, (rule.maxBreakpoints ?? 4) - automatic));
  const candidates: { index: number; reason: string; priority: number }[] = [];
  const add = (index: number, reason: string, priority: number) => {
    if (index >= 0 && !candidates.some((c) => c.index === index)) candidates.push({ index, reason, priority });
  };
  const end = lastOf(() => true);
  if (automatic) candidates.push({ index: end, reason: "", priority: -1 });
  else add(end, "End of the request: the next turn, which appends to this one, reads everything up to here.", 0);
  add(
    lastOf((i) => seg.segments[i]!.region === "system"),
    "End of the system prompt: survives changes to the conversation.",
    1,
  );
  add(
    lastOf((i) => seg.segments[i]!.region === "tools"),
    "End of the tool definitions: survives system-prompt changes.",
    2,
  );
  if (previous) {
    const shared = commonSegments(previous, toTurn(seg, "anthropic", estimate));
    add(
      lastOf(() => true, shared),
      "End of the prefix shared with the previous turn: found even when this turn adds more than 20 blocks.",
      3,
    );
  }
  return candidates
    .filter((c) => c.priority >= 0 && cumulative[c.index]! >= rule.minTokens)
    .sort((a, b) => a.priority - b.priority)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index)
    .map((c) => ({
      path: seg.segments[c.index]!.path,
      region: seg.segments[c.index]!.region,
      prefixTokens: cumulative[c.index]!,
      reason: c.reason,
    }));
}

/**
 * A copy of `request` whose only cache markers are at `paths` (`tools[i]` or `messages[i].content[j]`).
 * A path given as `{ path, ttl }` gets that lifetime; otherwise a block that already carries a marker
 * keeps it as it is (`ttl: "1h"` stays 1 hour), and an unmarked one gets the default 5 minutes.
 */
export function applyBreakpoints<R extends ProviderRequest | NormalizedRequest>(
  request: R,
  paths: readonly (string | { readonly path: string; readonly ttl?: CacheMarker["ttl"] })[],
): R {
  const wanted = new Map(paths.map((p) => (typeof p === "string" ? [p, undefined] : [p.path, p.ttl])));
  const mark = <T extends { readonly cache?: CacheMarker }>(item: T, path: string): T => {
    const { cache, ...rest } = item;
    if (!wanted.has(path)) return rest as T;
    const ttl = wanted.get(path);
    const marker: CacheMarker = ttl ? { type: "ephemeral", ttl } : (cache ?? { type: "ephemeral" });
    return { ...rest, cache: marker } as T;
  };
  return {
    ...request,
    tools: request.tools.map((t, i) => mark(t, `tools[${i}]`)),
    messages: request.messages.map((m, i) => ({
      ...m,
      content: m.content.map((b, j) => mark(b, `messages[${i}].content[${j}]`)),
    })),
  };
}
