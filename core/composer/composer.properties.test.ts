import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { composeBudgetedPrompt } from "./composer.ts";
import { explainBudgetedPrompt } from "./composer-explain.ts";
import type { BudgetedSection, BudgetedSectionInput, PromptTier } from "./tier-gate-types.ts";

const RUNS = { numRuns: 200 } as const;

const tier = fc.constantFrom<PromptTier>("core", "active", "informational");

/** Candidates with unique ids; about half carry an explicit `chars`, the rest default to content.length. */
const candidates = fc
  .array(
    fc.record({
      tier,
      content: fc.string({ maxLength: 40, unit: "grapheme" }),
      chars: fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
    }),
    { maxLength: 25 },
  )
  .map((list): BudgetedSectionInput[] =>
    list.map(({ tier, content, chars }, i) =>
      chars === undefined ? { id: `s${i}`, tier, content } : { id: `s${i}`, tier, content, chars },
    ),
  );

const finiteBudget = fc.integer({ min: 0, max: 1500 });
const budget = fc.oneof(finiteBudget, fc.constant(Number.POSITIVE_INFINITY));
const fraction = fc.oneof(fc.constantFrom(0, 0.5, 0.7, 0.95, 1), fc.double({ min: 0, max: 1, noNaN: true }));

const charsOf = (section: BudgetedSectionInput) => section.chars ?? section.content.length;

/** The spec's algorithm, written out independently: used as a reference model when the core fits. */
function specModel(list: readonly BudgetedSectionInput[], budgetValue: number, f: number): string[] {
  const coreChars = list.filter((x) => x.tier === "core").reduce((sum, x) => sum + charsOf(x), 0);
  const ceiling = budgetValue === Infinity ? Infinity : coreChars + Math.floor((budgetValue - coreChars) * f);
  let total = 0;
  const kept: string[] = [];
  for (const x of list) {
    const chars = charsOf(x);
    const ok = x.tier === "core" || (x.tier === "active" ? total + chars <= ceiling : total + chars <= budgetValue);
    if (ok) {
      kept.push(x.id);
      total += chars;
    }
  }
  return kept;
}

describe("composeBudgetedPrompt properties", () => {
  it("gives byte-identical output for identical input (and for a deep copy of it)", () => {
    fc.assert(
      fc.property(candidates, budget, fraction, (list, b, f) => {
        const config = { depth: 0, totalBudget: b, activeBudgetFraction: f };
        const first = composeBudgetedPrompt(list, config);
        const second = composeBudgetedPrompt(structuredClone(list), { ...config });
        expect(second.composed).toBe(first.composed);
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      }),
      { ...RUNS, seed: 301 },
    );
  });

  it("never drops a core section", () => {
    fc.assert(
      fc.property(candidates, budget, fraction, (list, b, f) => {
        const result = composeBudgetedPrompt(list, { depth: 0, totalBudget: b, activeBudgetFraction: f });
        const kept = new Set(result.included.map((x) => x.id));
        for (const x of list) if (x.tier === "core") expect(kept.has(x.id)).toBe(true);
      }),
      { ...RUNS, seed: 302 },
    );
  });

  it("with a finite budget, never lets included non-core chars exceed the budget", () => {
    fc.assert(
      fc.property(candidates, finiteBudget, fraction, (list, b, f) => {
        const result = composeBudgetedPrompt(list, { depth: 0, totalBudget: b, activeBudgetFraction: f });
        const nonCore = result.included.filter((x) => x.tier !== "core").reduce((sum, x) => sum + x.chars, 0);
        expect(nonCore).toBeLessThanOrEqual(b);
      }),
      { ...RUNS, seed: 303 },
    );
  });

  it("with core sections first and a core that fits, never exceeds the budget at all", () => {
    fc.assert(
      fc.property(candidates, finiteBudget, fraction, (list, b, f) => {
        const ordered = [...list.filter((x) => x.tier === "core"), ...list.filter((x) => x.tier !== "core")];
        const result = composeBudgetedPrompt(ordered, { depth: 0, totalBudget: b, activeBudgetFraction: f });
        if (result.coreChars <= b) expect(result.totalChars).toBeLessThanOrEqual(b);
        else expect(result.included.every((x) => x.tier === "core" || x.chars === 0)).toBe(true);
      }),
      { ...RUNS, seed: 304 },
    );
  });

  it("is monotone in the budget: a larger budget keeps every section a smaller one kept before its first drop", () => {
    fc.assert(
      fc.property(candidates, finiteBudget, fc.integer({ min: 0, max: 1500 }), fraction, (list, small, extra, f) => {
        const a = composeBudgetedPrompt(list, { depth: 0, totalBudget: small, activeBudgetFraction: f });
        const b = composeBudgetedPrompt(list, { depth: 0, totalBudget: small + extra, activeBudgetFraction: f });
        const firstDrop = list.findIndex((x) => x.id === a.dropped[0]);
        const prefix = firstDrop === -1 ? list : list.slice(0, firstDrop);
        const keptByLarger = new Set(b.included.map((x) => x.id));
        for (const x of prefix) expect(keptByLarger.has(x.id)).toBe(true);
        // Consequences: keeping everything stays true, and the first drop never moves earlier.
        if (a.dropped.length === 0) expect(b.dropped).toEqual([]);
      }),
      { ...RUNS, seed: 305 },
    );
  });

  it("matches the spec's algorithm written out independently whenever the core fits the budget", () => {
    fc.assert(
      fc.property(candidates, budget, fraction, (list, b, f) => {
        const result = composeBudgetedPrompt(list, { depth: 0, totalBudget: b, activeBudgetFraction: f });
        fc.pre(result.coreChars <= b);
        expect(result.included.map((x) => x.id)).toEqual(specModel(list, b, f));
      }),
      { ...RUNS, seed: 306 },
    );
  });

  it("partitions the candidates into included and dropped, both in candidate order", () => {
    fc.assert(
      fc.property(candidates, budget, fraction, (list, b, f) => {
        const result = composeBudgetedPrompt(list, { depth: 0, totalBudget: b, activeBudgetFraction: f });
        const kept = new Set(result.included.map((x) => x.id));
        expect(result.included.map((x) => x.id)).toEqual(list.filter((x) => kept.has(x.id)).map((x) => x.id));
        expect(result.dropped).toEqual(list.filter((x) => !kept.has(x.id)).map((x) => x.id));
        expect(result.totalChars).toBe(result.included.reduce((sum, x) => sum + x.chars, 0));
        expect(result.totalTokensEst).toBe(Math.ceil(result.totalChars / 4));
        expect(result.composed).toBe(result.included.map((x) => x.content).join("\n\n"));
      }),
      { ...RUNS, seed: 307 },
    );
  });

  it("agrees with explainBudgetedPrompt on every verdict and running total", () => {
    fc.assert(
      fc.property(candidates, budget, fraction, (list, b, f) => {
        const config = { depth: 0, totalBudget: b, activeBudgetFraction: f };
        const result = composeBudgetedPrompt(list, config);
        const rows = explainBudgetedPrompt(list, config);
        expect(rows.filter((r) => r.verdict === "included").map((r) => r.id)).toEqual(result.included.map((x) => x.id));
        expect(rows.filter((r) => r.verdict === "dropped").map((r) => r.id)).toEqual(result.dropped);
        expect(rows.at(-1)?.totalAfter ?? 0).toBe(result.totalChars);
      }),
      { ...RUNS, seed: 308 },
    );
  });
});

describe("what the tier gate does not promise", () => {
  it("is not fully monotone: one pass in caller order can drop, under a larger budget, a section a smaller budget kept", () => {
    const list: BudgetedSection[] = [
      { id: "big", tier: "informational", content: "x".repeat(60), chars: 60 },
      { id: "small", tier: "informational", content: "y".repeat(50), chars: 50 },
    ];
    expect(composeBudgetedPrompt(list, { depth: 0, totalBudget: 55 }).included.map((x) => x.id)).toEqual(["small"]);
    expect(composeBudgetedPrompt(list, { depth: 0, totalBudget: 100 }).included.map((x) => x.id)).toEqual(["big"]);
  });

  it("counts only sections already seen: a core section placed last can push the total over the budget", () => {
    const list: BudgetedSection[] = [
      { id: "act", tier: "active", content: "a".repeat(90), chars: 90 },
      { id: "core", tier: "core", content: "c".repeat(50), chars: 50 },
    ];
    const result = composeBudgetedPrompt(list, { depth: 0, totalBudget: 100 });
    expect(result.included.map((x) => x.id)).toEqual(["act", "core"]);
    expect(result.overflowed).toBe(true);
    expect(result.overBudgetChars).toBe(40);
  });
});
