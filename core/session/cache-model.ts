/**
 * The prompt cache over a whole session, turn by turn, with lifetimes. Same rules as
 * `simulateCache` (one `CACHE_RULES` row: minimum, breakpoints and their lookback, hit increments),
 * but incremental — each turn is looked up in what earlier turns left in the cache instead of being
 * compared with every earlier turn — and, when the input has times, entries expire.
 *
 * The cache is a map from a prefix (a chained hash of the segments' SHA-256 up to and including one
 * segment) to what is stored there: `automatic` providers (OpenAI, Gemini) store every prefix of a
 * request that reaches the minimum; `breakpoints` providers (Anthropic) store the prefix at each
 * marked block that reaches it. A turn reads the longest stored prefix that is still alive (and,
 * for breakpoints, within the lookback window of one of its own breakpoints); a read refreshes the
 * entry's lifetime, as both providers document. The map keeps at most `MAX_ENTRIES` prefixes,
 * least recently used first out (providers evict too), and forgets an entry an hour after it
 * expired (a later match then reads as a miss, not as an expiry); a session that hits the cap says so.
 *
 * Lifetimes (read 2026-12-01):
 * - Anthropic: 5 minutes, or 1 hour for a marker with `ttl: "1h"`, refreshed on every hit (Anthropic
 *   docs, Prompt caching).
 * - OpenAI: "5 to 10 minutes of inactivity, up to one hour" off-peak, 24 hours with
 *   `prompt_cache_retention: "24h"` (OpenAI docs, Prompt caching guide): simulated as 5 minutes
 *   idle, the documented floor.
 * - Gemini implicit caching: no lifetime is published; nothing expires in the simulation.
 */
import type { Turn } from "../cache/compare.ts";
import type { CachePrevented, CacheProvider, CacheRule } from "../cache/types.ts";

export const MAX_ENTRIES = 100_000;
/** Expired entries are remembered this long (to say "expired" when a later turn matches one), then forgotten. */
export const FORGET_AFTER_MS = 60 * 60_000;
const SWEEP_EVERY = 1024;

const MINUTE = 60_000;
export const TTL_MS = {
  anthropic5m: 5 * MINUTE,
  anthropic1h: 60 * MINUTE,
  openai: 5 * MINUTE,
  openai24h: 24 * 60 * MINUTE,
} as const;

/** 8 hex digits of `s` from `at` as an unsigned 32-bit number (lower-case hex, as SHA-256 digests are written). */
function hex32(s: string, at: number): number {
  let n = 0;
  for (let i = at; i < at + 8; i++) {
    const c = s.charCodeAt(i);
    n = (n << 4) | (c <= 57 ? c - 48 : c - 87);
  }
  return n >>> 0;
}

/**
 * Chained prefix keys: key[i] identifies segments 0..i by their hashes (two 32-bit lanes mixed per
 * segment, kept as one 53-bit number). Two different prefixes share a key with probability about
 * n² / 2⁵⁴ for n distinct prefixes.
 */
export function prefixKeys(turn: Turn): Float64Array {
  const keys = new Float64Array(turn.segments.length);
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < turn.segments.length; i++) {
    const sha = turn.segments[i]!.sha256;
    const a = hex32(sha, 0);
    const b = hex32(sha, 8);
    const c = hex32(sha, 16);
    h1 = Math.imul(h1 ^ a, 2654435761) ^ c;
    h2 = Math.imul(h2 ^ b, 1597334677) ^ (c >>> 7);
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    keys[i] = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
  return keys;
}

interface Entry {
  /** Tokens of the stored prefix. */
  readonly tokens: number;
  /** Last write or read (ms), or null in a session without times. */
  lastUsed: number | null;
  readonly ttlMs: number;
  /** Who wrote it, for notes: `t1 turn 2`. */
  readonly writer: string;
}

/** What one turn reads, writes and sends uncached. */
export interface CacheTurn {
  readonly total: number;
  readonly read: number;
  readonly write: number;
  readonly write1h: number;
  readonly expired: boolean;
  readonly prevented: CachePrevented;
  readonly notes: string[];
  /** Tokens of the longest prefix of this turn in the cache after it (what the next turn can hope to read). */
  readonly cachedPrefix: number;
}

/** The turn as the simulator needs it. */
export interface CacheInput {
  readonly turn: Turn;
  readonly keys: Float64Array;
  /** ms, or null without times. */
  readonly time: number | null;
  /** Segment indexes whose marker asks for a 1-hour lifetime. */
  readonly ttl1h: readonly number[];
  readonly retention24h: boolean;
  /** `t1 turn 2`, for notes. */
  readonly label: string;
  /**
   * The shared prefix with the thread's previous turn to the character (`commonPrefix`), and the key
   * of that turn's first segment past it: automatic caching reads the partial segment too, as
   * `simulateCache` does, when that entry is alive.
   */
  readonly partial: { readonly tokens: number; readonly key: number } | null;
}

const NONE: CachePrevented = {
  belowMinimum: false,
  tooManyBreakpoints: false,
  lookbackExceeded: false,
  noBreakpoints: false,
};

export function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const fmtTtl = (ms: number) =>
  ms >= 24 * 60 * MINUTE ? "24 h" : ms >= 60 * MINUTE ? `${ms / (60 * MINUTE)} h` : `${ms / MINUTE} min`;

/** One provider + model's cache (plus the OpenAI routing key: another key routes to another cache). */
export class SessionCache {
  private readonly entries = new Map<number, Entry>();
  private readonly rule: CacheRule;
  private readonly provider: CacheProvider;
  /** Prefixes dropped because the map was full. */
  evicted = 0;
  /** Prefixes forgotten an hour after they expired. */
  forgotten = 0;
  private storesSinceSweep = 0;
  private latest: number | null = null;

  constructor(provider: CacheProvider, rule: CacheRule) {
    this.provider = provider;
    this.rule = rule;
  }

  private ttlFor(input: CacheInput, index: number): number {
    if (this.provider === "anthropic") return input.ttl1h.includes(index) ? TTL_MS.anthropic1h : TTL_MS.anthropic5m;
    if (this.provider === "openai") return input.retention24h ? TTL_MS.openai24h : TTL_MS.openai;
    return Number.POSITIVE_INFINITY;
  }

  private alive(e: Entry, time: number | null): boolean {
    return time === null || e.lastUsed === null || time - e.lastUsed <= e.ttlMs;
  }

  /** Marks an entry used (LRU order) and refreshes its lifetime. */
  private touch(key: number, e: Entry, time: number | null): void {
    this.entries.delete(key);
    if (time !== null && (e.lastUsed === null || time > e.lastUsed)) e.lastUsed = time;
    this.entries.set(key, e);
  }

  private store(key: number, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (++this.storesSinceSweep >= SWEEP_EVERY) this.sweep();
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value as number;
      this.entries.delete(oldest);
      this.evicted++;
    }
  }

  /** Forgets entries that expired more than `FORGET_AFTER_MS` before the latest turn (amortized: every `SWEEP_EVERY` stores). */
  private sweep(): void {
    this.storesSinceSweep = 0;
    const now = this.latest;
    if (now === null) return;
    for (const [key, e] of this.entries) {
      if (e.lastUsed !== null && now - e.lastUsed > e.ttlMs + FORGET_AFTER_MS) {
        this.entries.delete(key);
        this.forgotten++;
      }
    }
  }

  private expiredNote(e: Entry, time: number | null): string {
    const idle = time !== null && e.lastUsed !== null ? time - e.lastUsed : 0;
    return `The cached prefix of ${e.tokens} tokens (written by ${e.writer}) expired: ${fmtDuration(idle)} since it was last used, beyond its ${fmtTtl(e.ttlMs)} lifetime.`;
  }

  simulate(input: CacheInput): CacheTurn {
    if (input.time !== null && (this.latest === null || input.time > this.latest)) this.latest = input.time;
    return this.rule.mode === "automatic" ? this.automatic(input) : this.breakpoints(input);
  }

  private automatic(input: CacheInput): CacheTurn {
    const { turn, keys, time } = input;
    const rule = this.rule;
    const total = turn.total.tokens;
    const segs = turn.segments;
    const notes: string[] = [];
    if (total < rule.minTokens) {
      notes.push(`The prompt has ${total} tokens, below the ${rule.minTokens}-token minimum: nothing is cached.`);
      return {
        total,
        read: 0,
        write: 0,
        write1h: 0,
        expired: false,
        prevented: { ...NONE, belowMinimum: true },
        notes,
        cachedPrefix: 0,
      };
    }
    // Longest stored prefix, alive or not.
    let best = 0;
    let bestEntry: Entry | null = null;
    let lost: Entry | null = null;
    let sum = 0;
    for (let i = 0; i < segs.length; i++) {
      sum += segs[i]!.tokens;
      const e = this.entries.get(keys[i]!);
      // Prefixes below the minimum are never stored: keep walking until one should have been.
      if (!e) {
        if (sum < rule.minTokens) continue;
        break;
      }
      if (this.alive(e, time)) {
        best = sum;
        bestEntry = e;
      } else if (sum > (lost?.tokens ?? 0)) lost = e;
    }
    if (input.partial && input.partial.tokens > best) {
      const e = this.entries.get(input.partial.key);
      if (e && this.alive(e, time)) {
        best = input.partial.tokens;
        bestEntry = e;
      } else if (e && input.partial.tokens > (lost?.tokens ?? 0)) lost = e;
    }
    let read = best >= rule.minTokens ? best : 0;
    if (read > 0 && rule.hitIncrement)
      read = rule.minTokens + Math.floor((read - rule.minTokens) / rule.hitIncrement) * rule.hitIncrement;
    const expired = lost !== null && lost.tokens > best && lost.tokens >= rule.minTokens;
    if (read > 0) notes.push(`Reads ${read} tokens of the prefix cached by ${bestEntry!.writer}.`);
    else if (best > 0)
      notes.push(`Shares only ${best} tokens with the cache, below the ${rule.minTokens}-token minimum.`);
    if (expired) notes.push(this.expiredNote(lost!, time));
    if (read === 0 && best === 0 && !expired) notes.push("No prefix of this prompt is in the cache.");
    // Every prefix read is refreshed, and the whole prompt is cached for later turns (implicit caching writes at no extra cost).
    sum = 0;
    for (let i = 0; i < segs.length; i++) {
      sum += segs[i]!.tokens;
      if (sum < rule.minTokens) continue;
      const old = this.entries.get(keys[i]!);
      if (old && this.alive(old, time)) this.touch(keys[i]!, old, time);
      else this.store(keys[i]!, { tokens: sum, lastUsed: time, ttlMs: this.ttlFor(input, i), writer: input.label });
    }
    return { total, read, write: 0, write1h: 0, expired, prevented: NONE, notes, cachedPrefix: total };
  }

  private breakpoints(input: CacheInput): CacheTurn {
    const { turn, keys, time } = input;
    const rule = this.rule;
    const segs = turn.segments;
    const total = turn.total.tokens;
    const cumulative: number[] = [];
    const rank: number[] = [];
    let sum = 0;
    let blocks = 0;
    let lastBlock = -1;
    segs.forEach((s, i) => {
      cumulative.push((sum += s.tokens));
      if (s.kind === "tool" || s.kind === "block") {
        blocks++;
        lastBlock = i;
      }
      rank.push(blocks);
    });
    const bps = segs.filter((s) => s.cacheBreakpoint).map((s) => s.index);
    if (turn.automaticCaching && lastBlock >= 0 && !bps.includes(lastBlock)) bps.push(lastBlock);
    const notes: string[] = [];
    const result = (
      read: number,
      write: number,
      write1h: number,
      prevented: CachePrevented,
      expired: boolean,
      cachedPrefix: number,
    ): CacheTurn => ({
      total,
      read,
      write,
      write1h,
      expired,
      prevented,
      notes,
      cachedPrefix,
    });
    if (bps.length === 0) {
      notes.push("No cache_control breakpoint: Anthropic caches nothing. Add breakpoints or top-level cache_control.");
      return result(0, 0, 0, { ...NONE, noBreakpoints: true }, false, 0);
    }
    if (rule.maxBreakpoints !== null && bps.length > rule.maxBreakpoints) {
      notes.push(
        `${bps.length} cache breakpoints but at most ${rule.maxBreakpoints} are allowed: the API rejects the request.`,
      );
      return result(0, 0, 0, { ...NONE, tooManyBreakpoints: true }, false, 0);
    }
    let read = 0;
    let readAt = -1;
    let lost: Entry | null = null;
    let missedByLookback = 0;
    for (let i = 0; i < segs.length; i++) {
      const e = this.entries.get(keys[i]!);
      if (!e) continue;
      const reachable =
        rule.lookbackBlocks === null || bps.some((b) => b >= i && rank[b]! - rank[i]! <= rule.lookbackBlocks!);
      if (!reachable) {
        missedByLookback = Math.max(missedByLookback, cumulative[i]!);
        continue;
      }
      if (!this.alive(e, time)) {
        if (cumulative[i]! > (lost?.tokens ?? 0)) lost = e;
        continue;
      }
      if (cumulative[i]! > read) {
        read = cumulative[i]!;
        readAt = i;
      }
    }
    const expired = lost !== null && lost.tokens > read;
    const prevented = { ...NONE, lookbackExceeded: missedByLookback > read };
    if (read > 0) {
      const e = this.entries.get(keys[readAt]!)!;
      notes.push(`Reads ${read} tokens from the entry written by ${e.writer}.`);
      this.touch(keys[readAt]!, e, time);
    }
    if (expired) notes.push(this.expiredNote(lost!, time));
    if (prevented.lookbackExceeded)
      notes.push(
        `An entry of ${missedByLookback} tokens matches but lies more than ${rule.lookbackBlocks} blocks before every breakpoint: add a breakpoint closer to it.`,
      );
    const valid = bps.filter((b) => cumulative[b]! >= rule.minTokens).sort((a, b) => a - b);
    if (valid.length === 0) {
      notes.push(
        `The prefix up to the last breakpoint has ${Math.max(...bps.map((b) => cumulative[b]!))} tokens, below the ${rule.minTokens}-token minimum: nothing is cached (and no error is returned).`,
      );
      return result(read, 0, 0, { ...prevented, belowMinimum: true }, expired, read);
    }
    const lastValid = valid[valid.length - 1]!;
    const write = Math.max(0, cumulative[lastValid]! - read);
    // Written tokens take the lifetime of the breakpoint that ends their stretch.
    let write1h = 0;
    let from = read;
    for (const b of valid) {
      const upTo = cumulative[b]!;
      if (upTo > from) {
        if (this.ttlFor(input, b) === TTL_MS.anthropic1h) write1h += upTo - from;
        from = upTo;
      }
    }
    for (const b of valid) {
      const old = this.entries.get(keys[b]!);
      if (old && this.alive(old, time)) this.touch(keys[b]!, old, time);
      else
        this.store(keys[b]!, {
          tokens: cumulative[b]!,
          lastUsed: time,
          ttlMs: this.ttlFor(input, b),
          writer: input.label,
        });
    }
    if (write > 0) notes.push(`Writes ${write} tokens up to ${segs[lastValid]!.path}.`);
    const after = total - cumulative[lastValid]!;
    if (after > 0) notes.push(`${after} tokens after the last breakpoint are sent uncached.`);
    return result(read, write, write1h, prevented, expired, cumulative[lastValid]!);
  }
}
