import { describe, expect, it } from "vitest";
import { toAnthropic } from "../formats/anthropic.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { applyBreakpoints, suggestCacheBreakpoints } from "./breakpoints.ts";
import { CACHE_RULES, selectCacheRule } from "./rules.ts";
import { segmentRequest } from "./segments.ts";
import { simulateCache } from "./simulate.ts";

function wire(value: unknown): NormalizedRequest {
  const p = parseRequest(value);
  if (p.format === "strata") throw new Error("expected a wire request");
  return p.request;
}
const turns = conversationTurns.map(wire);
const figures = (sim: ReturnType<typeof simulateCache>) =>
  sim.turns.map((t) => [t.cachedReadTokens, t.cacheWriteTokens, t.uncachedTokens, t.relativeCost]);

describe("simulateCache on the four-turn conversation", () => {
  it("Anthropic: turn 2 reads turn 1, turn 3 reads only the tools, turn 4 reads nothing", () => {
    const sim = simulateCache(turns, { provider: "anthropic" });
    expect(sim.rule.id).toBe("anthropic-sonnet-4-5");
    expect(figures(sim)).toEqual([
      [0, 1899, 0, 1.25],
      [1899, 74, 0, 0.1431],
      [1075, 973, 0, 0.6464],
      [0, 2125, 0, 1.25],
    ]);
    // Turn 3 reads exactly the tool definitions (the level before the changed system prompt).
    const toolTokens = segmentRequest(turns[2]!, { provider: "anthropic" })
      .segments.filter((s) => s.region === "tools")
      .reduce((n, s) => n + s.tokens, 0);
    expect(sim.turns[2]!.cachedReadTokens).toBe(toolTokens);
    expect(sim.totals).toEqual({
      totalTokens: 8045,
      cachedReadTokens: 2974,
      cacheWriteTokens: 5071,
      cacheWrite1hTokens: 0,
      uncachedTokens: 0,
      relativeCost: 0.8249,
    });
  });

  it("OpenAI (automatic, exact prefix): turn 3 still reuses the system prompt up to the timestamp", () => {
    const sim = simulateCache(turns, { provider: "openai", model: "gpt-4o" });
    expect(figures(sim)).toEqual([
      [0, 0, 1899, 1],
      [1899, 0, 74, 0.5188],
      [1868, 0, 180, 0.5439],
      [0, 0, 2125, 1],
    ]);
    expect(sim.turns[3]!.notes[0]).toContain("below the 1024-token minimum");
  });

  it("the legacy OpenAI row rounds hits down to 128-token increments", () => {
    const sim = simulateCache(turns, { provider: "openai", model: "gpt-4o", ruleId: "openai-128-increments" });
    expect(sim.turns[1]!.cachedReadTokens).toBe(1024 + 6 * 128);
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
      system: "x".repeat(8000),
      messages: [{ role: "user", content: "hi" }],
    });
    expect(simulateCache([req], { provider: "anthropic" }).turns[0]!.prevented.noBreakpoints).toBe(true);
    const auto = wire({
      ...conversationTurns[0],
      cache_control: { type: "ephemeral" },
      tools: [],
      system: "x".repeat(8000),
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
    // Turn 1's entries at the system prompt (1875) and at its end (1899) are out of reach;
    // the tools breakpoint, still marked, reads the tool-level entry.
    expect(t.cachedReadTokens).toBe(1075);
    expect(t.notes.join(" ")).toContain("An entry of 1899 tokens matches but lies more than 20 blocks");
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
