/**
 * `simulateCache(turns, { provider, model, rules? })`: an offline prompt-cache simulator.
 * Per turn: tokens read from cache, written to it and sent uncached, what prevented caching,
 * and the input cost relative to the same turn without caching — from one `CACHE_RULES` row.
 *
 * Model: every turn is sent within the cache lifetime, to the same cache, after the previous
 * turn. `automatic` providers (OpenAI, Gemini) reuse the longest prefix shared with any earlier
 * turn of at least `minTokens`; `breakpoints` providers (Anthropic) write an entry at each
 * marked block whose prefix reaches `minTokens`, and read the longest earlier entry found
 * within `lookbackBlocks` blocks before one of the request's breakpoints.
 */
import { InvalidInputError } from "../util/errors.ts";
import { analysisOptions, commonPrefix, commonSegments, type RequestLike, type Turn, toTurn } from "./compare.ts";
import { selectCacheRule } from "./rules.ts";
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
  /** Same contract as `segmentRequest`'s (`checkedTokenEstimator`): whole tokens, `TokenEstimatorError` when bad. */
  readonly tokenEstimator?: TokenEstimator;
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

function automaticTurn(i: number, turns: readonly Turn[], rule: CacheRule, estimate: TokenEstimator): CacheTurnResult {
  const t = turns[i]!;
  const total = t.total.tokens;
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

/**
 * Simulates the provider's prompt cache over consecutive turns. Each turn is checked once on
 * entry, as `compareRequests` checks its sides (bundles structurally, requests by message shape).
 */
export function simulateCache(turns: readonly RequestLike[], options: SimulateOptions): CacheSimulation {
  const { provider, estimate } = analysisOptions(options);
  if (!Array.isArray(turns))
    throw new InvalidInputError("turns", "must be an array of requests, segmented requests or fingerprint bundles.");
  if (turns.length === 0) throw new InvalidInputError("turns", "pass at least one request");
  if (options.model !== undefined && typeof options.model !== "string")
    throw new InvalidInputError("model", "must be a model id string.");
  return simulateTurns(
    turns.map((t, i) => toTurn(t, provider, estimate, `turns[${i}]`)),
    options,
    estimate,
  );
}

/** `simulateCache` over turns already made (`toTurn`), with a checked estimator. */
export function simulateTurns(
  list: readonly Turn[],
  options: SimulateOptions,
  estimate: TokenEstimator,
): CacheSimulation {
  const model = options.model ?? list[list.length - 1]!.model;
  const { rule, alternatives } = selectCacheRule(options.provider, model, options);
  const results = list.map((_, i) =>
    rule.mode === "automatic" ? automaticTurn(i, list, rule, estimate) : breakpointTurn(i, list, rule),
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
    options.tokenEstimator
      ? "Token counts come from the injected tokenEstimator, per serialized segment, rounded up to whole tokens."
      : "Token counts are estimates: ceil(UTF-16 length / 4) of each serialized segment.",
    rule.mode === "breakpoints"
      ? totals.cacheWrite1hTokens > 0
        ? `Writes are priced at the 5-minute rate (${rule.writeMultiplier}×), those up to a ttl: "1h" marker at the 1-hour rate (${rule.writeMultiplier1h ?? rule.writeMultiplier}×).`
        : "Writes are priced at the 5-minute rate; 1-hour entries cost 2× instead of 1.25×."
      : "Implicit caching writes at no extra cost; hits are best-effort.",
  ];
  return { provider: options.provider, model, rule, alternatives, assumptions, turns: results, totals };
}
