/**
 * The simulator against real cache reads: recorded consecutive turns (cache-turns.json, built by
 * e2e/calibration/cache-turns.mjs) replayed through `simulateCache`, compared with the cached
 * tokens each provider reported. Used by the calibration test and the bench's accuracy table.
 */
import { simulateCache, type SimulateOptions } from "../simulate.ts";
import type { CacheProvider, FingerprintBundle, Segment } from "../types.ts";

/** A segment as the fixture stores it (see e2e/calibration/cache-turns.mjs). */
export type FixtureSegment = readonly [
  path: string,
  kind: Segment["kind"],
  region: Segment["region"],
  role: Segment["role"],
  messageIndex: number | null,
  blockType: Segment["blockType"],
  byteLength: number,
  tokens: number,
  sha256Prefix: string,
  breakpoint: 0 | 1,
];

export interface FixtureTurn {
  readonly source: {
    readonly repo: string;
    readonly path: string;
    readonly commit: string;
    readonly interaction: number;
  };
  /** ISO time the interaction was recorded, when the cassette says. */
  readonly at: string | null;
  /** As the response reported it (`readUsage`): input includes cached tokens. */
  readonly usage: { readonly input: number; readonly cacheRead: number; readonly cacheWrite: number };
  /** `countRequestTokens`' method for the request. */
  readonly method: "exact" | "estimate";
  /** Gemini: the request names an explicit `cachedContent` whose size is not in the body. */
  readonly explicitCache?: true;
  readonly automaticCaching?: true;
  /** Indexes into the sequence's `segments`, in prompt order. */
  readonly segments: readonly number[];
}

export interface FixtureSequence {
  readonly provider: CacheProvider;
  readonly format: "openai-chat" | "openai-responses" | "anthropic" | "gemini";
  readonly model: string;
  readonly segments: readonly FixtureSegment[];
  readonly turns: readonly FixtureTurn[];
}

export interface CacheTurnFixture {
  readonly version: 1;
  readonly repos: readonly string[];
  readonly sequences: readonly FixtureSequence[];
}

/**
 * A fixture turn as a fingerprint bundle. The fixture keeps 16 hex digits of each SHA-256 (64
 * bits: equal prefixes mean equal segments here); the bundle repeats them to the 64 a bundle has.
 */
export function turnBundle(seq: FixtureSequence, turn: FixtureTurn): FingerprintBundle {
  let bytes = 0;
  let tokens = 0;
  const segments = turn.segments.map((id, index): Segment => {
    const [path, kind, region, role, messageIndex, blockType, byteLength, t, hash, bp] = seq.segments[id]!;
    const sha256 = hash.repeat(4);
    const s = {
      index,
      path,
      kind,
      region,
      role,
      messageIndex,
      blockType,
      byteOffset: bytes,
      byteLength,
      tokens: t,
      sha256,
      canonicalSha256: sha256,
      cacheBreakpoint: bp === 1,
    };
    bytes += byteLength;
    tokens += t;
    return s;
  });
  return {
    kind: "strata-fingerprints",
    bundleVersion: 1,
    provider: seq.provider,
    model: seq.model,
    requestSha256: segments[0]?.sha256 ?? "0".repeat(64),
    total: { bytes, segments: segments.length, tokens },
    automaticCaching: turn.automaticCaching === true,
    segments,
  };
}

export interface Agreement {
  /** Consecutive turns compared (turn 2 and later of each sequence). */
  readonly turns: number;
  /** Of them, the turns whose prompt reached the rule's minimum (the ones a cache could serve). */
  readonly eligible: number;
  /** Share of `turns` where the simulator and the provider agree on hit (read > 0) or miss. */
  readonly agreement: number;
  /** The same over `eligible` turns only. */
  readonly eligibleAgreement: number;
  /** Turns the provider served from cache. */
  readonly hits: number;
  /** Median of |predicted − reported| / reported over `hits`. */
  readonly medianError: number;
  /** Sequences left out, and why. */
  readonly excluded: Readonly<Record<string, number>>;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Group name of a sequence in the bench table. */
export const groupOf = (s: FixtureSequence) =>
  s.format === "openai-chat"
    ? "OpenAI Chat"
    : s.format === "openai-responses"
      ? "OpenAI Responses"
      : s.provider === "anthropic"
        ? "Anthropic"
        : "Gemini";

/**
 * Replays each sequence; `options` are passed to `simulateCache` (e.g. a `ruleId`). A sequence whose
 * first turn already read from cache is left out (the cache held something the recording does not
 * show), and so are Gemini turns that name an explicit `cachedContent`.
 */
export function evaluateCacheTurns(
  fixture: CacheTurnFixture,
  options: Partial<SimulateOptions> = {},
): Record<string, Agreement> {
  const acc: Record<
    string,
    {
      agree: number;
      turns: number;
      eligible: number;
      eligibleAgree: number;
      errors: number[];
      excluded: Record<string, number>;
    }
  > = {};
  for (const seq of fixture.sequences) {
    const g = (acc[groupOf(seq)] ??= { agree: 0, turns: 0, eligible: 0, eligibleAgree: 0, errors: [], excluded: {} });
    const exclude = (why: string) => {
      g.excluded[why] = (g.excluded[why] ?? 0) + 1;
    };
    if (seq.turns[0]!.usage.cacheRead > 0) {
      exclude("first turn already read from cache");
      continue;
    }
    if (seq.turns.some((t) => t.explicitCache)) {
      exclude("explicit cachedContent (its size is not in the request)");
      continue;
    }
    const sim = simulateCache(
      seq.turns.map((t) => turnBundle(seq, t)),
      { provider: seq.provider, model: seq.model, ...options },
    );
    for (let i = 1; i < seq.turns.length; i++) {
      const reported = seq.turns[i]!.usage.cacheRead;
      const predicted = sim.turns[i]!.cachedReadTokens;
      const ok = reported > 0 === predicted > 0;
      g.turns++;
      if (ok) g.agree++;
      if (seq.turns[i]!.usage.input >= sim.rule.minTokens) {
        g.eligible++;
        if (ok) g.eligibleAgree++;
      }
      if (reported > 0) g.errors.push(Math.abs(predicted - reported) / reported);
    }
  }
  const out: Record<string, Agreement> = {};
  for (const [k, g] of Object.entries(acc).sort(([a], [b]) => (a < b ? -1 : 1)))
    out[k] = {
      turns: g.turns,
      eligible: g.eligible,
      agreement: g.turns === 0 ? 1 : g.agree / g.turns,
      eligibleAgreement: g.eligible === 0 ? 1 : g.eligibleAgree / g.eligible,
      hits: g.errors.length,
      medianError: median(g.errors),
      excluded: g.excluded,
    };
  return out;
}
