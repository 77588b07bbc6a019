import { describe, expect, it } from "vitest";
import { toAnthropic } from "../formats/anthropic.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { applyBreakpoints, suggestCacheBreakpoints } from "./breakpoints.ts";
import { CACHE_RULES, selectCacheRule } from "./rules.ts";
import { segmentRequest } from "./segments.ts";
import { simulateCache } from "./simulate.ts";
import { segmentCounted } from "./counted.ts";
import { countRequestTokens } from "../tokens/count.ts";
import { createOpenAITokenizer } from "../tokenizers/openai/index.ts";

function wire(value: unknown): NormalizedRequest {
  const p = parseRequest(value);
  if (p.format === "strata") throw new Error("expected a wire request");
  return p.request;
}
const turns = conversationTurns.map(wire);

/** Prefix sums of a turn's billed tokens per segment (what the simulator measures prefixes in). */
const prefixTokens = (t: NormalizedRequest, provider: "anthropic" | "openai") => {
  let sum = 0;
  return segmentCounted(t, { provider }).segments.map((s) => (sum += s.tokens));
};
const step = (n: number) => (n < 1024 ? 0 : 1024 + Math.floor((n - 1024) / 128) * 128);

describe("simulateCache on the four-turn conversation", () => {
  it("Anthropic: turn 2 reads turn 1, turn 3 reads only the tools, turn 4 reads nothing", () => {
    const sim = simulateCache(turns, { provider: "anthropic" });
    expect(sim.rule.id).toBe("anthropic-sonnet-4-5");
    expect(sim.behaviour.guaranteed).toBe(true);
    const [t1, t2, t3, t4] = sim.turns;
    // Turn 1 writes up to its last breakpoint; turn 2 reads exactly that entry and writes the rest.
    const seg1 = segmentCounted(turns[0]!, { provider: "anthropic" }).segments;
    const lastBp = seg1.findLastIndex((s) => s.cacheBreakpoint);
    expect(t1!.cacheWriteTokens).toBe(prefixTokens(turns[0]!, "anthropic")[lastBp]);
    expect(t2!.cachedReadTokens).toBe(t1!.cacheWriteTokens);
    expect(t2!.cacheWriteTokens).toBeGreaterThan(0);
    // Turn 3 reads exactly the tool definitions (the level before the changed system prompt).
    const toolTokens = segmentCounted(turns[2]!, { provider: "anthropic" })
      .segments.filter((s) => s.region === "tools")
      .reduce((n, s) => n + s.tokens, 0);
    expect(t3!.cachedReadTokens).toBe(toolTokens);
    expect(t4!.cachedReadTokens).toBe(0);
    // Every figure is countRequestTokens' per segment: each turn's total is its count.
    expect(sim.turns.map((t) => t.totalTokens)).toEqual(
      turns.map((t) => segmentCounted(t, { provider: "anthropic" }).totalTokens),
    );
    for (const t of sim.turns) expect(t.cachedReadTokens + t.cacheWriteTokens + t.uncachedTokens).toBe(t.totalTokens);
    expect(sim.assumptions.join(" ")).toContain("countRequestTokens");
    expect(sim.totals.cacheWrite1hTokens).toBe(0);
  });

  it("OpenAI reads in 128-token steps from 1,024: turn 2 reads turn 1's whole prompt, rounded down", () => {
    const sim = simulateCache(turns, { provider: "openai", model: "gpt-4o" });
    expect(sim.rule.hitIncrement).toBe(128);
    expect(sim.behaviour.guaranteed).toBe(false);
    const sums = prefixTokens(turns[1]!, "openai");
    const shared = sums[segmentCounted(turns[0]!, { provider: "openai" }).segments.length - 1]!;
    expect(sim.turns[1]!.cachedReadTokens).toBe(step(shared));
    for (const t of sim.turns) expect(t.cachedReadTokens === 0 || (t.cachedReadTokens - 1024) % 128 === 0).toBe(true);
    // Turn 3 still reuses the system prompt up to the timestamp; turn 4 is below the minimum.
    expect(sim.turns[2]!.cachedReadTokens).toBeGreaterThanOrEqual(1024);
    expect(sim.turns[3]!.cachedReadTokens).toBe(0);
  });

  it("counts exactly with OpenAI's tokenizer, and with a tokenEstimator uses it instead", async () => {
    const tokenizer = await createOpenAITokenizer("gpt-4o");
    const exact = simulateCache(turns, { provider: "openai", model: "gpt-4o", tokenizer });
    expect(exact.turns[0]!.totalTokens).toBe(
      countRequestTokens(turns[0]!, { provider: "openai", model: "gpt-4o", tokenizer }).total,
    );
    const quarter = simulateCache(turns, { provider: "openai", model: "gpt-4o", tokenEstimator: (t) => t.length / 4 });
    expect(quarter.turns[0]!.totalTokens).toBe(segmentRequest(turns[0]!, { provider: "openai" }).totalTokens);
    expect(quarter.assumptions.join(" ")).toContain("tokenEstimator");
  });

  it("Gemini before 2.5 has no implicit cache; an explicit cachedContent is read but not counted", () => {
    const g = (model: string, extra: Record<string, unknown> = {}) =>
      wire({
        model,
        contents: [{ role: "user", parts: [{ text: "The quick brown fox jumps over the lazy dog. ".repeat(600) }] }],
        ...extra,
      });
    expect(
      simulateCache([g("gemini-2.0-flash"), g("gemini-2.0-flash")], { provider: "gemini" }).turns[1]!.cachedReadTokens,
    ).toBe(0);
    expect(
      simulateCache([g("gemini-2.5-flash"), g("gemini-2.5-flash")], { provider: "gemini" }).turns[1]!.cachedReadTokens,
    ).toBeGreaterThan(2048);
    const named = simulateCache([g("gemini-2.5-flash", { cachedContent: "cachedContents/abc" })], {
      provider: "gemini",
    });
    expect(named.turns[0]!.notes[0]).toContain("cachedContents/abc");
    expect(named.behaviour.guaranteed).toBe(false);
  });
});

describe("simulateCache limits", () => {
  const small: NormalizedRequest = {
    model: { provider: "anthropic", model: "claude-sonnet-4-5" },
    tools: [],
    messages: [{ role: "user", content: [{ type: "text", text: "short", cache: { type: "ephemeral" } }] }],
  };

  it("caches nothing below the minimum and says so", () => {
    const t = simulateCache([small], { provider: "anthropic" }).turns[0]!;
    expect(t.prevented.belowMinimum).toBe(true);
    expect([t.cachedReadTokens, t.cacheWriteTokens, t.uncachedTokens]).toEqual([0, 0, t.totalTokens]);
  });

  it("caches nothing without breakpoints on Anthropic", () => {
    const req = wire({
      ...conversationTurns[0],
      tools: [],
      system: "The quick brown fox jumps over the lazy dog. ".repeat(300),
      messages: [{ role: "user", content: "hi" }],
    });
    expect(simulateCache([req], { provider: "anthropic" }).turns[0]!.prevented.noBreakpoints).toBe(true);
    const auto = wire({
      ...conversationTurns[0],
      cache_control: { type: "ephemeral" },
      tools: [],
      system: "The quick brown fox jumps over the lazy dog. ".repeat(300),
      messages: [{ role: "user", content: "hi" }],
    });
    expect(simulateCache([auto], { provider: "anthropic" }).turns[0]!.cacheWriteTokens).toBeGreaterThan(2000);
  });

  it("flags more than 4 breakpoints (the API rejects the request)", () => {
    const marked = {
      ...turns[1]!,
      messages: turns[1]!.messages.map((m) => ({
        ...m,
        content: m.content.map((b) => ({ ...b, cache: { type: "ephemeral" as const } })),
      })),
    };
    const t = simulateCache([marked], { provider: "anthropic" }).turns[0]!;
    expect(t.prevented.tooManyBreakpoints).toBe(true);
    expect(t.cacheWriteTokens).toBe(0);
  });

  it("flags an entry more than 20 blocks before the only breakpoint", () => {
    const first = turns[0]!;
    const filler = Array.from(
      { length: 24 },
      (_, i) => ({ role: i % 2 ? "user" : "assistant", content: [{ type: "text", text: `step ${i}` }] }) as const,
    );
    const last = { role: "user", content: [{ type: "text", text: "and now?", cache: { type: "ephemeral" } }] } as const;
    const plain = first.messages.map((m) => ({ ...m, content: m.content.map(({ cache: _c, ...b }) => b) }));
    const second: NormalizedRequest = { ...first, messages: [...plain, ...filler, last] };
    const t = simulateCache([first, second], { provider: "anthropic" }).turns[1]!;
    expect(t.prevented.lookbackExceeded).toBe(true);
    // Turn 1's entries at the system prompt and at its end are out of reach; the tools
    // breakpoint, still marked, reads the tool-level entry.
    const seg = segmentCounted(second, { provider: "anthropic" }).segments;
    const tools = seg.filter((s) => s.region === "tools").reduce((n, s) => n + s.tokens, 0);
    expect(t.cachedReadTokens).toBe(tools);
    // The out-of-reach entry ends where turn 1 ended (measured in turn 2's segments).
    const atEnd = prefixTokens(second, "anthropic")[
      segmentCounted(first, { provider: "anthropic" }).segments.length - 1
    ]!;
    expect(atEnd).toBeGreaterThan(tools);
    expect(t.notes.join(" ")).toContain(`An entry of ${atEnd} tokens matches but lies more than 20 blocks`);
  });
});

describe("CACHE_RULES", () => {
  it("keeps conflicting sources as rows and reports them as alternatives", () => {
    const sel = selectCacheRule("anthropic", "claude-sonnet-4-6");
    expect(sel.rule).toMatchObject({ id: "anthropic-sonnet-4-6", minTokens: 1024 });
    expect(sel.alternatives).toEqual(["anthropic-sonnet-4-6-observed"]);
    expect(
      selectCacheRule("anthropic", "claude-sonnet-4-6", { ruleId: "anthropic-sonnet-4-6-observed" }).rule.minTokens,
    ).toBe(2048);
    expect(selectCacheRule("gemini", "models/gemini-2.5-pro").alternatives).toEqual([
      "gemini-2.5-pro-earlier-2048",
      "gemini-2.5-pro-earlier-4096",
    ]);
  });

  it.each([
    ["claude-opus-4-5-20251101", "anthropic-opus-4-5", 4096],
    ["claude-opus-4-20250514", "anthropic-opus-4", 1024],
    ["claude-3-5-haiku-20241022", "anthropic-haiku-3-5", 2048],
    ["anthropic/claude-haiku-4-5", "anthropic-haiku-4-5", 4096],
  ])("picks the row for %s", (model, id, min) => {
    expect(selectCacheRule("anthropic", model).rule).toMatchObject({ id, minTokens: min });
  });

  it("dates and sources every row", () => {
    for (const r of CACHE_RULES) {
      expect(r.date).toMatch(/^\d{4}-\d{2}$/);
      expect(r.source.length).toBeGreaterThan(10);
    }
    expect(new Set(CACHE_RULES.map((r) => r.id)).size).toBe(CACHE_RULES.length);
  });

  it("matches model ids by glob, ignoring case", () => {
    expect(selectCacheRule("openai", "o3").rule.id).toBe("openai-o3-o4");
    expect(selectCacheRule("openai", "O4-MINI").rule.id).toBe("openai-o3-o4");
    expect(selectCacheRule("openai", "o1").rule.id).not.toBe("openai-o3-o4");
    expect(selectCacheRule("openai", "GPT-4.1-mini").rule.id).toBe("openai-gpt-4-1");
  });
});

describe("suggestCacheBreakpoints", () => {
  it("suggests the ends of tools, system and conversation, and toAnthropic places them", () => {
    const plain = wire({
      ...conversationTurns[1],
      tools: conversationTurns[1].tools.map((t) => {
        const { cache_control: _c, ...rest } = t as Record<string, unknown>;
        return rest;
      }),
    });
    const s = suggestCacheBreakpoints(plain);
    expect(s.map((b) => b.path)).toEqual(["tools[7]", "messages[0].content[0]", "messages[3].content[0]"]);
    const body = toAnthropic(plain, { breakpoints: s }).body;
    expect(JSON.stringify(body)).toBe(JSON.stringify(conversationTurns[1]));
  });

  it("skips prefixes below the minimum and rejects a fifth breakpoint", () => {
    const small = wire({ model: "claude-opus-4-5", max_tokens: 5, messages: [{ role: "user", content: "hi" }] });
    expect(suggestCacheBreakpoints(small)).toEqual([]);
    expect(() => toAnthropic(small, { breakpoints: ["a", "b", "c", "d", "e"] }).body).toThrow(/at most 4/);
    expect(() => toAnthropic(small, { breakpoints: ["messages[9].content[0]"] }).body).toThrow(
      /no tool or content block/,
    );
  });
});

describe("cache marker lifetimes and the 4-marker limit", () => {
  // The four-turn conversation with every marker asking for a 1-hour lifetime.
  const oneHour = (v: unknown) =>
    JSON.parse(
      JSON.stringify(v).replaceAll(
        '"cache_control":{"type":"ephemeral"}',
        '"cache_control":{"type":"ephemeral","ttl":"1h"}',
      ),
    );
  const markers = (body: unknown) => JSON.stringify(body).match(/"cache_control"/g)?.length ?? 0;

  it("applyBreakpoints and toAnthropic keep a marker's ttl", () => {
    const req = wire(oneHour(conversationTurns[1]));
    const paths = suggestCacheBreakpoints(req).map((b) => b.path);
    expect(paths).toContain("tools[7]");
    const applied = applyBreakpoints(req, paths);
    expect(applied.tools[7]!.cache).toEqual({ type: "ephemeral", ttl: "1h" });
    // A block without a marker gets the default lifetime; { path, ttl } sets one.
    const last = paths[paths.length - 1]!;
    const set = applyBreakpoints(req, [{ path: last, ttl: "1h" }]);
    expect(JSON.stringify(set)).toContain('"ttl":"1h"');
    const body = toAnthropic(req, { breakpoints: paths }).body;
    expect(JSON.stringify(body)).toContain('"cache_control":{"type":"ephemeral","ttl":"1h"}');
  });

  it("1-hour writes are priced at 2×, 5-minute writes at 1.25×", () => {
    const five = simulateCache([turns[0]!], { provider: "anthropic" }).turns[0]!;
    const hour = simulateCache([wire(oneHour(conversationTurns[0]))], { provider: "anthropic" }).turns[0]!;
    expect(hour.cacheWriteTokens).toBe(five.cacheWriteTokens);
    expect(five.cacheWrite1hTokens).toBe(0);
    expect(hour.cacheWrite1hTokens).toBe(hour.cacheWriteTokens);
    const total = hour.totalTokens;
    const uncached = total - hour.cacheWriteTokens;
    expect(hour.relativeCost).toBeCloseTo((uncached + 2 * hour.cacheWriteTokens) / total, 4);
    expect(five.relativeCost).toBeCloseTo((uncached + 1.25 * five.cacheWriteTokens) / total, 4);
  });

  it("top-level cache_control takes a slot: suggestions stop at 3 and toAnthropic never writes a fifth marker", () => {
    const plain = (turn: unknown, extra: Record<string, unknown>) =>
      wire({
        ...(JSON.parse(JSON.stringify(turn).replaceAll(',"cache_control":{"type":"ephemeral"}', "")) as object),
        ...extra,
      });
    const base = plain(conversationTurns[1], {});
    const auto = plain(conversationTurns[1], { cache_control: { type: "ephemeral" } });
    const previous = plain(conversationTurns[0], {});
    const without = suggestCacheBreakpoints(base, { previous });
    const withAuto = suggestCacheBreakpoints(auto, { previous });
    expect(without.length).toBe(4);
    expect(withAuto.length).toBe(3);
    // The last block is cached by the automatic marker: no explicit breakpoint there.
    expect(withAuto.map((b) => b.path)).not.toContain(without[without.length - 1]!.path);
    const body = toAnthropic(auto, { breakpoints: withAuto }).body;
    expect(markers(body)).toBe(4);
    expect(simulateCache([auto], { provider: "anthropic" }).turns[0]!.prevented.tooManyBreakpoints).toBe(false);
    expect(() => toAnthropic(auto, { breakpoints: without }).body).toThrow(/automatic caching\) takes one/);
  });
});
