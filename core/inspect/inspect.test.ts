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
        "assembly",
        "tiers",
        "contextBudget",
        "dropped",
        "segments",
        "prefix",
        "cache",
        "breakpoints",
        "nextTurn",
        "history",
        "templates",
        "fingerprints",
        "problems",
      ]);
    },
  );

  it("is byte-identical for identical input (property)", async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        let body: string;
        try {
          body = JSON.stringify({ max_tokens: 100, ...toAnthropic(req) });
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
