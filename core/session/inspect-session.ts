/**
 * `inspectSession(session, options)` → `SessionReport`, and the incremental form underneath it,
 * `createSessionAnalyzer`: entries go in one at a time, in the order they were sent; each is
 * segmented, put in its thread (threads.ts), compared with the thread's previous turn
 * (`compareTurns`: cause and shared prefix), run through the session's cache (cache-model.ts: read,
 * write and uncached tokens, lifetimes from the entries' times), set against the usage its
 * response reported, and priced (cost.ts). Then the entry is dropped: the analyzer keeps the
 * report rows, each thread's last turn (segment hashes; the text only for the `TEXT_THREADS` most
 * recently active threads) and the cache's prefix keys — never the session's requests.
 */
import { bundleTurn, compareTurns, type Turn, toTurn } from "../cache/compare.ts";
import { checkFingerprintBundle } from "../cache/fingerprint-check.ts";
import { isFingerprintBundle } from "../cache/fingerprints.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { selectCacheRule } from "../cache/rules.ts";
import { type SegmentedRequest, segmentWith } from "../cache/segments.ts";
import { segmentCounted } from "../cache/counted.ts";
import type { Tokenizer } from "../tokens/types.ts";
import type { CacheProvider, CacheRule, PrefixComparison, TokenEstimator } from "../cache/types.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { MODEL_TABLE_DATE, type ModelPrices } from "../formats/models.ts";
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { InvalidInputError } from "../util/errors.ts";
import { isObject } from "../util/plain-object.ts";
import { type CacheTurn, prefixKeys, SessionCache } from "./cache-model.ts";
import { type CompactTurn, compactTurn, expandTurn } from "./compact-turn.ts";
import { FingerprintCollector, type SessionFingerprints } from "./fingerprints.ts";
import { pricesFor, turnCost, usd } from "./cost.ts";
import { createSessionReader, type SessionItem } from "./parse.ts";
import { messageKeys, namespaceOf, ThreadIndex, type ThreadLike } from "./threads.ts";
import {
  type EntryHints,
  SESSION_REPORT_VERSION,
  type Session,
  type SessionBust,
  type SessionEntry,
  type SessionInputKind,
  type SessionProblem,
  type SessionReport,
  type SessionThread,
  type SessionTotals,
  type SessionTurn,
  type SkipCode,
  type SkippedRecord,
  type TurnCause,
} from "./types.ts";

export interface InspectSessionOptions {
  /**
   * Counts tokens per segment instead of `countRequestTokens` (same contract as `segmentRequest`'s).
   * By default each turn is counted as `simulateCache` counts it, so the two agree.
   */
  readonly tokenEstimator?: TokenEstimator;
  /** `createOpenAITokenizer(model)`: exact counts for OpenAI turns (ignored with a `tokenEstimator`). */
  readonly tokenizer?: Tokenizer;
  /** Cache rule table; default `CACHE_RULES`. */
  readonly rules?: readonly CacheRule[];
  /** Also collect the session's hash-only fingerprints (`analyzer.fingerprints()`), e.g. for a share link. */
  readonly fingerprints?: boolean;
}

/** Threads whose last turn keeps its text (for excerpts of the next divergence); older ones keep hashes only. */
export const TEXT_THREADS = 16;
/** Skipped records listed one by one in the report (all are counted). */
export const LISTED_SKIPS = 200;

interface LastTurn {
  /** With texts while the thread is among the `TEXT_THREADS` most recently active; else compacted. */
  readonly turn: Turn | null;
  readonly compact: CompactTurn | null;
  readonly keys: Float64Array;
  readonly number: number;
  readonly entry: number;
  readonly time: number | null;
  readonly cachedPrefix: number;
}

interface ThreadState extends ThreadLike {
  readonly provider: CacheProvider;
  readonly model: string;
  readonly key: string | null;
  readonly rule: CacheRule;
  readonly cache: SessionCache;
  readonly prices: ModelPrices | null;
  readonly turns: SessionTurn[];
  last: LastTurn | null;
}

/**
 * A turn's cause against its thread's previous turn (`cmp`, null for the first turn): `first`,
 * `identical`, or the divergence's cause, with its one-sentence detail and whether it busts the
 * cache. Sessions and the monitor word every turn the same way.
 */
export function turnCause(cmp: PrefixComparison | null): {
  readonly cause: TurnCause;
  readonly detail: string;
  readonly bustsCache: boolean;
} {
  if (cmp === null) return { cause: "first", detail: "First turn of the thread.", bustsCache: false };
  if (cmp.identical)
    return {
      cause: "identical",
      detail: "The same request as the previous turn (a retry or a repeated call).",
      bustsCache: false,
    };
  if (cmp.divergence)
    return { cause: cmp.divergence.cause, detail: cmp.divergence.detail, bustsCache: cmp.divergence.bustsCache };
  return { cause: "first", detail: "First turn of the thread.", bustsCache: false };
}

/** Cache facts the request carries beyond its segments (see `EntryHints`). */
export function requestHints(request: NormalizedRequest, turn: Turn): EntryHints {
  const opts = request.providerOptions ?? {};
  const metadata = opts["metadata"];
  const userId = isObject(metadata) && typeof metadata["user_id"] === "string" ? metadata["user_id"] : null;
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  const key = str(request.cacheKey) ?? userId ?? str(opts["user"]) ?? str(opts["safety_identifier"]);
  const ttl1h: number[] = [];
  const automatic = isObject(opts["cache_control"]) && opts["cache_control"]["ttl"] === "1h";
  let lastBlock = -1;
  for (const s of turn.segments) {
    if (s.kind === "tool" || s.kind === "block") lastBlock = s.index;
    if (!s.cacheBreakpoint) continue;
    const marker = markerAt(request, s.path);
    if (marker === "1h") ttl1h.push(s.index);
  }
  if (automatic && lastBlock >= 0 && !ttl1h.includes(lastBlock)) ttl1h.push(lastBlock);
  return { key, ttl1h, retention24h: opts["prompt_cache_retention"] === "24h" };
}

const PATH = /^(?:tools\[(\d+)\]|messages\[(\d+)\]\.content\[(\d+)\])$/;

/** The `ttl` of the cache marker at a segment path (`tools[3]`, `messages[2].content[0]`). */
function markerAt(request: NormalizedRequest, path: string): string | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  if (m[1] !== undefined) return request.tools[Number(m[1])]?.cache?.ttl;
  return request.messages[Number(m[2])]?.content[Number(m[3])]?.cache?.ttl;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

function totalsOf(turns: readonly SessionTurn[], busts: number): SessionTotals {
  const p = { input: 0, cacheRead: 0, cacheWrite: 0, uncached: 0 };
  const a = { turns: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  let priced = 0;
  let withCaching = 0;
  let withoutCaching = 0;
  const bases = new Set<string>();
  for (const t of turns) {
    p.input += t.predicted.input;
    p.cacheRead += t.predicted.cacheRead;
    p.cacheWrite += t.predicted.cacheWrite;
    p.uncached += t.predicted.uncached;
    if (t.actual) {
      a.turns++;
      a.input += t.actual.input;
      a.cacheRead += t.actual.cacheRead;
      a.cacheWrite += t.actual.cacheWrite;
      a.output += t.actual.output;
    }
    if (t.cost) {
      priced++;
      withCaching += t.cost.total;
      withoutCaching += t.cost.withoutCaching;
      bases.add(t.cost.basis);
    }
  }
  return {
    turns: turns.length,
    busts,
    predicted: { ...p, hitRate: p.input === 0 ? 0 : round4(p.cacheRead / p.input) },
    actual: a.turns === 0 ? null : { ...a, hitRate: a.input === 0 ? 0 : round4(a.cacheRead / a.input) },
    cost: {
      turnsPriced: priced,
      withCaching: usd(withCaching),
      withoutCaching: usd(withoutCaching),
      savings: usd(withoutCaching - withCaching),
      basis:
        bases.size === 0 ? "none" : bases.size > 1 ? "mixed" : (([...bases][0] ?? "none") as "actual" | "predicted"),
    },
  };
}

export interface SessionAnalyzer {
  /** Analyzes the next entry (entries must come in the order they were sent). */
  add(entry: SessionEntry): void;
  /** Counts a record the reader left out. */
  skip(record: SkippedRecord): void;
  /** Records a problem of the input as a whole. */
  problem(problem: SessionProblem): void;
  /** Turns analyzed so far. */
  readonly turns: number;
  /** The report; the analyzer takes no more entries after it. */
  finish(input: { readonly kind: SessionInputKind; readonly records: number }): SessionReport;
  /** The hash-only session (with `options.fingerprints`), else null. */
  fingerprints(source: SessionFingerprints["source"], records: number): SessionFingerprints | null;
}

/** The incremental analyzer behind `inspectSession` (see the module comment). */
export function createSessionAnalyzer(options: InspectSessionOptions = {}): SessionAnalyzer {
  if (options === null || typeof options !== "object")
    throw new InvalidInputError("options", "must be an object (or left out).");
  const estimate = checkedTokenEstimator(options.tokenEstimator, "tokenEstimator");
  const tokenizer = options.tokenEstimator ? undefined : options.tokenizer;
  // A shared start of a segment that then differs: the tokenizer counts it when there is one (as simulateCache).
  const partialTokens: TokenEstimator = tokenizer ? (text) => tokenizer.count(text) : estimate;
  const ruleOptions = options.rules ? { rules: options.rules } : {};
  const threads: ThreadState[] = [];
  const index = new ThreadIndex<ThreadState>();
  const caches = new Map<string, SessionCache>();
  const prices = new Map<string, ModelPrices | null>();
  const unpriced = new Set<string>();
  /** Recent segmented requests by model and by how they begin (`twinOf`), least recently used first. */
  const twins = new Map<string, SegmentedRequest>();
  const withText = new Set<ThreadState>();
  const busts: SessionBust[] = [];
  const skippedList: SkippedRecord[] = [];
  const skipCounts = new Map<SkipCode, { count: number; example: string }>();
  let skippedCount = 0;
  const problems: SessionProblem[] = [];
  let turnCount = 0;
  let timestamps = false;
  let finished = false;
  const collector = options.fingerprints ? new FingerprintCollector() : null;

  const skip = (record: SkippedRecord) => {
    skippedCount++;
    if (skippedList.length < LISTED_SKIPS) skippedList.push(record);
    const c = skipCounts.get(record.code);
    if (c) c.count++;
    else skipCounts.set(record.code, { count: 1, example: record.message });
  };

  /** Keeps the text of the last turn for the most recently active threads only. */
  const keepText = (thread: ThreadState) => {
    withText.delete(thread);
    withText.add(thread);
    if (withText.size <= TEXT_THREADS) return;
    const oldest = withText.values().next().value as ThreadState;
    withText.delete(oldest);
    if (oldest.last?.turn)
      oldest.last = { ...oldest.last, turn: null, compact: compactTurn(oldest.last.turn, oldest.provider) };
  };

  const cacheFor = (provider: CacheProvider, model: string, key: string | null, rule: CacheRule) => {
    // OpenAI routes on the prefix and prompt_cache_key: another key reaches another cache.
    const name = `${provider}\u0000${model}\u0000${provider === "openai" ? (key ?? "") : ""}\u0000${rule.id}`;
    let cache = caches.get(name);
    if (!cache) caches.set(name, (cache = new SessionCache(provider, rule)));
    return cache;
  };

  const priceOf = (provider: CacheProvider, model: string) => {
    const name = `${provider}\u0000${model}`;
    if (!prices.has(name)) {
      const p = model === "" ? null : pricesFor(model, provider);
      prices.set(name, p);
      if (!p) unpriced.add(model || "(no model)");
    }
    return prices.get(name) ?? null;
  };

  /**
   * A twin for `segmentWith` (segments it repeats at the same position keep their hashes): the last
   * turn that began the same way — in practice the same conversation's previous turn, so only the
   * new messages are hashed — else the last turn of the same model.
   */
  const twinOf = (
    request: NormalizedRequest,
    provider: CacheProvider,
  ): [string, string, SegmentedRequest | undefined] => {
    const model = `${provider}\u0000${request.model.model}`;
    const first = request.messages.find((m) => m.role !== "system");
    const block = first?.content[0];
    const start = block?.type === "text" ? block.text.slice(0, 256) : (block?.type ?? "");
    const conversation = `${model}\u0000${first?.role ?? ""}\u0000${start}`;
    return [model, conversation, twins.get(conversation) ?? twins.get(model)];
  };

  /**
   * The turn's segments with their token figures. This is the one place where token counts enter the
   * session analysis: `countRequestTokens` per segment (as `simulateCache`), or the caller's estimator.
   */
  const segmentedTurn = (request: NormalizedRequest, provider: CacheProvider): Turn => {
    const [model, conversation, twin] = twinOf(request, provider);
    const seg = options.tokenEstimator
      ? segmentWith(request, provider, estimate, twin)
      : segmentCounted(request, { provider, ...(tokenizer ? { tokenizer } : {}) }, twin);
    for (const key of [model, conversation]) {
      twins.delete(key);
      twins.set(key, seg);
    }
    while (twins.size > 2 * TEXT_THREADS) twins.delete(twins.keys().next().value as string);
    return toTurn(seg, provider, estimate);
  };

  const analyze = (entry: SessionEntry) => {
    const bundle = isFingerprintBundle(entry.request) ? checkFingerprintBundle(entry.request, entry.at) : null;
    const request = bundle ? null : (entry.request as NormalizedRequest);
    const provider = bundle
      ? bundle.provider
      : inferCacheProvider(entry.format, request!.model.provider, request!.model.model);
    const turn = bundle ? bundleTurn(bundle, provider, entry.at) : segmentedTurn(request!, provider);
    const model = turn.model;
    const hints =
      entry.hints ?? (request ? requestHints(request, turn) : { key: null, ttl1h: [], retention24h: false });
    const rule = selectCacheRule(provider, model, ruleOptions).rule;
    collector?.add(entry, provider, turn, hints);
    const namespace = namespaceOf(provider, model, hints.key);
    const keysOfMessages = messageKeys(turn);
    let thread = index.find(namespace, keysOfMessages, turn);
    if (!thread) {
      thread = {
        id: `t${threads.length + 1}`,
        namespace,
        provider,
        model,
        key: hints.key,
        rule,
        cache: cacheFor(provider, model, hints.key, rule),
        prices: priceOf(provider, model),
        turns: [],
        last: null,
        lastEntry: entry.index,
        lastKeys: [],
        filed: [],
      };
      threads.push(thread);
    }
    const prev = thread.last;
    const number = thread.turns.length + 1;
    const keys = prefixKeys(turn);
    let cmp: PrefixComparison | null = null;
    if (prev) cmp = compareTurns(prev.turn ?? expandTurn(prev.compact!), turn, { provider }, partialTokens);
    const k = cmp?.commonPrefix.segments ?? 0;
    const partial =
      cmp && !cmp.identical && prev && k < prev.keys.length
        ? { tokens: cmp.commonPrefix.tokens, key: prev.keys[k]! }
        : null;
    if (entry.time !== null) timestamps = true;
    const sim: CacheTurn = thread.cache.simulate({
      turn,
      keys,
      time: entry.time,
      ttl1h: hints.ttl1h,
      retention24h: hints.retention24h,
      label: `${thread.id} turn ${number}`,
      partial,
    });

    const { cause, detail, bustsCache } = turnCause(cmp);
    const predicted = {
      input: sim.total,
      cacheRead: sim.read,
      cacheWrite: sim.write,
      cacheWrite1h: sim.write1h,
      uncached: sim.total - sim.read - sim.write,
      expired: sim.expired,
      prevented: sim.prevented,
      notes: sim.notes,
    };
    const actual = entry.usage;
    const cost = thread.prices
      ? turnCost(
          thread.prices,
          actual ?? {
            input: sim.total,
            cacheRead: sim.read,
            cacheWrite: sim.write,
            cacheWrite1h: sim.write1h,
            output: 0,
          },
          actual ? "actual" : "predicted",
        )
      : null;
    const row: SessionTurn = {
      turn: number,
      entry: entry.index,
      at: entry.at,
      time: entry.time === null ? null : new Date(entry.time).toISOString(),
      gapSeconds: entry.time !== null && prev?.time != null ? Math.round((entry.time - prev.time) / 10) / 100 : null,
      format: entry.format,
      model,
      previous: prev ? { turn: prev.number, entry: prev.entry } : null,
      cause,
      bustsCache,
      detail,
      divergence: cmp?.divergence
        ? {
            path: cmp.divergence.path,
            previousPath: cmp.divergence.previousPath,
            segmentIndex: cmp.divergence.segmentIndex,
            excerpt: cmp.divergence.excerpt,
          }
        : null,
      sharedPrefix: cmp ? cmp.commonPrefix : null,
      predicted,
      actual,
      difference: actual
        ? {
            input: actual.input - predicted.input,
            cacheRead: actual.cacheRead - predicted.cacheRead,
            cacheWrite: actual.cacheWrite - predicted.cacheWrite,
          }
        : null,
      cost,
    };
    thread.turns.push(row);
    if (prev && (bustsCache || sim.expired)) {
      const expected = Math.min(prev.cachedPrefix, sim.total);
      busts.push({
        thread: thread.id,
        turn: number,
        entry: entry.index,
        previousTurn: prev.number,
        previousEntry: prev.entry,
        cause: bustsCache ? (cause as SessionBust["cause"]) : "ttl_expired",
        detail: bustsCache ? detail : (sim.notes.find((n) => n.includes("expired")) ?? "The cache entry expired."),
        lostTokens: Math.max(0, expected - sim.read),
      });
    }
    thread.last = {
      turn,
      compact: null,
      keys,
      number,
      entry: entry.index,
      time: entry.time ?? prev?.time ?? null,
      cachedPrefix: sim.cachedPrefix,
    };
    index.update(thread, keysOfMessages, turn, entry.index);
    keepText(thread);
    turnCount++;
  };

  return {
    get turns() {
      return turnCount;
    },
    add(entry) {
      if (finished) throw new InvalidInputError("entry", "the analyzer has finished: create a new one.");
      if (!isObject(entry) || !isObject(entry.request))
        throw new InvalidInputError("entry", "must be a session entry ({ index, at, format, request, time, usage }).");
      try {
        analyze(entry);
      } catch (e) {
        // One request the analysis cannot take (e.g. a rule table without a row for its model) is
        // reported with the others that were left out; the session goes on.
        skip({
          index: entry.index,
          at: entry.at,
          code: "invalid_request",
          message: `${entry.at}: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    },
    skip(record) {
      skip(record);
    },
    fingerprints(source, records) {
      return collector ? collector.result(source, records) : null;
    },
    problem(p) {
      problems.push(p);
    },
    finish(input) {
      finished = true;
      const all: SessionTurn[] = [];
      const bustCount = new Map<string, number>();
      for (const b of busts) bustCount.set(b.thread, (bustCount.get(b.thread) ?? 0) + 1);
      const threadRows: SessionThread[] = threads.map((t) => {
        all.push(...t.turns);
        return {
          id: t.id,
          provider: t.provider,
          model: t.model,
          key: t.key,
          ruleId: t.rule.id,
          turns: t.turns,
          totals: totalsOf(t.turns, bustCount.get(t.id) ?? 0),
        };
      });
      if (turnCount === 0 && input.records > 0 && !problems.some((p) => p.code === "unreadable")) {
        const reasons = [...skipCounts].map(([code, c]) => `${c.count} ${code.replaceAll("_", " ")}`).join(", ");
        problems.push({
          code: "no_llm_requests",
          message: `None of the ${input.records} records is a model request Strata reads${reasons ? ` (${reasons})` : ""}.`,
          line: null,
          column: null,
        });
      }
      const providers = new Set(threads.map((t) => t.provider));
      const evicted = [...caches.values()].reduce((n, c) => n + c.evicted, 0);
      const assumptions = [
        options.tokenEstimator
          ? "Token counts come from the injected tokenEstimator, per serialized segment, rounded up to whole tokens."
          : "Token counts are countRequestTokens per segment, as simulateCache counts them: calibrated estimates where no tokenizer counts exactly.",
        "Turns are threads by provider, model, cache key or user id, and message history: a turn joins the thread whose last turn's messages it continues.",
        timestamps
          ? [
              "Cache lifetimes come from the entries' times:",
              providers.has("anthropic") ? 'Anthropic 5 min (1 h for ttl: "1h" markers), refreshed on every read;' : "",
              providers.has("openai")
                ? "OpenAI 5 min idle, the documented floor (entries may live up to 1 h; 24 h with prompt_cache_retention);"
                : "",
              providers.has("gemini")
                ? "Gemini does not publish the implicit cache's lifetime, so its entries never expire here;"
                : "",
              "turns without a time count as sent right after the previous one.",
            ]
              .filter((s) => s !== "")
              .join(" ")
          : "The input has no times: every turn is taken to arrive within the cache lifetime.",
        ...(providers.has("openai")
          ? [
              "OpenAI requests with the same prompt_cache_key (or none) reach the same cache (under ~15 requests/min per prefix).",
            ]
          : []),
        "Costs use the model table's standard prices; a turn's output is priced only when its response reported usage.",
        ...(evicted > 0
          ? [
              `The simulator keeps the ${100_000} most recently used prefixes: ${evicted} older ones were treated as evicted.`,
            ]
          : []),
      ];
      return {
        kind: "strata-session-report",
        reportVersion: SESSION_REPORT_VERSION,
        input: { kind: input.kind, records: input.records, turns: turnCount },
        settings: { tokens: options.tokenEstimator ? "custom" : "counted", timestamps },
        threads: threadRows,
        busts,
        skipped: {
          count: skippedCount,
          reasons: [...skipCounts].map(([code, c]) => ({ code, count: c.count, example: c.example })),
          records: skippedList,
        },
        problems,
        totals: totalsOf(all, busts.length),
        assumptions,
        prices: { date: MODEL_TABLE_DATE, unpriced: [...unpriced] },
      };
    },
  };
}

/** A parsed session (`parseSession`) → its report. */
export function inspectSession(session: Session, options: InspectSessionOptions = {}): SessionReport {
  if (!isObject(session) || !Array.isArray(session.entries))
    throw new InvalidInputError("session", "must be a session from parseSession (or its JSON).");
  const analyzer = createSessionAnalyzer(options);
  for (const e of session.entries) analyzer.add(e);
  for (const s of session.skipped ?? []) analyzer.skip(s);
  for (const p of session.problems ?? []) analyzer.problem(p);
  return analyzer.finish({ kind: session.kind, records: session.records });
}

export interface SessionInspector {
  /** Reads the next chunk of the input and analyzes the entries it completes. */
  push(chunk: string): void;
  /** Records read, turns analyzed and records skipped so far. */
  readonly progress: { readonly records: number; readonly turns: number; readonly skipped: number };
  finish(): SessionReport;
  /** After `finish`, with `options.fingerprints`: the hash-only session; else null. */
  fingerprints(): SessionFingerprints | null;
}

/**
 * Reader and analyzer in one, for a session given in chunks (a file stream in a worker or the
 * CLI): memory holds the entry being read, the report and the threads' last turns.
 */
export function createSessionInspector(options: InspectSessionOptions = {}): SessionInspector {
  const reader = createSessionReader();
  const analyzer = createSessionAnalyzer(options);
  let skipped = 0;
  const take = (items: readonly SessionItem[]) => {
    for (const it of items) {
      if (it.kind === "entry") analyzer.add(it.entry);
      else {
        skipped++;
        analyzer.skip(it.skipped);
      }
    }
  };
  return {
    push(chunk) {
      take(reader.push(chunk));
    },
    get progress() {
      return { records: reader.records, turns: analyzer.turns, skipped };
    },
    finish() {
      take(reader.end());
      for (const p of reader.problems) analyzer.problem(p);
      return analyzer.finish({ kind: reader.kind ?? "json", records: reader.records });
    },
    fingerprints() {
      const kind = reader.kind;
      return analyzer.fingerprints(kind === "har" || kind === "jsonl" ? kind : "json", reader.records);
    },
  };
}
