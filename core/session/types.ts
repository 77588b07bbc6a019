/**
 * Sessions: a recorded conversation (a HAR file, a JSONL request log, a JSON array) read as a list
 * of entries, and the `SessionReport` that `inspectSession` makes of it — plain JSON, versioned
 * like the `InspectionReport`: adding a key bumps nothing; renaming, removing or changing the
 * meaning of one bumps `SESSION_REPORT_VERSION`.
 */
import type {
  CachePrevented,
  CacheProvider,
  DivergenceCause,
  DivergenceExcerpt,
  FingerprintBundle,
  PrefixSize,
} from "../cache/types.ts";
import type { NormalizedRequest, WireFormat } from "../formats/types.ts";
import type { Usage } from "../tokens/usage.ts";

/** 2: token figures are `countRequestTokens`' per segment by default (`settings.tokens: "counted"`), not ÷4. */
export const SESSION_REPORT_VERSION = 2 as const;

/** What the input was. `fingerprints`: a hash-only session (`toSessionFingerprints`). */
export type SessionInputKind = "har" | "jsonl" | "json" | "fingerprints";

/** Cache facts of an entry that its hashes alone do not carry (read from the request when there is one). */
export interface EntryHints {
  /** What partitions conversations: OpenAI `prompt_cache_key`, else a user id (`metadata.user_id`, `user`, `safety_identifier`). */
  readonly key: string | null;
  /** Indexes of the segments whose cache marker asks for a 1-hour lifetime (Anthropic `ttl: "1h"`). */
  readonly ttl1h: readonly number[];
  /** OpenAI `prompt_cache_retention: "24h"`. */
  readonly retention24h: boolean;
}

/** One request of the session, as read from the input. */
export interface SessionEntry {
  /** 0-based position among the input's records (HAR entries, JSONL lines, array elements), skipped ones included. */
  readonly index: number;
  /** Where it is in the input: `log.entries[3]`, `line 7`, `[2]`. */
  readonly at: string;
  readonly format: WireFormat;
  /** The parsed request, or its fingerprint bundle in a hash-only session. */
  readonly request: NormalizedRequest | FingerprintBundle;
  /** When it was sent (ms since 1970, UTC); null when the input has no time. */
  readonly time: number | null;
  /** What the provider's response reported; null without a response or usage in it. */
  readonly usage: Usage | null;
  /** Set for hash-only entries; read from `request` otherwise. */
  readonly hints?: EntryHints;
  /**
   * The request body as recorded (JSON text), when the reader was asked to keep it
   * (`createSessionReader({ bodies })`), with the URL's model added if the body names none.
   */
  readonly body?: string;
}

/** Why a record is not part of the session. */
export type SkipCode =
  | "not_a_provider_endpoint"
  | "not_a_post"
  | "no_request_body"
  | "error_response"
  | "invalid_json"
  | "invalid_request"
  | "unsupported_format"
  | "not_a_record";

export interface SkippedRecord {
  readonly index: number;
  readonly at: string;
  readonly code: SkipCode;
  /** What was wrong, with the line (and column) for JSON errors. */
  readonly message: string;
}

/** Something wrong with the input as a whole; what could be read is still read. */
export interface SessionProblem {
  readonly code: "truncated" | "json_syntax" | "array_not_found" | "unreadable" | "no_llm_requests";
  readonly message: string;
  /** 1-based position in the input, when known. */
  readonly line: number | null;
  readonly column: number | null;
}

/** `parseSession`'s result: every entry it could read, and why the others were left out. */
export interface Session {
  readonly kind: SessionInputKind;
  /** Records seen: entries plus skipped ones. */
  readonly records: number;
  readonly entries: readonly SessionEntry[];
  readonly skipped: readonly SkippedRecord[];
  readonly problems: readonly SessionProblem[];
}

/** How a turn relates to its predecessor in the thread. */
export type TurnCause = "first" | "identical" | DivergenceCause;

/** Why a turn lost cache its predecessor had built. */
export type BustCause = DivergenceCause | "ttl_expired";

/** The simulator's figures for one turn (counted tokens, see `settings.tokens`). */
export interface PredictedUsage {
  /** Input tokens of the whole request. */
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** Of `cacheWrite`, tokens written with a 1-hour lifetime. */
  readonly cacheWrite1h: number;
  readonly uncached: number;
  /** A cache entry matched but had outlived its lifetime since it was last used. */
  readonly expired: boolean;
  readonly prevented: CachePrevented;
  readonly notes: readonly string[];
}

/** USD at the model table's standard prices. */
export interface TurnCost {
  /** `actual`: from the response's usage; `predicted`: from the simulation (output unknown, counted as 0). */
  readonly basis: "actual" | "predicted";
  readonly input: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  readonly output: number;
  readonly total: number;
  /** The same tokens with no caching at all: every input token at the input price. */
  readonly withoutCaching: number;
}

export interface SessionTurn {
  /** 1-based within the thread. */
  readonly turn: number;
  /** `SessionEntry.index` of the request. */
  readonly entry: number;
  readonly at: string;
  /** ISO 8601 (UTC); null when the input has no time. */
  readonly time: string | null;
  /** Seconds since the thread's previous turn; null without times. */
  readonly gapSeconds: number | null;
  readonly format: WireFormat;
  readonly model: string;
  /** The thread's previous turn; null for the first. */
  readonly previous: { readonly turn: number; readonly entry: number } | null;
  readonly cause: TurnCause;
  readonly bustsCache: boolean;
  /** One sentence: what changed since the previous turn. */
  readonly detail: string;
  /** Where the turn stops matching its predecessor; null for first and identical turns. */
  readonly divergence: {
    readonly path: string;
    readonly previousPath: string | null;
    readonly segmentIndex: number;
    /** Text around the change; null in a hash-only session. */
    readonly excerpt: DivergenceExcerpt | null;
  } | null;
  /** Prefix shared with the previous turn; null for the first. */
  readonly sharedPrefix: PrefixSize | null;
  readonly predicted: PredictedUsage;
  readonly actual: Usage | null;
  /** `actual − predicted`; null without actual usage. */
  readonly difference: { readonly input: number; readonly cacheRead: number; readonly cacheWrite: number } | null;
  /** Null when the model is not in the model table (see `prices.unpriced`). */
  readonly cost: TurnCost | null;
}

export interface SessionTotals {
  readonly turns: number;
  readonly busts: number;
  readonly predicted: {
    readonly input: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
    readonly uncached: number;
    /** `cacheRead / input`, 4 decimals (0 without input). */
    readonly hitRate: number;
  };
  /** Over the turns whose response reported usage; null when none did. */
  readonly actual: {
    readonly turns: number;
    readonly input: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
    readonly output: number;
    readonly hitRate: number;
  } | null;
  /** USD over the priced turns. */
  readonly cost: {
    readonly turnsPriced: number;
    readonly withCaching: number;
    readonly withoutCaching: number;
    /** `withoutCaching − withCaching` (negative when cache writes cost more than they saved). */
    readonly savings: number;
    readonly basis: "actual" | "predicted" | "mixed" | "none";
  };
}

export interface SessionThread {
  /** `t1`, `t2`, … in order of first appearance. */
  readonly id: string;
  readonly provider: CacheProvider;
  readonly model: string;
  /** The cache key or user id that keeps it apart from other threads; null when none. */
  readonly key: string | null;
  /** The `CACHE_RULES` row the simulation used. */
  readonly ruleId: string;
  readonly turns: readonly SessionTurn[];
  readonly totals: SessionTotals;
}

/** A turn that lost cache its predecessor built, with the root cause. */
export interface SessionBust {
  readonly thread: string;
  readonly turn: number;
  readonly entry: number;
  readonly previousTurn: number;
  readonly previousEntry: number;
  readonly cause: BustCause;
  readonly detail: string;
  /** Tokens the previous turn left in the cache that this turn could not read. */
  readonly lostTokens: number;
}

export interface SessionReport {
  readonly kind: "strata-session-report";
  readonly reportVersion: typeof SESSION_REPORT_VERSION;
  readonly input: { readonly kind: SessionInputKind; readonly records: number; readonly turns: number };
  readonly settings: {
    /** Where token figures come from: `counted` = countRequestTokens per segment (as simulateCache); `custom` = an injected estimator. */
    readonly tokens: "counted" | "custom";
    /** Whether the input carried times (then cache lifetimes are simulated). */
    readonly timestamps: boolean;
  };
  readonly threads: readonly SessionThread[];
  readonly busts: readonly SessionBust[];
  readonly skipped: {
    readonly count: number;
    readonly reasons: readonly { readonly code: SkipCode; readonly count: number; readonly example: string }[];
    /** The first 200 skipped records. */
    readonly records: readonly SkippedRecord[];
  };
  readonly problems: readonly SessionProblem[];
  readonly totals: SessionTotals;
  /** What the simulation assumes (lifetimes, routing, token counts). */
  readonly assumptions: readonly string[];
  readonly prices: {
    /** `MODEL_TABLE_DATE`: when the prices were checked. */
    readonly date: string;
    /** Models of the session that the table does not price. */
    readonly unpriced: readonly string[];
  };
}
