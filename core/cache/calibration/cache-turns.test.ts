import { describe, expect, it } from "vitest";
import { checkFingerprintBundle } from "../fingerprint-check.ts";
import { selectCacheRule } from "../rules.ts";
import { simulateCache } from "../simulate.ts";
import fixtureJson from "./cache-turns.json";
import { type CacheTurnFixture, evaluateCacheTurns, groupOf, turnBundle } from "./evaluate.ts";

const fixture = fixtureJson as unknown as CacheTurnFixture;

describe("cache-turn fixture (recorded consecutive turns)", () => {
  it("keeps no prompt text: a source pointer, usage and hash-only segments per turn", () => {
    expect(fixture.sequences.length).toBeGreaterThan(100);
    for (const seq of fixture.sequences) {
      expect(seq.turns.length).toBeGreaterThanOrEqual(2);
      for (const s of seq.segments) {
        expect(s).toHaveLength(10);
        expect(s[8]).toMatch(/^[0-9a-f]{16}$/);
        // the only strings are the path and the enum-like fields
        expect(s[0]).toMatch(/^(tools\[\d+\]|providerOptions\.\w+|messages\[\d+\](\.content\[\d+\])?)$/);
      }
      for (const t of seq.turns) {
        expect(
          Object.keys(t).every((k) =>
            ["source", "at", "usage", "method", "explicitCache", "automaticCaching", "segments"].includes(k),
          ),
        ).toBe(true);
        expect(fixture.repos).toContain(t.source.repo);
        expect(t.source.commit).toMatch(/^[0-9a-f]{40}$/);
        checkFingerprintBundle(turnBundle(seq, t));
      }
    }
  });

  it("OpenAI's reported cache reads before GPT-5.6 are 1,024 + 128·k, as the simulator's rule says", () => {
    const reads = fixture.sequences
      .filter((s) => s.provider === "openai" && !s.model.startsWith("gpt-5.6"))
      .flatMap((s) => s.turns.map((t) => t.usage.cacheRead))
      .filter((r) => r > 0);
    expect(reads.length).toBeGreaterThan(10);
    for (const r of reads) expect(r >= 1024 && (r - 1024) % 128 === 0).toBe(true);
    const rule = selectCacheRule("openai", "gpt-4o").rule;
    expect([rule.minTokens, rule.hitIncrement]).toEqual([1024, 128]);
    expect(selectCacheRule("openai", "gpt-5.6-sol").rule.hitIncrement).toBe(null);
  });

  it("agrees with the provider on hit or miss for ≥ 95% of consecutive OpenAI and Anthropic turns", () => {
    const acc = evaluateCacheTurns(fixture);
    for (const g of ["Anthropic", "OpenAI Chat", "OpenAI Responses"]) {
      expect(acc[g]!.turns).toBeGreaterThan(100);
      expect(acc[g]!.agreement).toBeGreaterThanOrEqual(0.95);
    }
    // Anthropic is deterministic at its breakpoints: where it read, the figure is within 10% (median).
    expect(acc["Anthropic"]!.hits).toBeGreaterThan(5);
    expect(acc["Anthropic"]!.medianError).toBeLessThanOrEqual(0.1);
  });

  it("replays the same way every time (deterministic)", () => {
    const seq = fixture.sequences.find(
      (s) => groupOf(s) === "Anthropic" && s.turns.some((t) => t.usage.cacheRead > 0),
    )!;
    const run = () =>
      JSON.stringify(
        simulateCache(
          seq.turns.map((t) => turnBundle(seq, t)),
          { provider: "anthropic", model: seq.model },
        ),
      );
    expect(run()).toBe(run());
    expect(JSON.stringify(evaluateCacheTurns(fixture))).toBe(JSON.stringify(evaluateCacheTurns(fixture)));
  });
});
