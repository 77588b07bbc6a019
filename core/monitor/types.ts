/**
 * The monitor's public shapes: the event it emits per request, the thread state it keeps in a
 * store, and its options. Everything here is plain JSON and hash-only: segment kinds, sizes, token
 * estimates and SHA-256 hashes, never a character of prompt text.
 */
import type { CacheProvider, CacheRule, PrefixSize, TokenEstimator } from "../cache/types.ts";
import type { WireFormat } from "../formats/types.ts";
import type { Usage } from "../tokens/usage.ts";
import type { EventFingerprint } from "../session/fingerprints.ts";
import type { TurnCause, TurnCost } from "../session/types.ts";

export const MONITOR_EVENT_VERSION = 1 as const;
/** Version of the thread state a store holds; a record of another version is read as empty. */
export const MONITOR_STATE_VERSION = 1 as const;

/** How the monitor decided which conversation a request belongs to (see the README, "Threads"). */
export type ThreadSource = "key_function" | "cache_key" | "user" | "prefix";

/** What the simulator predicts for the turn, from the thread's previous turn and the cache rules. */
export interface MonitorPrediction {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly cacheWrite1h: number;
  readonly uncached: number;
  /** The previous turn's cached prefix had outlived its lifetime when this turn arrived. */
  readonly expired: boolean;
}

/** One event per monitored request whose response came back 2xx. */
export interface MonitorEvent {
  readonly kind: "strata-monitor-event";
  readonly eventVersion: typeof MONITOR_EVENT_VERSION;
  /** `<16 hex digits of the thread's partition>.<n>`: hash-only, stable across the fleet. */
  readonly thread: string;
  /** 1-based within the thread. */
  readonly turn: number;
  readonly cause: TurnCause;
  readonly bustsCache: boolean;
  /** One sentence: what changed since the thread's previous turn (no prompt text). */
  readonly detail: string;
  /** Where the turn stops matching its predecessor; null for first and identical turns. */
  readonly divergence: {
    readonly path: string;
    readonly previousPath: string | null;
    readonly segmentIndex: number;
  } | null;
  /** Prefix shared with the thread's previous turn; null for the first. */
  readonly sharedPrefix: PrefixSize | null;
  readonly predicted: MonitorPrediction;
  /** Usage the response reported (JSON body or the stream's final events); null when it reported none. */
  readonly actual: Usage | null;
  /** USD at the model table's standard prices (actual usage when there is one); null for an unpriced model. */
  readonly cost: TurnCost | null;
  /** When the request was sent, ms since 1970 (the monitor's clock). */
  readonly ts: number;
  readonly threadSource: ThreadSource;
  readonly format: WireFormat;
  readonly provider: CacheProvider;
  readonly model: string;
  readonly status: number;
  /** The response was a stream (SSE). */
  readonly stream: boolean;
  /** The response body ended early (aborted, cut off, or longer than the monitor reads). */
  readonly truncated: boolean;
  /** The turn's segments, hash-only (left out with `fingerprints: false`); lets the Session view open a JSONL of events. */
  readonly fingerprint?: EventFingerprint;
}

/** A thread's last turn, as a store keeps it. */
export interface ThreadRecord {
  readonly id: string;
  readonly turn: number;
  readonly ts: number;
  readonly fingerprint: EventFingerprint;
}

/** Everything a store keeps under one key: the recent threads of one partition, most recent first. */
export interface PartitionRecord {
  readonly v: typeof MONITOR_STATE_VERSION;
  /** Threads started in this partition so far (numbers the next one). */
  readonly started: number;
  readonly threads: readonly ThreadRecord[];
}

/**
 * Where the monitor keeps each partition's threads between requests. Async or not; a store that
 * throws or rejects costs that request its event, never the request itself.
 */
export interface MonitorStore {
  get(key: string): Promise<PartitionRecord | null | undefined> | PartitionRecord | null | undefined;
  set(key: string, record: PartitionRecord): Promise<void> | void;
}

/** What a caller-supplied key function sees of a request. */
export interface ThreadKeyInput {
  readonly url: string;
  readonly headers: Headers;
  /** The parsed JSON body. */
  readonly body: unknown;
  readonly format: WireFormat;
  readonly provider: CacheProvider;
  readonly model: string;
}

export interface MonitorOptions {
  /** Receives one event per monitored request. Called after the app has its response; a throw is reported to `onError`. */
  readonly onEvent?: (event: MonitorEvent) => void | Promise<void>;
  /** Where thread state lives; default an in-memory LRU (`createMemoryStore()`). */
  readonly store?: MonitorStore;
  /** Names the conversation a request belongs to (a session id); null or undefined falls back to the request's own keys. */
  readonly threadKey?: (input: ThreadKeyInput) => string | null | undefined;
  /** Monitor failures (never the app's): a throwing store or sink, an unreadable body. Default: ignored. */
  readonly onError?: (error: unknown) => void;
  /** The clock for `ts` (ms); default `Date.now`. */
  readonly now?: () => number;
  /** Runs the analysis after the app has its response (e.g. a Worker's `ctx.waitUntil`). */
  readonly waitUntil?: (promise: Promise<unknown>) => void;
  /** Include each turn's hash-only segments in the event (default true). */
  readonly fingerprints?: boolean;
  /** Per-segment token estimator; default `ceil(UTF-16 length / 4)`. */
  readonly tokenEstimator?: TokenEstimator;
  /** Cache rule table; default `CACHE_RULES`. */
  readonly rules?: readonly CacheRule[];
  /** Largest response body read for usage, in bytes (default 32 MiB); longer ones are passed on unread past it. */
  readonly maxResponseBytes?: number;
  /** Largest request body analyzed, in bytes (default 32 MiB); larger requests are forwarded without an event. */
  readonly maxRequestBytes?: number;
}

/** A fetch that monitors, plus a way to wait for the analyses it has under way. */
export type MonitoredFetch = typeof fetch & {
  /** Resolves when every request sent so far has been analyzed and its event emitted (or dropped). */
  settled(): Promise<void>;
};
