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
import { anthropicSample as anthropicWire } from "../test-support/samples-wire.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { composeInstructions } from "./wire-tiers.ts";
import { REPORT_VERSION } from "./types.ts";

const text = (v: unknown) => JSON.stringify(v, null, 2);

describe("inspect on the four-turn conversation", () => {
  it.each([
    [2, "appended", "messages[2]", [1899, 74, 0]],
    [3, "system_changed", "messages[0].content[0]", [1075, 973, 0]],
    [4, "tool_order_changed", "tools[3]", [0, 2125, 0]],
  ] as const)("turn %i against its previous turn: %s at %s", async (turn, cause, path, [read, write, uncached]) => {
    const report = await inspect(text(conversationTurns[turn - 1]), { previous: text(conversationTurns[turn - 2]) });
    expect(report.settings.previous).toBe("request");
    expect(report.prefix!.divergence).toMatchObject({ cause, path });
    const t = report.cache!.turns[1]!;
    expect([t.cachedReadTokens, t.cacheWriteTokens, t.uncachedTokens]).toEqual([read, write, uncached]);
    expect(report.problems).toEqual([]);
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
    expect(report.cache!.turns[1]!.cachedReadTokens).toBe(1075);
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

  it("evicts under a header cap with the assembly's rules, and the trimmed request parses back", async () => {
    const r = await inspect(anthropicWire, { contextBudget: { maxInputTokens: 200 } });
    const cb = r.contextBudget!;
    expect(cb.maxInputTokens).toBe(200);
    expect(cb.usedTokens).toBeLessThanOrEqual(200);
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
    expect(r.window!.summary).toBe(
      "uses 1% of claude-sonnet-4-5's 200,000-token window, with max_tokens 1,024 reserved",
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
