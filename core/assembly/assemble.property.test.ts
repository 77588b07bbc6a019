import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageMeasureText } from "./context-measure.ts";
import type { ContextBudget } from "./context-types.ts";
import { ContextBudgetError } from "./errors.ts";
import { toolCallBlock, toolResultMessage } from "../messages/index.ts";
import type { Message, ToolDefinition } from "../messages/index.ts";
import type { AssembleProviderInputOptions } from "./types.ts";
import { assembleProviderInput, explainProviderInput } from "./assemble.ts";

/** A plain, serializable description of one assembly; `toOptions` builds fresh options from it. */
interface Scenario {
  readonly layout: "legacy" | "cache_aware";
  readonly instructions: string | undefined;
  readonly input: string;
  readonly history: readonly (
    | { kind: "user" | "assistant"; text: string }
    | { kind: "exchange"; calls: number; text: string }
  )[];
  /** Trailing assistant call whose results arrive as `toolResults`. */
  readonly pending: number;
  readonly summaries: readonly string[];
  readonly attachments: readonly string[];
  readonly context: readonly string[];
  readonly skills: readonly string[];
  readonly tools: number;
  readonly nativeTools: boolean;
  readonly budget: {
    readonly tokens?: number;
    readonly bytes?: number;
    readonly estimator: "default" | "words" | "thirds";
  };
}

const text = fc.string({ maxLength: 60, unit: fc.constantFrom("a", "b", " ", "é", "😀", "\n") });
const scenario: fc.Arbitrary<Scenario> = fc.record({
  layout: fc.constantFrom("legacy", "cache_aware"),
  instructions: fc.option(text, { nil: undefined }),
  input: text,
  history: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constantFrom("user", "assistant"), text }),
      fc.record({ kind: fc.constant("exchange"), calls: fc.integer({ min: 1, max: 3 }), text }),
    ),
    { maxLength: 14 },
  ),
  pending: fc.integer({ min: 0, max: 2 }),
  summaries: fc.array(text, { maxLength: 2 }),
  attachments: fc.array(text, { maxLength: 2 }),
  context: fc.array(text, { maxLength: 2 }),
  skills: fc.array(text, { maxLength: 2 }),
  tools: fc.integer({ min: 0, max: 2 }),
  nativeTools: fc.boolean(),
  budget: fc.oneof(
    fc.record({ tokens: fc.integer({ min: 1, max: 300 }), estimator: fc.constantFrom("default", "words", "thirds") }),
    fc.record({ bytes: fc.integer({ min: 1, max: 1200 }), estimator: fc.constantFrom("default", "words", "thirds") }),
    fc.record({
      tokens: fc.integer({ min: 1, max: 300 }),
      bytes: fc.integer({ min: 1, max: 1200 }),
      estimator: fc.constantFrom("default", "words", "thirds"),
    }),
  ),
}) as fc.Arbitrary<Scenario>;

const estimators = { words: (t: string) => t.split(" ").length, thirds: (t: string) => t.length / 3 } as const;

function toOptions(s: Scenario, withBudget: boolean): AssembleProviderInputOptions {
  const history: Message[] = [];
  let call = 0;
  for (const h of s.history) {
    if (h.kind !== "exchange") {
      history.push({ role: h.kind, content: [{ type: "text", text: h.text }] });
      continue;
    }
    const ids = Array.from({ length: h.calls }, () => `c${call++}`);
    history.push({
      role: "assistant",
      content: [{ type: "text", text: h.text }, ...ids.map((id) => toolCallBlock(id, "t", { q: h.text }))],
    });
    for (const id of ids) history.push(toolResultMessage(id, "t", h.text));
  }
  const pendingIds = Array.from({ length: s.pending }, () => `c${call++}`);
  if (pendingIds.length > 0)
    history.push({ role: "assistant", content: pendingIds.map((id) => toolCallBlock(id, "t")) });
  const tools: ToolDefinition[] = Array.from({ length: s.tools }, (_, i) => ({
    name: `tool${i}`,
    description: "does things",
  }));
  const budget: ContextBudget = {
    ...(s.budget.tokens === undefined ? {} : { maxInputTokens: s.budget.tokens }),
    ...(s.budget.bytes === undefined ? {} : { maxInputBytes: s.budget.bytes }),
    ...(s.budget.estimator === "default" ? {} : { tokenEstimator: estimators[s.budget.estimator] }),
  };
  return {
    model: { provider: "p", model: "m", capabilities: { tools: s.nativeTools } },
    input: s.input,
    inputLayout: s.layout,
    ...(s.instructions === undefined ? {} : { systemInstructions: s.instructions }),
    history,
    toolResults: pendingIds.map((id) => ({ toolCallId: id, name: "t", value: { id } })),
    summaries: [...s.summaries],
    attachments: s.attachments.map((t, i) => ({ name: `a${i}`, text: t })),
    contextProviders: [{ name: "ctx", resolve: () => s.context.map((t, i) => ({ id: `k${i}`, content: t })) }],
    skills: s.skills.map((t, i) => ({ name: `s${i}`, description: t })),
    tools,
    ...(withBudget ? { contextBudget: budget } : {}),
  };
}

const explain = async (s: Scenario, withBudget: boolean) => {
  try {
    return await explainProviderInput(toOptions(s, withBudget));
  } catch (error) {
    if (error instanceof ContextBudgetError) return error;
    throw error;
  }
};

const encoder = new TextEncoder();
const historyIndex = (source: string): number | undefined =>
  source.startsWith("history:") ? Number(source.slice(8)) : undefined;

describe("assembly properties", () => {
  it("gives byte-identical output for identical input (seed 1001)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, fc.boolean(), async (s, withBudget) => {
        const a = await explain(s, withBudget);
        const b = await explain(s, withBudget);
        if (a instanceof ContextBudgetError) expect(b).toEqual(a);
        else expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { seed: 1001, numRuns: 150 },
    );
  });

  it("keeps every protected part under any budget, or throws ContextBudgetError (seed 1002)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const full = await explain(s, false);
        const budgeted = await explain(s, true);
        if (full instanceof ContextBudgetError) throw full;
        if (budgeted instanceof ContextBudgetError) {
          expect(budgeted.required).toBeGreaterThan(budgeted.cap);
          return;
        }
        const isProtected = (source: string) => source === "instructions" || source === "input" || source === "tools";
        const protectedRows = (rows: typeof full.trace.rows) =>
          rows.filter((r) => isProtected(r.source)).map((r) => r.source);
        expect(protectedRows(budgeted.trace.rows)).toEqual(protectedRows(full.trace.rows));
        // The budgeted prompt is the full prompt with whole items removed, order unchanged.
        const fullJson = full.request.messages.map((m) => JSON.stringify(m));
        let at = 0;
        for (const m of budgeted.request.messages) {
          const json = JSON.stringify(m);
          while (at < fullJson.length && fullJson[at] !== json) at++;
          expect(at).toBeLessThan(fullJson.length);
          at++;
        }
      }),
      { seed: 1002, numRuns: 150 },
    );
  });

  it("keeps a suffix of history minus whole tool exchanges, never half of one (seed 1003)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const options = toOptions(s, true);
        const out = await explain(s, true);
        if (out instanceof ContextBudgetError) return;
        const history = options.history!;
        const kept = new Set(out.trace.rows.map((r) => historyIndex(r.source)).filter((i) => i !== undefined));
        const keptToolResults = new Set(
          out.trace.rows.filter((r) => r.source.startsWith("toolResult:")).map((r) => r.source.slice(11)),
        );
        // Reference exchanges: assistant index → the history indices of its results, and the call ids.
        const exchangeOf = new Map<number, number>();
        const callIndex = new Map<string, number>();
        history.forEach((m, i) => {
          for (const b of m.content) if (b.type === "tool_call") callIndex.set(b.id, i);
          for (const b of m.content) if (b.type === "tool_result") exchangeOf.set(i, callIndex.get(b.toolCallId)!);
        });
        // No orphans: a kept result's call is kept, and a kept call's results are all kept.
        for (const [resultAt, callAt] of exchangeOf) expect(kept.has(resultAt)).toBe(kept.has(callAt));
        for (const id of Object.keys(Object.fromEntries(callIndex))) {
          const fromToolResults = options.toolResults!.some((r) => r.toolCallId === id);
          if (fromToolResults) expect(keptToolResults.has(id)).toBe(kept.has(callIndex.get(id)!));
        }
        // Suffix minus whole exchanges: every dropped index after the first kept one is part of a fully dropped exchange.
        const start = Math.min(...kept, history.length);
        for (let i = start; i < history.length; i++) {
          if (kept.has(i)) continue;
          const lead = exchangeOf.get(i) ?? i;
          expect(history[lead]!.content.some((b) => b.type === "tool_call")).toBe(true);
          expect(kept.has(lead)).toBe(false);
        }
        expect([...kept].every((i) => i >= start)).toBe(true);
      }),
      { seed: 1003, numRuns: 200 },
    );
  });

  it("fits the caps, bytes counted independently with TextEncoder (seed 1004)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const out = await explain(s, true);
        if (out instanceof ContextBudgetError) return;
        const options = toOptions(s, true);
        const tools = s.nativeTools && s.tools > 0 ? encoder.encode(JSON.stringify(options.tools)).length : 0;
        const bytes = out.request.messages.reduce(
          (sum, m) => sum + encoder.encode(messageMeasureText(m)).length,
          tools,
        );
        expect(out.trace.totals.bytes).toBe(bytes);
        if (s.budget.bytes !== undefined) expect(bytes).toBeLessThanOrEqual(s.budget.bytes);
        if (s.budget.tokens !== undefined) expect(out.trace.totals.tokens).toBeLessThanOrEqual(s.budget.tokens + 1e-9);
      }),
      { seed: 1004, numRuns: 200 },
    );
  });
  it("assembles what the explained assembly sends, the host's history left as it was (seed 1005)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        // Without context providers the default pipeline labels by position and evicts in place.
        const { contextProviders, ...rest } = toOptions(s, true);
        const options = s.context.length === 0 ? rest : { ...rest, contextProviders: contextProviders! };
        const history = options.history!;
        const before = [...history];
        let explained: Awaited<ReturnType<typeof explainProviderInput>>;
        try {
          explained = await explainProviderInput(options);
        } catch (error) {
          if (!(error instanceof ContextBudgetError)) throw error;
          await expect(assembleProviderInput(options)).rejects.toEqual(error);
          return;
        }
        const assembled = await assembleProviderInput(options);
        expect(JSON.stringify(assembled)).toBe(JSON.stringify(explained.request));
        expect(assembled.messages).not.toBe(history);
        expect(history).toHaveLength(before.length);
        history.forEach((message, i) => expect(message).toBe(before[i]));
      }),
      { seed: 1005, numRuns: 200 },
    );
  });
});
