/**
 * One monitored request, analyzed: its body → a hash-only turn (`prepareTurn`), then, with the
 * state of its partition from the store, the thread it continues, what changed since that
 * thread's previous turn, what the cache should have read, and the new state (`advanceThread`).
 * Pure and deterministic: the time comes in as an argument.
 *
 * Threads without prompt text. A request is first put in a partition, named by (in order):
 * 1. the caller's key function (`threadKey`): the partition is the thread, always;
 * 2. the request's own conversation key: OpenAI `prompt_cache_key`, else a user id
 *    (`metadata.user_id`, `user`, `safety_identifier`), as the session analysis reads them;
 * 3. else the hash of its first conversation message (the system prompt and tools are left out, so
 *    a turn that changes them stays in its thread).
 * Within a partition, the thread is the one whose last turn's messages the request continues
 * (threads.ts `relation`: appended, a sliding window, or an edit), else a new one. A partition
 * keeps its `MAX_THREADS` most recently active threads. The partition (not the thread) is what a
 * store keys on, so a fleet can put one partition in one place (a Durable Object).
 */
import { bundleTurn, compareTurns, type Turn } from "../cache/compare.ts";
import { bundleFromSegments } from "../cache/fingerprints.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { selectCacheRule } from "../cache/rules.ts";
import { segmentWith } from "../cache/segments.ts";
import { segmentCounted } from "../cache/counted.ts";
import type { CacheProvider, CacheRule, PrefixComparison, TokenEstimator } from "../cache/types.ts";
import { parseWireRequest } from "../formats/parse.ts";
import type { WireFormat } from "../formats/types.ts";
import { type CacheTurn, prefixKeys, SessionCache } from "../session/cache-model.ts";
import { pricesFor, turnCost } from "../session/cost.ts";
import type { Endpoint } from "../session/endpoints.ts";
import { entryFromMonitorEvent, type EventFingerprint, segmentRows } from "../session/fingerprints.ts";
import { requestHints, turnCause } from "../session/inspect-session.ts";
import { messageKeys, relation } from "../session/threads.ts";
import type { TurnCause } from "../session/types.ts";
import type { Usage } from "../tokens/usage.ts";
import { sha256Hex } from "../util/hash.ts";
import { isObject } from "../util/plain-object.ts";
import {
  MONITOR_EVENT_VERSION,
  MONITOR_STATE_VERSION,
  type MonitorEvent,
  type PartitionRecord,
  type ThreadKeyInput,
  type ThreadRecord,
  type ThreadSource,
} from "./types.ts";

/** Threads a partition remembers (most recently active first). */
export const MAX_THREADS = 8;

/** A request reduced to what the monitor keeps: no text. */
export interface PreparedTurn {
  readonly format: WireFormat;
  readonly provider: CacheProvider;
  readonly model: string;
  readonly turn: Turn;
  readonly fingerprint: EventFingerprint;
  /** Store key of the partition (`strata:` + 32 hex digits). */
  readonly key: string;
  /** 16 hex digits naming the partition in thread ids. */
  readonly partition: string;
  readonly source: ThreadSource;
}

export interface PrepareOptions {
  readonly url: string;
  readonly headers: Headers;
  readonly threadKey?: ((input: ThreadKeyInput) => string | null | undefined) | undefined;
  readonly estimate: TokenEstimator;
  /** Count each segment with `countRequestTokens` (as `simulateCache`, the session); false: with `estimate`. */
  readonly counted: boolean;
  /** Where a failing key function is reported (the default partition is used then). */
  readonly onError: (error: unknown) => void;
}

/** First conversation message's hash, or the first segment's for a request without one. */
const rootKey = (turn: Turn, keys: readonly string[]) => keys[0] ?? `bare:${turn.segments[0]?.sha256 ?? ""}`;

/**
 * A request body (JSON text) sent to `endpoint` → its hash-only turn and partition; null when the
 * body is not a request Strata reads (it is then forwarded without an event).
 */
export function prepareTurn(text: string, endpoint: Endpoint, options: PrepareOptions): PreparedTurn | null {
  if (endpoint.format === "bedrock-converse") return null;
  const parsed = parseWireRequest(text, { format: endpoint.format });
  let request = parsed.request;
  if (endpoint.model) request = { ...request, model: { ...request.model, model: endpoint.model } };
  const model = request.model.model;
  const provider = inferCacheProvider(parsed.format, request.model.provider, model);
  const seg = options.counted
    ? segmentCounted(request, { provider })
    : segmentWith(request, provider, options.estimate);
  const bundle = bundleFromSegments(seg);
  const turn = bundleTurn(bundle, provider, "request");
  const hints = requestHints(request, turn);
  const rows = segmentRows(turn);
  const fingerprint: EventFingerprint = {
    format: parsed.format,
    provider,
    model,
    automaticCaching: turn.automaticCaching,
    ttl1h: hints.ttl1h,
    retention24h: hints.retention24h,
    segments: rows.segments,
    messages: rows.messages,
  };
  let source: ThreadSource = "prefix";
  let value: string | null = null;
  if (options.threadKey) {
    try {
      const k = options.threadKey({
        url: options.url,
        headers: options.headers,
        body: JSON.parse(text),
        format: parsed.format,
        provider,
        model,
      });
      if (typeof k === "string" && k !== "") {
        source = "key_function";
        value = k;
      }
    } catch (error) {
      options.onError(error);
    }
  }
  if (value === null && hints.key !== null) {
    source = typeof request.cacheKey === "string" && request.cacheKey !== "" ? "cache_key" : "user";
    value = hints.key;
  }
  if (value === null) value = rootKey(turn, messageKeys(turn));
  const hash = sha256Hex(`${provider}\u0000${source}\u0000${value}`);
  return {
    format: parsed.format,
    provider,
    model,
    turn,
    fingerprint,
    key: `strata:${hash.slice(0, 32)}`,
    partition: hash.slice(0, 16),
    source,
  };
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** A thread of a stored record, checked, with its last turn rebuilt; null when the record is not one the monitor wrote. */
function storedThread(v: unknown, provider: CacheProvider): { record: ThreadRecord; turn: Turn } | null {
  if (!isObject(v) || typeof v["id"] !== "string" || !isCount(v["turn"]) || typeof v["ts"] !== "number") return null;
  const entry = entryFromMonitorEvent(
    { kind: "strata-monitor-event", thread: v["id"], ts: v["ts"], fingerprint: v["fingerprint"] },
    0,
    "store",
  );
  if (!entry || !("segments" in entry.request) || entry.request.provider !== provider) return null;
  return { record: v as unknown as ThreadRecord, turn: bundleTurn(entry.request, provider, "store") };
}

/** The threads of a stored partition record (anything else reads as an empty partition). */
export function readPartition(
  value: unknown,
  provider: CacheProvider,
): { started: number; threads: { record: ThreadRecord; turn: Turn }[] } {
  if (!isObject(value) || value["v"] !== MONITOR_STATE_VERSION || !Array.isArray(value["threads"]))
    return { started: 0, threads: [] };
  const threads = [];
  for (const t of value["threads"].slice(0, MAX_THREADS)) {
    const read = storedThread(t, provider);
    if (read) threads.push(read);
  }
  return { started: isCount(value["started"]) ? value["started"] : threads.length, threads };
}

export interface AdvanceOptions {
  readonly estimate: TokenEstimator;
  readonly rules?: readonly CacheRule[] | undefined;
}

/** The turn placed in its thread: the event's analysis (without usage and cost) and the partition's next state. */
export interface Advanced {
  readonly thread: string;
  readonly turn: number;
  readonly cause: TurnCause;
  readonly bustsCache: boolean;
  readonly detail: string;
  readonly comparison: PrefixComparison | null;
  readonly predicted: MonitorEvent["predicted"];
  readonly record: PartitionRecord;
}

/** Places `prepared` (sent at `ts`) in its partition's threads (`stored`: what the store had, unchecked). */
export function advanceThread(prepared: PreparedTurn, stored: unknown, ts: number, options: AdvanceOptions): Advanced {
  const { provider, model, turn, fingerprint } = prepared;
  const partition = readPartition(stored, provider);
  const keys = messageKeys(turn);
  let prev: { record: ThreadRecord; turn: Turn } | null = null;
  if (prepared.source === "key_function") prev = partition.threads[0] ?? null;
  else {
    let bestRank = 0;
    let bestLength = -1;
    // Most recent first, so a tie goes to the thread that was active last.
    for (const t of partition.threads) {
      const [rank, length] = relation(messageKeys(t.turn), keys);
      if (rank > bestRank || (rank === bestRank && rank > 0 && length > bestLength)) {
        prev = t;
        bestRank = rank;
        bestLength = length;
      }
    }
  }
  const started = prev ? partition.started : partition.started + 1;
  const id = prev ? prev.record.id : `${prepared.partition}.${started}`;
  const number = prev ? prev.record.turn + 1 : 1;

  const cmp = prev ? compareTurns(prev.turn, turn, { provider }, options.estimate) : null;
  const rule = selectCacheRule(provider, model, options.rules ? { rules: options.rules } : {}).rule;
  const cache = new SessionCache(provider, rule);
  const prevKeys = prev ? prefixKeys(prev.turn) : null;
  if (prev && prevKeys && prev.turn.model === model)
    cache.simulate({
      turn: prev.turn,
      keys: prevKeys,
      time: prev.record.ts,
      ttl1h: prev.record.fingerprint.ttl1h,
      retention24h: prev.record.fingerprint.retention24h,
      label: `turn ${prev.record.turn}`,
      partial: null,
    });
  const k = cmp?.commonPrefix.segments ?? 0;
  const sim: CacheTurn = cache.simulate({
    turn,
    keys: prefixKeys(turn),
    time: ts,
    ttl1h: fingerprint.ttl1h,
    retention24h: fingerprint.retention24h,
    label: `turn ${number}`,
    partial:
      cmp && !cmp.identical && prevKeys && k < prevKeys.length
        ? { tokens: cmp.commonPrefix.tokens, key: prevKeys[k]! }
        : null,
  });

  const { cause, detail, bustsCache } = turnCause(cmp);
  const record: ThreadRecord = { id, turn: number, ts, fingerprint };
  return {
    thread: id,
    turn: number,
    cause,
    bustsCache,
    detail,
    comparison: cmp,
    predicted: {
      input: sim.total,
      cacheRead: sim.read,
      cacheWrite: sim.write,
      cacheWrite1h: sim.write1h,
      uncached: sim.total - sim.read - sim.write,
      expired: sim.expired,
    },
    record: {
      v: MONITOR_STATE_VERSION,
      started,
      threads: [record, ...partition.threads.filter((t) => t !== prev).map((t) => t.record)].slice(0, MAX_THREADS),
    },
  };
}

export interface ResponseFacts {
  readonly status: number;
  readonly stream: boolean;
  readonly truncated: boolean;
  readonly actual: Usage | null;
}

/** The event of an advanced turn, with what its response said, priced. */
export function monitorEvent(
  prepared: PreparedTurn,
  advanced: Advanced,
  response: ResponseFacts,
  ts: number,
  withFingerprint: boolean,
): MonitorEvent {
  const prices = pricesFor(prepared.model, prepared.provider);
  const p = advanced.predicted;
  const actual = response.actual;
  const cmp = advanced.comparison;
  return {
    kind: "strata-monitor-event",
    eventVersion: MONITOR_EVENT_VERSION,
    thread: advanced.thread,
    turn: advanced.turn,
    cause: advanced.cause,
    bustsCache: advanced.bustsCache,
    detail: advanced.detail,
    divergence: cmp?.divergence
      ? {
          path: cmp.divergence.path,
          previousPath: cmp.divergence.previousPath,
          segmentIndex: cmp.divergence.segmentIndex,
        }
      : null,
    sharedPrefix: cmp ? cmp.commonPrefix : null,
    predicted: p,
    actual,
    cost: prices
      ? turnCost(
          prices,
          actual ?? {
            input: p.input,
            cacheRead: p.cacheRead,
            cacheWrite: p.cacheWrite,
            cacheWrite1h: p.cacheWrite1h,
            output: 0,
          },
          actual ? "actual" : "predicted",
        )
      : null,
    ts,
    threadSource: prepared.source,
    format: prepared.format,
    provider: prepared.provider,
    model: prepared.model,
    status: response.status,
    stream: response.stream,
    truncated: response.truncated,
    ...(withFingerprint ? { fingerprint: prepared.fingerprint } : {}),
  };
}
