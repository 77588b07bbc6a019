/**
 * `simulateCache(turns, { provider, model, rules? })`: an offline prompt-cache simulator.
 * Per turn: tokens read from cache, written to it and sent uncached, what prevented caching,
 * and the input cost relative to the same turn without caching — from one `CACHE_RULES` row.
 *
 * Model: every turn is sent within the cache lifetime, to the same cache, after the previous
 * turn. Token figures are what the provider bills per segment (`countRequestTokens`, exact for
 * OpenAI with a tokenizer) unless a `tokenEstimator` is passed.
 * - OpenAI (automatic): a prompt of at least 1,024 tokens is cached; a later prompt reads the
 *   longest prefix it shares with an earlier one, in 128-token steps from 1,024 (1,024, 1,152, …).
 *   Best-effort: requests reach the cache through routing by prefix (OpenAI prompt caching guide;
 *   Prompt Caching 201 cookbook, read 2026-12).
 * - Anthropic (breakpoints): an entry is written at each marked block whose prefix reaches the
 *   minimum; a request reads the longest earlier entry found within `lookbackBlocks` (20) blocks
 *   before one of its breakpoints, at the latest such block. Deterministic within the TTL.
 * - Gemini (automatic, implicit): Gemini 2.5 and later only, from the model's minimum, with no
 *   cost-saving guarantee; a request naming an explicit `cachedContent` reads all of that cache,
 *   whose size is not in the request (Gemini context caching docs, read 2026-12).
 *
 * Checked against recorded consecutive turns of public cassettes: cache/calibration/.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { InvalidInputError } from "../util/errors.ts";
import { analysisOptions, commonPrefix, commonSegments, type RequestLike, type Turn, toTurn } from "./compare.ts";
import { segmentCounted } from "./counted.ts";
import { bareModelId, selectCacheRule } from "./rules.ts";
import type {
  CachePrevented,
  CacheProvider,
  CacheRule,
  CacheSimulation,
  CacheTurnResult,
  TokenEstimator,
} from "./types.ts";

export interface SimulateOptions {
  readonly provider: CacheProvider;
  /** Model for rule selection; default the last turn's model. */
  readonly model?: string;
  /** Rule table; default `CACHE_RULES`. */
  readonly rules?: readonly CacheRule[];
  /** Use this row instead of the default pick (e.g. an `observed` or `legacy` row). */
  readonly ruleId?: string;
  /**
   * Counts each segment instead of `countRequestTokens`. Same contract as `segmentRequest`'s
   * (`checkedTokenEstimator`): whole tokens, `TokenEstimatorError` when bad.
   */
  readonly tokenEstimator?: TokenEstimator;
  /** `createOpenAITokenizer(model)`: exact OpenAI counts (ignored with a `tokenEstimator`). */
  readonly tokenizer?: Tokenizer;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const NONE: CachePrevented = {
  belowMinimum: false,
  tooManyBreakpoints: false,
  lookbackExceeded: false,
  noBreakpoints: false,
};

/** Input cost of `read`, `write` (of which `write1h` with a 1-hour lifetime) and the uncached rest, in input tokens. */
function inputCost(total: number, read: number, write: number, write1h: number, rule: CacheRule): number {
  const m1h = rule.writeMultiplier1h ?? rule.writeMultiplier;
  return total - read - write + read * rule.readMultiplier + (write - write1h) * rule.writeMultiplier + write1h * m1h;
}

function result(
  turn: number,
  total: number,
  read: number,
  write: number,
  rule: CacheRule,
  prevented: CachePrevented,
  notes: string[],
  write1h = 0,
): CacheTurnResult {
  const uncached = total - read - write;
  const cost = total === 0 ? 1 : inputCost(total, read, write, write1h, rule) / total;
  return {
    turn,
    totalTokens: total,
    cachedReadTokens: read,
    cacheWriteTokens: write,
    cacheWrite1hTokens: write1h,
    uncachedTokens: uncached,
    prevented,
    relativeCost: round4(cost),
    notes,
  };
}

/** Gemini before 2.5 (1.0, 1.5, 2.0) has no implicit caching: only explicit `cachedContent`. */
const NO_IMPLICIT = /^gemini-(?:1\.|2\.0|pro|ultra)/;

function automaticTurn(
  i: number,
  turns: readonly Turn[],
  rule: CacheRule,
  estimate: TokenEstimator,
  explicit: readonly (string | null)[],
): CacheTurnResult {
  const t = turns[i]!;
  const total = t.total.tokens;
  if (explicit[i]) {
    return result(i + 1, total, 0, 0, rule, NONE, [
      `Names the explicit cache ${explicit[i]}: Gemini reads all of it (guaranteed), but its size is not in the request, so the read is not counted here.`,
    ]);
  }
  if (rule.provider === "gemini" && NO_IMPLICIT.test(bareModelId(t.model).toLowerCase())) {
    return result(i + 1, total, 0, 0, rule, NONE, [
      "Implicit caching starts with Gemini 2.5: this model caches only through an explicit cachedContent.",
    ]);
  }
  if (total < rule.minTokens) {
    return result(i + 1, total, 0, 0, rule, { ...NONE, belowMinimum: true }, [
      `The prompt has ${total} tokens, below the ${rule.minTokens}-token minimum: nothing is cached.`,
    ]);
  }
  let best = 0;
  let from = -1;
  for (let j = 0; j < i; j++) {
    const p = turns[j]!;
    if (p.model !== t.model || p.total.tokens < rule.minTokens) continue;
    const shared = commonPrefix(p, t, estimate).tokens;
    if (shared > best) {
      best = shared;
      from = j;
    }
  }
  const notes: string[] = [];
  let read = best >= rule.minTokens ? best : 0;
  if (read > 0 && rule.hitIncrement)
    read = rule.minTokens + Math.floor((read - rule.minTokens) / rule.hitIncrement) * rule.hitIncrement;
  if (read > 0) notes.push(`Reads ${read} tokens of the prefix shared with turn ${from + 1}.`);
  else if (best > 0)
    notes.push(`Shares only ${best} tokens with an earlier turn, below the ${rule.minTokens}-token minimum.`);
  else
    notes.push(
      i === 0
        ? "First turn: the prompt is cached for later turns at no extra cost."
        : "No prefix shared with an earlier turn.",
    );
  return result(i + 1, total, read, 0, rule, NONE, notes);
}

function breakpointTurn(i: number, turns: readonly Turn[], rule: CacheRule): CacheTurnResult {
  const t = turns[i]!;
  const segs = t.segments;
  const total = t.total.tokens;
  const cumulative: number[] = [];
  let sum = 0;
  for (const s of segs) cumulative.push((sum += s.tokens));
  // Block rank of every segment (tools and content blocks are blocks; headers are not).
  const rank: number[] = [];
  let blocks = 0;
  let lastBlock = -1;
  for (const s of segs) {
    const isBlock = s.kind === "tool" || s.kind === "block";
    if (isBlock) {
      blocks++;
      lastBlock = rank.length;
    }
    rank.push(blocks);
  }
  const bps = segs.filter((s) => s.cacheBreakpoint).map((s) => s.index);
  if (t.automaticCaching && lastBlock >= 0 && !bps.includes(lastBlock)) bps.push(lastBlock);
  if (bps.length === 0) {
    return result(i + 1, total, 0, 0, rule, { ...NONE, noBreakpoints: true }, [
      "No cache_control breakpoint: Anthropic caches nothing. Add breakpoints (suggestCacheBreakpoints) or top-level cache_control.",
    ]);
  }
  if (rule.maxBreakpoints !== null && bps.length > rule.maxBreakpoints) {
    return result(i + 1, total, 0, 0, rule, { ...NONE, tooManyBreakpoints: true }, [
      `${bps.length} cache breakpoints but at most ${rule.maxBreakpoints} are allowed: the API rejects the request. Keep the ${rule.maxBreakpoints} that end the longest stable prefixes.`,
    ]);
  }
  // Entries written by earlier turns that still match this turn's prefix.
  let read = 0;
  let from = -1;
  let missedByLookback = 0;
  for (let j = 0; j < i; j++) {
    const p = turns[j]!;
    if (p.model !== t.model) continue;
    const shared = commonSegments(p, t);
    const pBps = p.segments.filter((s) => s.cacheBreakpoint).map((s) => s.index);
    if (p.automaticCaching) {
      const last = p.segments.findLastIndex((s) => s.kind === "tool" || s.kind === "block");
      if (last >= 0 && !pBps.includes(last)) pBps.push(last);
    }
    if (rule.maxBreakpoints !== null && pBps.length > rule.maxBreakpoints) continue;
    let pSum = 0;
    const pCum = p.segments.map((s) => (pSum += s.tokens));
    for (const m of pBps) {
      if (m >= shared || pCum[m]! < rule.minTokens) continue;
      const reachable =
        rule.lookbackBlocks === null || bps.some((b) => b >= m && rank[b]! - rank[m]! <= rule.lookbackBlocks!);
      if (!reachable) {
        missedByLookback = Math.max(missedByLookback, cumulative[m]!);
        continue;
      }
      if (cumulative[m]! > read) {
        read = cumulative[m]!;
        from = j;
      }
    }
  }
  const notes: string[] = [];
  const prevented = { ...NONE, lookbackExceeded: missedByLookback > read };
  if (read > 0) notes.push(`Reads ${read} tokens from the entry written by turn ${from + 1}.`);
  if (prevented.lookbackExceeded) {
    notes.push(
      `An entry of ${missedByLookback} tokens matches but lies more than ${rule.lookbackBlocks} blocks before every breakpoint: add a breakpoint closer to it.`,
    );
  }
  const lastValid = bps.filter((b) => cumulative[b]! >= rule.minTokens).reduce((a, b) => Math.max(a, b), -1);
  if (lastValid < 0) {
    notes.push(
      `The prefix up to the last breakpoint has ${Math.max(...bps.map((b) => cumulative[b]!))} tokens, below the ${rule.minTokens}-token minimum: nothing is cached (and no error is returned).`,
    );
    return result(i + 1, total, read, 0, rule, { ...prevented, belowMinimum: true }, notes);
  }
  const write = Math.max(0, cumulative[lastValid]! - read);
  // Each breakpoint writes the tokens since the previous entry with its own lifetime: a 1-hour
  // marker's share is priced at the 1-hour rate (Anthropic bills ephemeral_1h_input_tokens apart).
  const long = new Set(t.ttl1h ?? []);
  let write1h = 0;
  let end = read;
  for (const b of [...bps].sort((x, y) => x - y)) {
    if (cumulative[b]! < rule.minTokens || cumulative[b]! <= end) continue;
    if (long.has(b)) write1h += cumulative[b]! - end;
    end = cumulative[b]!;
  }
  if (write > 0)
    notes.push(
      `Writes ${write} tokens up to ${segs[lastValid]!.path}${write1h > 0 ? ` (${write1h} of them with a 1-hour lifetime, at the 1-hour price)` : ""}.`,
    );
  const after = total - cumulative[lastValid]!;
  if (after > 0) notes.push(`${after} tokens after the last breakpoint are sent uncached.`);
  return result(i + 1, total, read, write, rule, prevented, notes, write1h);
}

const isRequest = (t: RequestLike): t is NormalizedRequest =>
  t !== null &&
  typeof t === "object" &&
  (t as { kind?: unknown }).kind !== "strata-fingerprints" &&
  !("texts" in t && "segments" in t);

/** Gemini's explicit cache a request names (`cachedContent`), or null. */
function explicitCacheOf(t: RequestLike, provider: CacheProvider): string | null {
  if (provider !== "gemini" || !isRequest(t)) return null;
  const name = t.providerOptions?.["cachedContent"] ?? t.providerOptions?.["cached_content"];
  return typeof name === "string" && name !== "" ? name : null;
}

/**
 * Simulates the provider's prompt cache over consecutive turns. Each turn is checked once on
 * entry, as `compareRequests` checks its sides (bundles structurally, requests by message shape);
 * requests are counted with `countRequestTokens` unless a `tokenEstimator` is given.
 */
export function simulateCache(turns: readonly RequestLike[], options: SimulateOptions): CacheSimulation {
  const { provider, estimate } = analysisOptions(options);
  if (!Array.isArray(turns))
    throw new InvalidInputError("turns", "must be an array of requests, segmented requests or fingerprint bundles.");
  if (turns.length === 0) throw new InvalidInputError("turns", "pass at least one request");
  if (options.model !== undefined && typeof options.model !== "string")
    throw new InvalidInputError("model", "must be a model id string.");
  const counted = options.tokenEstimator === undefined;
  const tokenizer = counted ? options.tokenizer : undefined;
  let exact = true;
  let requests = 0;
  const list = turns.map((t, i) => {
    const field = `turns[${i}]`;
    if (!counted || !isRequest(t)) return toTurn(t, provider, estimate, field);
    assertProviderRequest(t, `${field}.`);
    const seg = segmentCounted(t, { provider, ...(tokenizer === undefined ? {} : { tokenizer }) });
    requests++;
    exact &&= seg.count.method === "exact";
    return toTurn(seg, provider, estimate, field);
  });
  // A shared start of a segment that then differs: the tokenizer counts it when there is one.
  const partial: TokenEstimator = tokenizer === undefined ? estimate : (text) => tokenizer.count(text);
  const tokens: TokenSource = !counted ? "estimator" : requests === 0 ? "bundles" : exact ? "exact" : "counted";
  return simulateTurns(list, options, partial, {
    explicitCaches: turns.map((t) => explicitCacheOf(t, provider)),
    tokens,
  });
}

/** Where a simulation's token figures come from (for its assumptions). */
export type TokenSource = "exact" | "counted" | "estimator" | "bundles" | "quarter";

const TOKEN_ASSUMPTION: Record<TokenSource, string> = {
  exact: "Token counts are exact: OpenAI's tokenizer per segment with the provider's framing (countRequestTokens).",
  counted:
    "Token counts are countRequestTokens per segment: calibrated estimates (see its low/high band) where no tokenizer counts exactly.",
  estimator: "Token counts come from the injected tokenEstimator, per serialized segment, rounded up to whole tokens.",
  bundles: "Token counts are the ones in the fingerprint bundles.",
  quarter: "Token counts are estimates: ceil(UTF-16 length / 4) of each serialized segment.",
};

/** What each provider promises about its cache (sources in the file comment). */
const BEHAVIOUR: Record<CacheProvider, { guaranteed: boolean; note: string }> = {
  openai: {
    guaranteed: false,
    note: "Best-effort: OpenAI routes a request by its prefix to a server that may hold the cache; hits are likely but not guaranteed (more reliable from GPT-5.6 on, and with a stable prompt_cache_key).",
  },
  anthropic: {
    guaranteed: true,
    note: "Deterministic: within the TTL, a breakpoint whose prefix was written reads it; Strata's counts of Claude's tokens are estimates, so a prefix near the minimum may fall on either side.",
  },
  gemini: {
    guaranteed: false,
    note: "Implicit caching is best-effort with no cost-saving guarantee (hits below the documented minimum and partial reads are observed); an explicit cachedContent is guaranteed.",
  },
};

/** `simulateCache` over turns already made (`toTurn`), with a checked estimator (for a shared start of a segment). */
export function simulateTurns(
  list: readonly Turn[],
  options: SimulateOptions,
  estimate: TokenEstimator,
  extra: { readonly explicitCaches?: readonly (string | null)[]; readonly tokens?: TokenSource } = {},
): CacheSimulation {
  const model = options.model ?? list[list.length - 1]!.model;
  const { rule, alternatives } = selectCacheRule(options.provider, model, options);
  const explicit = extra.explicitCaches ?? list.map(() => null);
  const results = list.map((_, i) =>
    rule.mode === "automatic" ? automaticTurn(i, list, rule, estimate, explicit) : breakpointTurn(i, list, rule),
  );
  const totals = {
    totalTokens: 0,
    cachedReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    uncachedTokens: 0,
    relativeCost: 1,
  };
  let cost = 0;
  for (const r of results) {
    totals.totalTokens += r.totalTokens;
    totals.cachedReadTokens += r.cachedReadTokens;
    totals.cacheWriteTokens += r.cacheWriteTokens;
    totals.cacheWrite1hTokens += r.cacheWrite1hTokens;
    totals.uncachedTokens += r.uncachedTokens;
    cost += inputCost(r.totalTokens, r.cachedReadTokens, r.cacheWriteTokens, r.cacheWrite1hTokens, rule);
  }
  totals.relativeCost = totals.totalTokens === 0 ? 1 : round4(cost / totals.totalTokens);
  const assumptions = [
    `Every turn is sent within the cache lifetime (${rule.ttl}) and reaches the same cache${options.provider === "openai" ? " (same prompt_cache_key, under ~15 requests/min per prefix)" : ""}.`,
    TOKEN_ASSUMPTION[extra.tokens ?? (options.tokenEstimator ? "estimator" : "quarter")],
    rule.mode === "breakpoints"
      ? totals.cacheWrite1hTokens > 0
        ? `Writes are priced at the 5-minute rate (${rule.writeMultiplier}×), those up to a ttl: "1h" marker at the 1-hour rate (${rule.writeMultiplier1h ?? rule.writeMultiplier}×).`
        : "Writes are priced at the 5-minute rate; 1-hour entries cost 2× instead of 1.25×."
      : "Implicit caching writes at no extra cost; hits are best-effort.",
  ];
  const behaviour = BEHAVIOUR[options.provider];
  return { provider: options.provider, model, rule, alternatives, assumptions, behaviour, turns: results, totals };
}
