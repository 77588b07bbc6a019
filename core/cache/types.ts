import type { InputAssemblyLayout } from "../assembly/types.ts";
import type { ContentBlockType, Role } from "../messages/types.ts";

/** Providers whose prompt caches Strata models. */
export const CACHE_PROVIDERS = ["openai", "anthropic", "gemini"] as const;
export type CacheProvider = (typeof CACHE_PROVIDERS)[number];

/** Counts tokens in a piece of text; must return a finite, non-negative number. */
export type { TokenEstimator } from "../tokens/estimate.ts";

/**
 * What a segment holds: a tool definition, the tool-choice setting, a message header
 * (role and name, no content) or one content block.
 */
export type SegmentKind = "tool" | "tool_choice" | "message" | "block";

/** Cache level a segment belongs to (Anthropic invalidates a level and every later one). */
export type SegmentRegion = "tools" | "system" | "messages";

/** One piece of a request in the provider's prompt order. Plain JSON; carries no prompt text. */
export interface Segment {
  /** Position in prompt order, 0-based. */
  readonly index: number;
  /** Path into the normalized request: `tools[0]`, `messages[3]`, `messages[3].content[0]`, `providerOptions.tool_choice`. */
  readonly path: string;
  readonly kind: SegmentKind;
  readonly region: SegmentRegion;
  /** Role of the message the segment belongs to; null for tools and tool choice. */
  readonly role: Role | null;
  /** Index of the message in `request.messages`; null for tools and tool choice. */
  readonly messageIndex: number | null;
  /** Content block type for `block` segments, else null. */
  readonly blockType: ContentBlockType | null;
  /** UTF-8 byte offset of the segment in the serialized request. */
  readonly byteOffset: number;
  /** UTF-8 byte length of the segment's serialized text. */
  readonly byteLength: number;
  /** Estimated tokens of the segment's serialized text. */
  readonly tokens: number;
  /** SHA-256 (hex) of the segment's serialized UTF-8 bytes. */
  readonly sha256: string;
  /**
   * Equal for two segments exactly when their content is equal after sorting the keys of caller
   * JSON (tool schemas, arguments, results, provider fields) at every depth: the SHA-256 of that
   * sorted form, or `sha256` itself when the segment holds no caller JSON objects. Equal here but
   * not in `sha256` means only key order changed.
   */
  readonly canonicalSha256: string;
  /** The block carries a provider cache marker (Anthropic `cache_control`). */
  readonly cacheBreakpoint: boolean;
}

/** A segment as shown in a report: the segment plus a short preview of its text. */
export interface ReportSegment extends Segment {
  /** Up to 80 characters of the segment's serialized text. */
  readonly preview: string;
}

/** Size of a request or of a common prefix. */
export interface PrefixSize {
  readonly bytes: number;
  readonly segments: number;
  readonly tokens: number;
}

/** Why two consecutive requests stop sharing their prefix. */
export const DIVERGENCE_CAUSES = [
  "appended",
  "truncated",
  "tools_changed",
  "tool_order_changed",
  "json_key_order_changed",
  "system_changed",
  "volatile_template_value",
  "history_window_shifted",
  "message_edited",
  "model_changed",
] as const;
export type DivergenceCause = (typeof DIVERGENCE_CAUSES)[number];

/** Where and why `next` stops matching `previous`. */
export interface Divergence {
  readonly cause: DivergenceCause;
  /** False for `appended` and `truncated`: the whole shorter request is still a cacheable prefix. */
  readonly bustsCache: boolean;
  /** Path in `next` of the first differing segment (in `previous` when `next` ended first). */
  readonly path: string;
  /** Path of the corresponding segment in `previous`, or null when `previous` ended first. */
  readonly previousPath: string | null;
  /** Index of the first differing segment. */
  readonly segmentIndex: number;
  /** UTF-8 byte offset of the first differing byte (segment start when only hashes are known). */
  readonly byteOffset: number;
  /** Text around the first differing byte; null when a side is a fingerprint bundle. */
  readonly excerpt: DivergenceExcerpt | null;
  /** One sentence for a human: what changed and what to do about it. */
  readonly detail: string;
}

/** Text around a divergence as the request says it: block text, `name(arguments)`, result content. */
export interface DivergenceExcerpt {
  /** Up to 40 characters both sides share right before the divergence. */
  readonly common: string;
  /** Up to 60 characters of `previous` from the divergence on. */
  readonly previous: string;
  /** Up to 60 characters of `next` from the divergence on. */
  readonly next: string;
}

/** `compareRequests(previous, next)`: the longest common prefix and the first divergence. */
export interface PrefixComparison {
  readonly provider: CacheProvider;
  /** Byte-identical requests for the same model. */
  readonly identical: boolean;
  /** Shared prefix; 0 when the model changed (caches are per model). */
  readonly commonPrefix: PrefixSize;
  readonly previous: PrefixSize;
  readonly next: PrefixSize;
  /** Null when identical. */
  readonly divergence: Divergence | null;
}

/** A request reduced to segment paths, sizes and hashes: shareable without the prompt text. */
export interface FingerprintBundle {
  readonly kind: "strata-fingerprints";
  readonly bundleVersion: 1;
  readonly provider: CacheProvider;
  readonly model: string;
  /** Fingerprint of the whole request: SHA-256 of its segments' `sha256` values concatenated (hex, in order). */
  readonly requestSha256: string;
  readonly total: PrefixSize;
  /** True when the request asks for automatic caching (Anthropic top-level `cache_control`). */
  readonly automaticCaching: boolean;
  readonly segments: readonly Segment[];
}

/** One dated row of provider cache facts. Conflicting sources are separate rows. */
export interface CacheRule {
  readonly id: string;
  readonly provider: CacheProvider;
  /** Glob over model ids (`*` matches anything), e.g. `claude-sonnet-4-5*`. First matching row in table order wins. */
  readonly models: string;
  /** `breakpoints`: only prefixes ending at a marked block are cached (Anthropic); `automatic`: every prefix is. */
  readonly mode: "breakpoints" | "automatic";
  /** Below this many prompt tokens nothing is cached. */
  readonly minTokens: number;
  /** Cached lengths are rounded down to `minTokens + k × hitIncrement`; null = any length. */
  readonly hitIncrement: number | null;
  /** Most cache breakpoints one request may carry; null = no limit. */
  readonly maxBreakpoints: number | null;
  /** How many blocks a breakpoint looks back for an earlier entry; null = unlimited. */
  readonly lookbackBlocks: number | null;
  /** Price of a cached input token relative to a normal one. */
  readonly readMultiplier: number;
  /** Price of writing a token to the cache relative to a normal input token (the default lifetime). */
  readonly writeMultiplier: number;
  /** Price of a 1-hour cache write (Anthropic `ttl: "1h"`) relative to a normal input token; null where there is no such tier. */
  readonly writeMultiplier1h: number | null;
  /** Cache lifetime as published, e.g. `5m` (refreshed on hit). */
  readonly ttl: string;
  /** `documented` (provider docs), `observed` (user reports), `legacy` (docs that were later removed). */
  readonly status: "documented" | "observed" | "legacy";
  readonly source: string;
  /** When the fact was collected, `YYYY-MM`. */
  readonly date: string;
  readonly note: string | null;
}

/** What stopped a turn from caching (all false when nothing did). */
export interface CachePrevented {
  /** The prompt (or the prefix up to the last breakpoint) is shorter than the rule's minimum. */
  readonly belowMinimum: boolean;
  /** More breakpoints than the rule allows: the provider rejects the request. */
  readonly tooManyBreakpoints: boolean;
  /** An earlier cache entry lies further back than the breakpoint's lookback window. */
  readonly lookbackExceeded: boolean;
  /** The provider caches only at breakpoints and the request has none. */
  readonly noBreakpoints: boolean;
}

export interface CacheTurnResult {
  /** 1-based. */
  readonly turn: number;
  readonly totalTokens: number;
  readonly cachedReadTokens: number;
  readonly cacheWriteTokens: number;
  /** The part of `cacheWriteTokens` written with a 1-hour lifetime (priced at `writeMultiplier1h`). */
  readonly cacheWrite1hTokens: number;
  readonly uncachedTokens: number;
  readonly prevented: CachePrevented;
  /** Input cost of the turn relative to the same turn without caching (1 = no saving), 4 decimals. */
  readonly relativeCost: number;
  readonly notes: readonly string[];
}

/** `simulateCache(turns, …)`: per-turn cached/written/uncached tokens under one rule row. */
export interface CacheSimulation {
  readonly provider: CacheProvider;
  readonly model: string;
  readonly rule: CacheRule;
  /** Ids of other rows that match the same provider and model (conflicting sources); pass one as `ruleId` to use it. */
  readonly alternatives: readonly string[];
  /** What the simulator assumes (e.g. every turn is sent within the cache lifetime). */
  readonly assumptions: readonly string[];
  readonly turns: readonly CacheTurnResult[];
  readonly totals: {
    readonly totalTokens: number;
    readonly cachedReadTokens: number;
    readonly cacheWriteTokens: number;
    readonly cacheWrite1hTokens: number;
    readonly uncachedTokens: number;
    readonly relativeCost: number;
  };
}

/** One layout's view of turn N → N+1 in `simulateNextTurn`. */
export interface LayoutNextTurn {
  readonly layout: InputAssemblyLayout;
  /** Size of turn N as assembled. */
  readonly turn: PrefixSize;
  /** Size of turn N+1 (history + reply + next input). */
  readonly nextTurn: PrefixSize;
  /** Turn N compared with turn N+1. */
  readonly comparison: PrefixComparison;
  /** `commonPrefix.bytes / nextTurn.bytes`, 4 decimals (0 when empty). */
  readonly stablePrefixRatio: number;
}

/** `simulateNextTurn`: the same two turns assembled under both layouts. */
export interface NextTurnSimulation {
  readonly provider: CacheProvider;
  readonly legacy: LayoutNextTurn;
  readonly cache_aware: LayoutNextTurn;
}

/** Where an Anthropic `cache_control` breakpoint pays off (`suggestCacheBreakpoints`). */
export interface BreakpointSuggestion {
  /** Path of the block (or tool) that gets `cache_control`. */
  readonly path: string;
  readonly region: SegmentRegion;
  /** Estimated tokens of the prefix up to and including this block. */
  readonly prefixTokens: number;
  readonly reason: string;
}

/**
 * Strata's part kinds, as the messages and blocks of a wire request are classified (`requestParts`).
 * `tool_call` and `tool_result` are the messages of a tool exchange; `unknown` is a message Strata
 * cannot place (it holds a block of a type Strata does not know).
 */
export const PART_KINDS = [
  "instructions",
  "tools",
  "context",
  "attachment",
  "summary",
  "history",
  "tool_call",
  "tool_result",
  "input",
  "unknown",
] as const;
export type PartKind = (typeof PART_KINDS)[number];

/** One part of a wire request: a tool, a message, or a run of one message's blocks. Plain JSON, no prompt text. */
export interface RequestPart {
  /** Position in `requestParts`' list (tools first, then the messages' parts in order). */
  readonly index: number;
  readonly kind: PartKind;
  /**
   * Provenance label in the assembly trace's vocabulary, which layouts and the context budget go by:
   * `instructions`, `tools`, `context:<path>`, `attachment:<path>`, `summary`, `history:<message index>`,
   * `toolResult:<tool call id>`, `input`, `unknown`.
   */
  readonly source: string;
  /**
   * `tools[2]`, `providerOptions.tool_choice`, `messages[3]` (the whole message), or
   * `messages[3].content[0..1]` (blocks 0 to 1 of it, both included).
   */
  readonly path: string;
  /** Index in `request.messages`; null for a tool or the tool choice. */
  readonly messageIndex: number | null;
  /** The message's blocks this part holds: `[firstBlock, endBlock)`; null for a tool or the tool choice. */
  readonly firstBlock: number | null;
  readonly endBlock: number | null;
  readonly role: Role | null;
  /** Size from the request's segments (see `partMeasures`): the message header counts with its first part. */
  readonly tokens: number;
  readonly bytes: number;
  /** Up to 80 characters of the part's text. */
  readonly preview: string;
  /** The classification rule that decided `kind`, in words. */
  readonly rule: string;
}
