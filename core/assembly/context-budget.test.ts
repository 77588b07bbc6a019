import { describe, expect, it } from "vitest";
import { ContextBudgetError } from "./errors.ts";
import { InvalidInputError } from "../util/errors.ts";
import { systemMessage, toolCallBlock, toolResultMessage, userMessage } from "../messages/index.ts";
import type { Message } from "../messages/index.ts";
import type { PromptSource, SourcedMessage } from "./sources.ts";
import {
  CONTEXT_BUDGET_REPORT_METADATA_KEY,
  applyContextBudget,
  getContextBudgetReport,
  resolveContextBudget,
} from "./context-budget.ts";
import type { ContextBudget } from "./context-types.ts";

/** A message of exactly `n` ASCII characters (n/4 tokens by default when n is a multiple of 4). */
const sized = (n: number, role: Message["role"] = "user"): Message => ({
  role,
  content: [{ type: "text", text: "x".repeat(n) }],
});
const item = (source: PromptSource, n = 8, role: Message["role"] = "user"): SourcedMessage => ({
  message: sized(n, role),
  source,
});
const keptSources = (items: readonly SourcedMessage[]) => items.map((i) => i.source);

describe("resolveContextBudget", () => {
  it("needs at least one cap", () => {
    expect(() => resolveContextBudget({})).toThrow(InvalidInputError);
    expect(() => resolveContextBudget({ reportOmissions: true })).toThrow(/^contextBudget: /);
  });

  it.each<[ContextBudget, string]>([
    [{ maxInputTokens: 0 }, "contextBudget.maxInputTokens"],
    [{ maxInputTokens: 1.5 }, "contextBudget.maxInputTokens"],
    [{ maxInputBytes: -1 }, "contextBudget.maxInputBytes"],
    [{ maxInputBytes: Number.POSITIVE_INFINITY }, "contextBudget.maxInputBytes"],
    [{ maxInputBytes: "10" as never }, "contextBudget.maxInputBytes"],
  ])("rejects %j naming %s", (budget, field) => {
    expect(() => resolveContextBudget(budget)).toThrow(expect.objectContaining({ field }));
  });

  it.each<[string, unknown]>([
    ["a string", "tiktoken"],
    ["an object", { count: () => 1 }],
  ])("rejects a tokenEstimator that is %s with TypeError", (_, tokenEstimator) => {
    expect(() => resolveContextBudget({ maxInputTokens: 10, tokenEstimator: tokenEstimator as never })).toThrow(
      TypeError,
    );
  });

  it.each<[string, unknown]>([
    ["negative", -1],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a string", "3"],
    ["undefined", undefined],
  ])("fails closed with TypeError when the estimator returns %s", (_, value) => {
    const budget = { maxInputTokens: 100, tokenEstimator: () => value as number };
    expect(() => applyContextBudget({ items: [item("input")], budget })).toThrow(TypeError);
  });

  it("defaults reportOmissions to false", () => {
    expect(resolveContextBudget({ maxInputBytes: 5 }).reportOmissions).toBe(false);
  });
});

describe("applyContextBudget eviction order", () => {
  // Every evictable kind, 8 chars = 2 tokens each; protected parts 2 tokens each.
  const everything: SourcedMessage[] = [
    item("instructions", 8, "system"),
    item("context:c1", 8, "system"),
    item("skill:s1", 8, "system"),
    item("tools", 8, "system"),
    item("attachment:a1"),
    item("summary", 8, "system"),
    item("history:0"),
    item("history:1"),
    item("toolResult:t1", 8, "tool"),
    item("input"),
  ];
  // Total 20 tokens, protected 6. Each cap below drops one more item.
  it.each<[number, string[]]>([
    [20, []],
    [18, ["toolResult:t1"]],
    [16, ["toolResult:t1", "history:0"]],
    [14, ["toolResult:t1", "history:0", "history:1"]],
    [12, ["toolResult:t1", "history:0", "history:1", "summary"]],
    [10, ["toolResult:t1", "history:0", "history:1", "summary", "context:c1"]],
    [8, ["toolResult:t1", "history:0", "history:1", "summary", "context:c1", "skill:s1"]],
    [6, ["toolResult:t1", "history:0", "history:1", "summary", "context:c1", "skill:s1", "attachment:a1"]],
  ])("maxInputTokens %i omits %j", (cap, omitted) => {
    const result = applyContextBudget({ items: everything, budget: { maxInputTokens: cap } });
    expect(result.report.omitted.map((o) => o.source)).toEqual(omitted);
    expect(keptSources(result.items)).toEqual(keptSources(everything).filter((s) => !omitted.includes(s)));
    expect(result.report.keptTokens).toBeLessThanOrEqual(cap);
  });

  it("throws ContextBudgetError saying by how much when protected parts alone exceed the cap", () => {
    let error: unknown;
    try {
      applyContextBudget({ items: everything, budget: { maxInputTokens: 5 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContextBudgetError);
    expect(error).toMatchObject({
      limit: "maxInputTokens",
      cap: 5,
      required: 6,
      overBy: 1,
      code: "context_budget_exceeded",
    });
    expect((error as Error).message).toContain("instructions 2, current input 2, tool catalog 2");
  });

  it("counts native tool schemas as protected", () => {
    const tools = [{ name: "lookup", description: "x".repeat(100) }];
    expect(() =>
      applyContextBudget({ items: [item("input")], budget: { maxInputBytes: 50 }, toolSchemas: tools }),
    ).toThrow(ContextBudgetError);
    const report = applyContextBudget({
      items: [item("input")],
      budget: { maxInputBytes: 500 },
      toolSchemas: tools,
    }).report;
    expect(report.protectedBytes).toBe(8 + JSON.stringify(tools).length);
  });

  it("drops the newest item first within context, skills and attachments, and tail segments with their kind", () => {
    const items = [
      item("input"),
      item("context:a"),
      item("context:b"),
      item("skill:x"),
      item("tail:skill:x"),
      item("attachment:f"),
      item("tail:resource:mem://r"),
    ];
    const result = applyContextBudget({ items, budget: { maxInputTokens: 2 } });
    expect(result.report.omitted.map((o) => o.source)).toEqual([
      "context:b",
      "context:a",
      "tail:skill:x",
      "skill:x",
      "tail:resource:mem://r",
      "attachment:f",
    ]);
  });

  it("drops summaries oldest first and reports a summary's own id", () => {
    const items = [
      { ...item("summary", 8, "system"), id: "s-old" },
      { ...item("summary", 8, "system"), id: "s-new" },
      item("input"),
    ];
    const result = applyContextBudget({ items, budget: { maxInputTokens: 4 } });
    expect(result.report.omitted.map((o) => o.id)).toEqual(["s-old"]);
  });

  it("never evicts custom messages", () => {
    expect(() =>
      applyContextBudget({ items: [item("custom", 40), item("history:0")], budget: { maxInputTokens: 5 } }),
    ).toThrow(/other kept messages 10/);
  });
});

describe("tool exchanges are evicted whole", () => {
  const call = (id: string, ...more: string[]): Message => ({
    role: "assistant",
    content: [toolCallBlock(id, "t"), ...more.map((m) => toolCallBlock(m, "t"))],
  });
  const history: SourcedMessage[] = [
    { message: userMessage("q1"), source: "history:0" },
    { message: call("a", "b"), source: "history:1" },
    { message: toolResultMessage("a", "t", "ra"), source: "history:2" },
    { message: toolResultMessage("b", "t", "rb"), source: "history:3" },
    { message: userMessage("q2"), source: "history:4" },
    { message: call("c"), source: "history:5" },
  ];
  const current: SourcedMessage[] = [
    { message: toolResultMessage("c", "t", "x".repeat(40)), source: "toolResult:c" },
    { message: userMessage("now"), source: "input" },
  ];

  it("drops an assistant tool_call together with all its results", () => {
    // Sizes in tokens: q1 1, a/b call 3 + results 1 + 1, q2 1, c call 2 + result 10, now 1 (total 20).
    const result = applyContextBudget({ items: [...history, ...current], budget: { maxInputTokens: 2 } });
    const omitted = result.report.omitted;
    expect(omitted[0]).toMatchObject({
      kind: "tool_results",
      source: "toolResult:c",
      sources: ["history:5", "toolResult:c"],
    });
    expect(omitted.slice(1).map((o) => o.sources)).toEqual([["history:0"], ["history:1", "history:2", "history:3"]]);
    expect(keptSources(result.items)).toEqual(["history:4", "input"]);
  });

  it("keeps a history call whose result is part of the protected input", () => {
    const input: SourcedMessage = { message: toolResultMessage("c", "t", "r"), source: "input" };
    const result = applyContextBudget({ items: [...history, input], budget: { maxInputTokens: 9 } });
    expect(keptSources(result.items)).toContain("history:5");
    expect(result.report.protectedTokens).toBeGreaterThan(1);
  });
});

describe("byte caps", () => {
  it("are enforced whatever the token estimator says", () => {
    const items = [
      item("input", 10),
      { message: userMessage("é".repeat(50)), source: "history:0" } satisfies SourcedMessage,
    ];
    const result = applyContextBudget({
      items,
      budget: { maxInputBytes: 50, maxInputTokens: 1_000_000, tokenEstimator: () => 0 },
    });
    expect(result.report.omitted).toMatchObject([
      { source: "history:0", bytes: 100, bytesBefore: 110, tokens: 0, exceeded: ["maxInputBytes"] },
    ]);
    expect(result.report.keptBytes).toBe(10);
  });

  it("report which caps were exceeded when both are", () => {
    const result = applyContextBudget({
      items: [item("input", 4), item("history:0", 40)],
      budget: { maxInputBytes: 10, maxInputTokens: 2 },
    });
    expect(result.report.omitted[0]!.exceeded).toEqual(["maxInputTokens", "maxInputBytes"]);
  });
});

describe("the report", () => {
  const secret = "sk-live-SECRET";
  const result = applyContextBudget({
    items: [
      item("instructions", 4, "system"),
      { message: userMessage(`token ${secret}`), source: "history:0" },
      item("input", 4),
    ],
    budget: { maxInputTokens: 3, reportOmissions: true },
  });

  it("holds kinds, ids, sizes and the arithmetic, never content", () => {
    expect(result.report).toEqual({
      maxInputTokens: 3,
      tokensBefore: 7,
      bytesBefore: 28,
      protectedTokens: 2,
      protectedBytes: 8,
      keptTokens: 2,
      keptBytes: 8,
      truncated: true,
      omitted: [
        {
          kind: "history",
          source: "history:0",
          sources: ["history:0"],
          tokens: 5,
          bytes: 20,
          tokensBefore: 7,
          bytesBefore: 28,
          exceeded: ["maxInputTokens"],
        },
      ],
    });
    expect(JSON.stringify(result.report)).not.toContain(secret);
  });

  it("is read back from request metadata by getContextBudgetReport", () => {
    expect(getContextBudgetReport({ metadata: { [CONTEXT_BUDGET_REPORT_METADATA_KEY]: result.report } })).toEqual(
      result.report,
    );
    expect(getContextBudgetReport({ metadata: { [CONTEXT_BUDGET_REPORT_METADATA_KEY]: "nope" } })).toBeUndefined();
    expect(getContextBudgetReport({})).toBeUndefined();
  });

  it("keeps messages as the same objects, in order", () => {
    expect(result.messages).toEqual([systemMessage("xxxx"), userMessage("xxxx")]);
  });
});
