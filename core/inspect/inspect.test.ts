import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RequestFormatError } from "../formats/errors.ts";
import { toAnthropic } from "../formats/anthropic.ts";
import { requestArb } from "../test-support/arbitraries.ts";
import { assemblySample } from "../test-support/samples-assembly.ts";
import { badSamples } from "../test-support/samples-bad.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { samples } from "../test-support/samples.ts";
import { inspect } from "./inspect.ts";
import { partsAsSent, relayBlocker, requestFromParts } from "../cache/part-layout.ts";
import { requestParts } from "../cache/parts.ts";
import { segmentWith } from "../cache/segments.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { parseRequest } from "../request/parse-request.ts";
import { anthropicSample as anthropicWire, anthropicSplitTurn } from "../test-support/samples-wire.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { composeInstructions } from "./wire-tiers.ts";
import { REPORT_VERSION } from "./types.ts";
import { simulateCache } from "../cache/simulate.ts";
import { countRequestTokens } from "../tokens/count.ts";
import { createOpenAITokenizer } from "../tokenizers/openai/index.ts";
import { pngBase64 } from "../test-support/images.ts";

const text = (v: unknown) => JSON.stringify(v, null, 2);

describe("inspect on the four-turn conversation", () => {
  it.each([
    [2, "appended", "messages[2]", [1899, 74, 0]],
    [3, "system_changed", "messages[0].content[0]", [1075, 973, 0]],
    [4, "tool_order_changed", "tools[3]", [0, 2125, 0]],
  ] as const)("turn %i against its previous turn: %s at %s", async (turn, cause, path, [read, write, uncached]) => {
    const [before, after] = [conversationTurns[turn - 2], conversationTurns[turn - 1]];
    const report = await inspect(text(after), { previous: text(before) });
    expect(report.settings.previous).toBe("request");
    expect(report.prefix!.divergence).toMatchObject({ cause, path });
    const figures = (t: { cachedReadTokens: number; cacheWriteTokens: number; uncachedTokens: number }) => [
      t.cachedReadTokens,
      t.cacheWriteTokens,
      t.uncachedTokens,
    ];
    // By default every figure is countRequestTokens', as simulateCache counts the same two turns.
    const sim = simulateCache([parseRequest(before).request, parseRequest(after).request] as NormalizedRequest[], {
      provider: "anthropic",
    });
    expect(figures(report.cache!.turns[1]!)).toEqual(figures(sim.turns[1]!));
    expect(report.cache!.turns[1]!.totalTokens).toBe(report.tokens!.total);
    expect(report.problems).toEqual([]);
    // With the specs' ÷4 estimator, the figures the specs' example gives.
    const quarter = await inspect(text(after), { previous: text(before), tokenEstimator: estimateTextTokens });
    expect(figures(quarter.cache!.turns[1]!)).toEqual([read, write, uncached]);
    expect(quarter.tokens).toMatchObject({ counter: "tokenEstimator", method: "estimate", low: null, band: null });
  });

  it("compares against a fingerprint bundle pasted as the previous turn", async () => {
    const before = await inspect(conversationTurns[1]);
    const report = await inspect(conversationTurns[2], { previous: JSON.stringify(before.fingerprints) });
    expect(report.settings.previous).toBe("fingerprints");
    expect(report.prefix!.divergence).toMatchObject({
      cause: "system_changed",
      path: "messages[0].content[0]",
      excerpt: null,
    });
    // The bundle carries the counted tokens: the same read as against the request itself.
    const direct = await inspect(conversationTurns[2], { previous: conversationTurns[1] });
    expect(report.cache!.turns[1]!.cachedReadTokens).toBe(direct.cache!.turns[1]!.cachedReadTokens);
    expect(report.cache!.turns[1]!.cachedReadTokens).toBeGreaterThan(0);
  });

  it("suggests Anthropic breakpoints", async () => {
    const report = await inspect(conversationTurns[1]);
    expect(report.breakpoints!.map((b) => b.path)).toEqual([
      "tools[7]",
      "messages[0].content[0]",
      "messages[3].content[0]",
    ]);
  });
});

describe("inspect on the AssemblyRequest sample", () => {
  it("reports tier gating, both layouts, the context budget, the template and the next turn", async () => {
    const r = await inspect(text(assemblySample));
    expect(r.format).toBe("strata");
    expect(r.provider).toBe("anthropic");
    expect(r.problems).toEqual([]);
    expect(r.tiers!.rows.filter((x) => x.verdict === "dropped").map((x) => x.id)).toEqual([
      "active.runbook",
      "informational.glossary",
    ]);
    expect(r.tiers!.rows[3]!.reason).toBe(
      "active: 331 + 208 = 539 > active ceiling 504 = 203 + floor((520 - 203) * 0.95)",
    );
    expect(r.dropped.map((d) => `${d.stage}:${d.id}`)).toEqual([
      "tiers:active.runbook",
      "tiers:informational.glossary",
      "context_budget:history:0",
      "context_budget:history:1",
      "context_budget:history:2",
      "context_budget:history:3",
    ]);
    expect(r.contextBudget).toMatchObject({ maxInputTokens: 400, maxInputBytes: null, usedTokens: 375 });
    expect(r.assembly!.cache_aware!.messages.map((m) => m.source)).toEqual([
      "instructions",
      "instructions",
      "attachment:job-8812.log",
      "summary",
      "history:5",
      "input",
    ]);
    expect(r.assembly!.legacy!.messages.map((m) => m.source)).toEqual([
      "instructions",
      "instructions",
      "summary",
      "history:5",
      "input",
      "attachment:job-8812.log",
    ]);
    expect(r.templates).toMatchObject({ target: "systemInstructions", error: null });
    expect(r.request!.messages[0]!.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("Current time: 2026-11-29T09:14:00Z"),
    });
    expect(r.nextTurn!.cache_aware.comparison.divergence!.cause).toBe("appended");
    expect(r.nextTurn!.legacy.comparison.divergence).toMatchObject({ cause: "message_edited", path: "messages[5]" });
    expect(r.nextTurn!.legacy.comparison.divergence!.detail).toContain("inserted");
    expect(r.nextTurn!.cache_aware.stablePrefixRatio).toBeGreaterThan(r.nextTurn!.legacy.stablePrefixRatio);
    expect(r.cache!.assumptions.at(-1)).toContain("no cache_control markers");
  });

  it("blames a volatile template value when the template's clock moves between turns", async () => {
    const later = { ...assemblySample, template: { ...assemblySample.template, now: "2026-11-29T09:21:00Z" } };
    const r = await inspect(later, { previous: assemblySample, nextTurn: false });
    expect(r.templates!.volatility.map((w) => [w.variable, w.line])).toEqual([["system.current_datetime", 2]]);
    expect(r.prefix!.divergence).toMatchObject({ cause: "volatile_template_value", path: "messages[0].content[0]" });
    expect(r.prefix!.divergence!.detail).toContain("system.current_datetime");
  });

  it("renders the template once for both layouts and the next-turn simulation", async () => {
    let readings = 0;
    const clock = () => {
      readings++;
      return 0;
    };
    const r = await inspect(assemblySample, { clock });
    // A small template's render reads the deadline's clock once, when it starts.
    expect(readings).toBe(1);
    expect(r.nextTurn).not.toBeNull();
    const plain = await inspect(assemblySample);
    expect(JSON.stringify(r)).toBe(JSON.stringify(plain));
  });

  it("stops a template that runs past deadlineMs with a template_deadline problem, and reports the rest", async () => {
    let now = 0;
    const clock = () => (now += 40);
    const slow = {
      ...assemblySample,
      template: { ...assemblySample.template, template: "{% for i in range(90000) %}{{ i }}{% endfor %}" },
    };
    const r = await inspect(slow, { clock, deadlineMs: 100, nextTurn: false });
    expect(r.problems.map((p) => [p.stage, p.code])).toContainEqual(["template", "template_deadline"]);
    expect(r.request).not.toBeNull();
    await expect(inspect(slow, { deadlineMs: 0 })).rejects.toThrow(/^deadlineMs: must be a positive number/);
  });

  it("keeps going when a stage fails, and says why", async () => {
    const broken = {
      ...assemblySample,
      template: { ...assemblySample.template, template: "{% if %}" },
      sections: [...assemblySample.sections, assemblySample.sections[0]],
      contextBudget: { maxInputTokens: 10 },
    };
    const r = await inspect(broken);
    expect(r.problems.map((p) => [p.stage, p.code])).toEqual(
      expect.arrayContaining([
        ["tiers", "invalid_budgeted_section"],
        ["assembly", "context_budget_exceeded"],
      ]),
    );
    expect(r.problems.find((p) => p.stage === "tiers")!.path).toBe("sections[6].id");
    expect(r.request).toBeNull();
    expect(r.segments).toBeNull();
    expect(r.templates!.error).not.toBeNull();
  });

  it("honours layout, tierBudget and contextBudget overrides", async () => {
    const r = await inspect(assemblySample, {
      layout: "legacy",
      tierBudget: null,
      contextBudget: null,
      nextTurn: false,
    });
    expect(r.settings.layout).toBe("legacy");
    expect(r.tiers!.rows.every((x) => x.verdict === "included")).toBe(true);
    expect(r.contextBudget).toBeNull();
    expect(r.dropped).toEqual([]);
    expect(r.nextTurn).toBeNull();
  });
});

describe("inspect, in general", () => {
  it.each(samples.map((s) => [s.id, s.data] as const))(
    "is plain JSON, with every key present, for %s",
    async (_id, data) => {
      const r = await inspect(data);
      expect(r.reportVersion).toBe(REPORT_VERSION);
      expect(JSON.parse(JSON.stringify(r))).toEqual(r);
      expect(Object.keys(r)).toEqual([
        "reportVersion",
        "format",
        "provider",
        "model",
        "settings",
        "request",
        "parts",
        "assembly",
        "tiers",
        "contextBudget",
        "window",
        "dropped",
        "segments",
        "prefix",
        "cache",
        "breakpoints",
        "nextTurn",
        "history",
        "templates",
        "volatileLiterals",
        "tokens",
        "usage",
        "fingerprints",
        "problems",
        "truncated",
      ]);
      expect(r.truncated).toEqual([]);
    },
  );

  it("is byte-identical for identical input (property)", async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        let body: string;
        try {
          body = JSON.stringify({ max_tokens: 100, ...toAnthropic(req).body });
        } catch {
          return; // not expressible on Anthropic's wire (e.g. a system message with a tool call)
        }
        const a = JSON.stringify(await inspect(body, { provider: "openai" }));
        const b = JSON.stringify(await inspect(body, { provider: "openai" }));
        expect(a).toBe(b);
      }),
      { seed: 5301, numRuns: 60 },
    );
    const sample = JSON.stringify(assemblySample);
    expect(JSON.stringify(await inspect(sample))).toBe(JSON.stringify(await inspect(sample)));
  });

  it.each(badSamples.map((b) => [b.id, b.text] as const))(
    "throws a RequestFormatError for the %s fixture",
    async (_id, bad) => {
      await expect(inspect(bad)).rejects.toBeInstanceOf(RequestFormatError);
    },
  );

  it("reports history issues of a wire request", async () => {
    const r = await inspect({
      model: "gpt-4o",
      messages: [
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "user", content: "and?" },
      ],
    });
    expect(r.history.issues.length).toBeGreaterThan(0);
    expect(r.history.issues[0]!.index).toBe(0);
  });

  it("uses an injected token estimator everywhere", async () => {
    const r = await inspect(conversationTurns[0], { tokenEstimator: (t) => t.length });
    expect(r.settings.tokenEstimator).toBe("custom");
    expect(r.cache!.turns[0]!.totalTokens).toBe(r.segments!.totalTokens);
    expect(r.segments!.totalTokens).toBeGreaterThan(7000);
  });
});

describe("inspect on wire requests: every section answers", () => {
  const wire = samples.filter((s) => s.format !== "strata");

  it.each(wire.map((s) => [s.id, s.data] as const))(
    "%s: parts, both layouts, the next turn, tiers, window",
    async (_id, data) => {
      const r = await inspect(data);
      expect(r.parts!.parts.length).toBeGreaterThan(0);
      expect(r.assembly!.asSent!.follows).toEqual(["cache_aware", "legacy"]);
      expect(r.assembly!.cache_aware!.messages.map((m) => m.path)).toEqual(
        r.assembly!.asSent!.messages.map((m) => m.path),
      );
      expect(r.nextTurn!.cache_aware.stablePrefixRatio).toBeGreaterThan(0.9);
      expect(r.tiers!.origin).toBe("instructions");
      expect(r.tiers!.rows.every((row) => row.tier === "active" && row.verdict === "included")).toBe(true);
      expect(r.window!.row).not.toBeNull();
      expect(r.contextBudget).toBeNull();
      expect(r.history.rules).toBe(r.format);
      expect(r.problems).toEqual([]);
    },
  );

  it("previews each part as its own blocks read, in the parts list and in every traced order alike", async () => {
    // The current user turn splits into its tool result and its input: two parts of one message.
    const r = await inspect(anthropicSplitTurn);
    const parts = r.parts!.parts;
    expect(parts.slice(-2).map((p) => [p.path, p.preview])).toEqual([
      ["messages[2].content[0]", "→ 4°C"],
      ["messages[2].content[1]", "And tomorrow?"],
    ]);
    const byPart = new Map(parts.map((p) => [p.index, p.preview]));
    for (const order of [r.assembly!.asSent!, r.assembly!.legacy!, r.assembly!.cache_aware!])
      for (const m of order.messages) expect(m.preview).toBe(byPart.get(m.part!));
  });

  it("evicts under a header cap with the assembly's rules, and the trimmed request parses back", async () => {
    // A cap just under the request without its oldest history message: that one goes, then the next
    // (a tool call and its result go together).
    const whole = await inspect(anthropicWire);
    const first = whole.parts!.parts.find((p) => p.source === "history:1")!;
    const cap = whole.tokens!.total - first.tokens - 1;
    const r = await inspect(anthropicWire, { contextBudget: { maxInputTokens: cap } });
    const cb = r.contextBudget!;
    expect(cb.maxInputTokens).toBe(cap);
    expect(cb.usedTokens).toBeLessThanOrEqual(cap);
    expect(cb.omitted.map((d) => [d.id, d.path, d.kind])).toEqual([
      ["history:1", "messages[1]", "history"],
      ["history:2", "messages[2]", "history"],
    ]);
    expect(cb.omitted[1]!.reason).toMatch(/dropping history:2 \+ history:3 \(\d+ tokens\) leaves \d+$/);
    expect(r.dropped).toEqual(cb.omitted);
    const trimmed = requestFromParts(
      r.request!,
      r.parts!.parts,
      partsAsSent(r.parts!.parts).filter((k) => !cb.omittedParts.includes(k)),
    );
    const back = parseRequest(toAnthropic(trimmed).body);
    expect(back.format).toBe("anthropic");
    expect((await inspect(toAnthropic(trimmed).body)).history.issues).toEqual([]);
  });

  it("reports a cap below the protected parts as a budget problem", async () => {
    const r = await inspect(anthropicWire, { contextBudget: { maxInputBytes: 10 } });
    expect(r.contextBudget).toBeNull();
    expect(r.problems).toEqual([
      expect.objectContaining({ stage: "budget", code: "context_budget_exceeded", severity: "error" }),
    ]);
  });

  it("says how much of the model's window the request uses, with the output reserved", async () => {
    const r = await inspect(conversationTurns[0]);
    expect(r.window).toMatchObject({ maxOutputTokens: 1024, maxOutputField: "max_tokens", outputCounts: true });
    expect(r.window!.usedTokens).toBe(r.window!.inputTokens + 1024);
    expect(r.window!.inputTokens).toBe(r.tokens!.total);
    const pct = Math.round(((r.tokens!.total + 1024) / 200_000) * 100);
    expect(r.window!.summary).toBe(
      `uses ${pct}% of claude-sonnet-4-5's 200,000-token window, with max_tokens 1,024 reserved`,
    );
    expect(r.window!.row!.sources.length).toBeGreaterThan(0);
  });

  it("makes a request over its model's window a problem", async () => {
    const big = { ...anthropicWire, max_tokens: 199_990 };
    const r = await inspect(big);
    expect(r.problems).toEqual([expect.objectContaining({ stage: "budget", code: "context_window_exceeded" })]);
  });

  it("names the nearest rows for an unknown model, and asks for a model when there is none", async () => {
    const unknown = await inspect({ ...anthropicWire, model: "claude-sonnet-4-9" });
    expect(unknown.window!.row).toBeNull();
    expect(unknown.window!.nearest.length).toBeGreaterThan(0);
    expect(unknown.window!.summary).toMatch(/^claude-sonnet-4-9 is not in the model table; nearest: /);
    const { model: _m, ...gemini } = samples.find((s) => s.id === "gemini")!.data as Record<string, unknown>;
    const none = await inspect(gemini);
    expect(none.model).toBe("");
    expect(none.problems).toEqual([expect.objectContaining({ code: "missing_model", severity: "warning" })]);
  });

  it("gates the system prompt's sections with the tiers given, and exports the composed prompt", async () => {
    const data = conversationTurns[0] as Record<string, unknown>;
    const tiers = { p1: "core", privacy: "core", escalation: "informational" } as const;
    const r = await inspect(data, { tiers, tierBudget: 1500 });
    expect(r.tiers!.rows.map((row) => [row.id, row.tier, row.verdict])).toContainEqual(["privacy", "core", "included"]);
    expect(r.tiers!.rows.find((row) => row.id === "escalation")).toMatchObject({
      verdict: "dropped",
      title: "Escalation",
    });
    expect(r.dropped.filter((d) => d.stage === "tiers").map((d) => d.path)).toContain("messages[0].content[0]");
    const composed = composeInstructions(r.request!, r.parts!.parts, tiers, 1500)!;
    expect(composed.composed.length).toBe(r.tiers!.composedChars);
    const back = parseRequest(toAnthropic(composed.request).body);
    expect((back.request as NormalizedRequest).messages[0]!.content).toEqual([
      { type: "text", text: composed.composed, cache: { type: "ephemeral" } },
    ]);
  });

  it("flags volatile literals in the system prompt and confirms with the previous turn which changed", async () => {
    const r = await inspect(conversationTurns[2], { previous: conversationTurns[1] });
    expect(r.volatileLiterals!.findings.map((f) => [f.kind, f.value, f.changed])).toEqual([
      ["date", "3 Dec 2026", false],
      ["iso_timestamp", "2026-11-29 09:21", true],
    ]);
    expect(r.volatileLiterals!.scanned).toContain("tools[0].description");
    expect(r.volatileLiterals!.scanned).not.toContain("messages[1].content[0]");
  });

  it("says why a request with a block of unknown type cannot be re-laid", async () => {
    const request = {
      model: { provider: "anthropic", model: "claude-sonnet-4-5" },
      tools: [],
      messages: [
        { role: "user", content: [{ type: "text", text: "Hi" }] },
        { role: "assistant", content: [{ type: "opaque" }] },
        { role: "user", content: [{ type: "text", text: "Again" }] },
      ],
    } as unknown as NormalizedRequest;
    const parts = requestParts(request, segmentWith(request, "anthropic", estimateTextTokens));
    expect(relayBlocker(parts)).toContain("messages[1]");
  });
});

describe("inspect counts tokens as the provider bills them", () => {
  it("gives every figure from countRequestTokens, with its method and band", async () => {
    const r = await inspect(anthropicWire);
    const request = parseRequest(anthropicWire).request as NormalizedRequest;
    const count = countRequestTokens(request, { provider: "anthropic" });
    expect(r.tokens).toEqual({
      counter: "countRequestTokens",
      method: "estimate",
      total: count.total,
      low: count.low,
      high: count.high,
      band: Math.round((Math.max(count.total - count.low, count.high - count.total) / count.total) * 1000) / 1000,
      format: "anthropic",
      encoding: null,
      notes: [],
    });
    expect(r.segments!.totalTokens).toBe(count.total);
    expect(r.parts!.parts.reduce((n, p) => n + p.tokens, 0)).toBe(count.total);
    expect(r.fingerprints!.total.tokens).toBe(count.total);
    expect(r.cache!.assumptions.join(" ")).toContain("countRequestTokens");
  });

  it("is exact for OpenAI with the tokenizer, and the simulation says so", async () => {
    // Text only: tool definitions and calls have fitted framing, an image by URL an unknown size.
    const openai = {
      model: "gpt-4o",
      messages: [
        { role: "developer", content: "You are the support assistant for Northwind Outfitters." },
        { role: "user", content: "Where is my order A-10293?" },
        { role: "assistant", content: "It shipped with UPS and should arrive on December 2." },
        { role: "user", content: "Can I still change the delivery address?" },
      ],
    };
    const tokenizer = await createOpenAITokenizer("gpt-4o");
    const r = await inspect(openai, { tokenizer });
    const request = parseRequest(openai).request as NormalizedRequest;
    const count = countRequestTokens(request, { provider: "openai", tokenizer });
    expect(count.method).toBe("exact");
    expect(r.tokens).toMatchObject({
      method: "exact",
      total: count.total,
      low: count.total,
      high: count.total,
      band: 0,
    });
    expect(r.tokens!.encoding).toBe(tokenizer.encoding);
    expect(r.cache!.turns[0]!.totalTokens).toBe(count.total);
    expect(r.cache!.assumptions.join(" ")).toContain("exact");
    // Without it, the same request is a calibrated estimate with a band around it.
    const estimated = await inspect(openai);
    expect(estimated.tokens!.method).toBe("estimate");
    expect(estimated.tokens!.low!).toBeLessThan(estimated.tokens!.high!);
  });

  it("evicts an image by its real cost, not its base64 length", async () => {
    // A 1,000 × 1,000 PNG whose base64 is 300,000 characters long: Anthropic bills about 1,334 tokens.
    const png = pngBase64(1000, 1000) + "A".repeat(300_000);
    const wire = {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
            { type: "text", text: "What is in this chart?" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "A rising line." }] },
        { role: "user", content: [{ type: "text", text: "And the trend after March?" }] },
      ],
    };
    const whole = await inspect(wire);
    const image = whole.parts!.parts.find((p) => p.path === "messages[0]")!;
    expect(image.tokens).toBeGreaterThan(1300);
    expect(image.tokens).toBeLessThan(1500);
    // A 5,000-token cap keeps everything; counted ÷4 the image alone would be 75,000 tokens.
    const kept = await inspect(wire, { contextBudget: { maxInputTokens: 5000 } });
    expect(kept.contextBudget!.omitted).toEqual([]);
    const quarter = await inspect(wire, {
      contextBudget: { maxInputTokens: 5000 },
      tokenEstimator: estimateTextTokens,
    });
    expect(quarter.contextBudget!.omitted.map((o) => o.path)).toContain("messages[0]");
  });
});

describe("inspect with the provider's response: predicted vs actual", () => {
  const request = anthropicWire;
  const responseOf = (usage: Record<string, number>) => ({
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [{ type: "text", text: "Done." }],
    stop_reason: "end_turn",
    usage,
  });

  it("reads the usage from the JSON body, its text, or the usage object alone, and gives the difference", async () => {
    const usage = { input_tokens: 700, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 12 };
    const forms = [responseOf(usage), JSON.stringify(responseOf(usage)), usage];
    const reports = await Promise.all(forms.map((response) => inspect(request, { response })));
    for (const r of reports) expect(r.usage).toEqual(reports[0]!.usage);
    const u = reports[0]!.usage!;
    expect(u.format).toBe("anthropic");
    expect(u.actual).toEqual({ input: 700, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 12 });
    expect(u.predicted.input).toBe(reports[0]!.tokens!.total);
    expect(u.difference!.input).toBe(700 - u.predicted.input);
    expect(u.difference!.inputPct).toBe(Math.round(((700 - u.predicted.input) / 700) * 1000) / 10);
    expect(u.withinBand).toBe(700 >= u.predicted.low! && 700 <= u.predicted.high!);
    expect(reports[0]!.problems).toEqual([]);
  });

  it("reads an SSE stream, and notes a cache read the cold prediction could not see", async () => {
    const events = [
      {
        type: "message_start",
        message: { usage: { input_tokens: 20, cache_read_input_tokens: 640, output_tokens: 1 } },
      },
      { type: "message_delta", usage: { output_tokens: 30 } },
    ];
    const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
    const r = await inspect(request, { response: sse });
    expect(r.usage!.actual).toMatchObject({ input: 660, cacheRead: 640, output: 30 });
    expect(r.usage!.predicted.cacheRead).toBe(0);
    expect(r.usage!.difference!.cacheRead).toBe(640);
    expect(r.usage!.notes.join(" ")).toContain("cold cache");
  });

  it("says when the response holds no usage, and keeps the rest of the report", async () => {
    const r = await inspect(request, { response: { error: { type: "overloaded_error" } } });
    expect(r.usage).toMatchObject({ actual: null, difference: null, withinBand: null });
    expect(r.problems).toEqual([
      expect.objectContaining({ stage: "usage", code: "usage_not_found", path: "response" }),
    ]);
    expect(r.segments).not.toBeNull();
    const bad = await inspect(request, { response: 42 });
    expect(bad.usage).toBeNull();
    expect(bad.problems).toEqual([expect.objectContaining({ stage: "usage", path: "response" })]);
  });

  it("reads an OpenAI Chat response, cached tokens included", async () => {
    const openai = samples.find((s) => s.id === "openai-chat")!.data;
    const response = {
      usage: { prompt_tokens: 2200, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1024 } },
    };
    const r = await inspect(openai, { response });
    expect(r.usage!.format).toBe("openai-chat");
    expect(r.usage!.actual).toMatchObject({ input: 2200, cacheRead: 1024 });
    expect(r.usage!.difference!.cacheRead).toBe(1024 - r.usage!.predicted.cacheRead);
  });
});

describe("inspect loads the counter's media rules only when a request needs them", () => {
  const text = { role: "user", content: [{ type: "text", text: "Summarize the attached chart." }] };
  const withImage = {
    role: "user",
    content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64(800, 600) } }],
  };
  const wire = (messages: unknown[]) => ({ model: "claude-sonnet-4-5", max_tokens: 100, messages });

  it("counts a previous turn with an image against a text-only current turn, as countRequestTokens does", async () => {
    const previous = wire([withImage]);
    const current = wire([withImage, { role: "assistant", content: "A bar chart." }, text]);
    const r = await inspect(wire([text]), { previous });
    expect(r.prefix).not.toBeNull();
    const both = await inspect(current, { previous });
    const count = countRequestTokens(parseRequest(current).request as NormalizedRequest, { provider: "anthropic" });
    expect(both.tokens!.total).toBe(count.total);
    expect(both.segments!.segments.find((s) => s.path === "messages[0].content[0]")!.tokens).toBe(
      count.perSegment.find((s) => s.path === "messages[0].content[0]")!.tokens,
    );
  });
});

describe("inspect with a previous turn counts the current turn as it counts it alone", () => {
  // The previous turn is segmented first and the current one goes on from its count when it only
  // appends: every figure of the current turn must be the one a fresh count gives.
  const current = (r: Awaited<ReturnType<typeof inspect>>) => ({
    tokens: r.tokens,
    segments: r.segments,
    parts: r.parts,
    window: r.window,
    fingerprints: r.fingerprints,
  });
  const cases: [string, string, string][] = [
    ["turn 2 after turn 1", text(conversationTurns[1]), text(conversationTurns[0])],
    ["turn 4 after turn 3", text(conversationTurns[3]), text(conversationTurns[2])],
    ["turn 3 after turn 4 (a shorter request)", text(conversationTurns[2]), text(conversationTurns[3])],
  ];
  for (const s of samples) {
    const v = s.data as Record<string, unknown>;
    const key = ["messages", "contents", "input"].find((k) => Array.isArray(v[k]) && (v[k] as unknown[]).length > 1);
    if (key === undefined) continue;
    const list = v[key] as unknown[];
    cases.push([`${s.id}: appends to itself without its last item`, text(v), text({ ...v, [key]: list.slice(0, -1) })]);
    cases.push([`${s.id}: one item appended`, text({ ...v, [key]: [...list, list[0]] }), text(v)]);
  }

  it.each(cases)("%s", async (_name, next, previous) => {
    for (const options of [{}, { tokenEstimator: estimateTextTokens }]) {
      const alone = await inspect(next, options);
      const withPrevious = await inspect(next, { ...options, previous });
      expect(withPrevious.settings.previous).toBe("request");
      expect(current(withPrevious)).toEqual(current(alone));
    }
  });

  it.each(cases)("%s: the previous text reads as its parsed value", async (_name, next, previous) => {
    // A previous text written like the current one without its newest items is not parsed but cut
    // from the current one (`cutArrayValue`); as a value it is parsed as given. Same report.
    for (const compact of [false, true]) {
      const [n, p] = compact
        ? [JSON.stringify(JSON.parse(next)), JSON.stringify(JSON.parse(previous))]
        : [next, previous];
      expect(await inspect(n, { previous: p })).toEqual(await inspect(n, { previous: JSON.parse(p) }));
    }
  });

  it("with OpenAI's tokenizer", async () => {
    const tokenizer = await createOpenAITokenizer("gpt-4o");
    const [next, previous] = [text(conversationTurns[1]), text(conversationTurns[0])];
    const alone = await inspect(next, { provider: "openai", tokenizer });
    const withPrevious = await inspect(next, { provider: "openai", tokenizer, previous });
    expect(current(withPrevious)).toEqual(current(alone));
  });
});
