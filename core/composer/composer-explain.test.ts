import { describe, expect, it } from "vitest";
import { explainBudgetedPrompt } from "./composer-explain.ts";
import { BudgetedSectionError } from "./tier-gate-errors.ts";
import type { BudgetedSection, PromptTier } from "./tier-gate-types.ts";

function s(id: string, tier: PromptTier, chars: number): BudgetedSection {
  return { id, tier, chars, content: "x".repeat(chars) };
}

describe("explainBudgetedPrompt", () => {
  it("gives one row per candidate with the limit, the numbers and the verdict", () => {
    const rows = explainBudgetedPrompt(
      [
        s("rules", "core", 20),
        s("tools", "active", 70),
        s("errors", "active", 10),
        s("docs", "informational", 10),
        s("faq", "informational", 1),
      ],
      { depth: 0, totalBudget: 100 },
    );
    const ceiling = { kind: "active_ceiling", value: 96, budget: 100, coreChars: 20, fraction: 0.95 };
    expect(rows).toEqual([
      {
        index: 0,
        id: "rules",
        tier: "core",
        chars: 20,
        totalBefore: 0,
        limit: { kind: "none" },
        verdict: "included",
        totalAfter: 20,
        reason: "core: always included",
      },
      {
        index: 1,
        id: "tools",
        tier: "active",
        chars: 70,
        totalBefore: 20,
        limit: ceiling,
        verdict: "included",
        totalAfter: 90,
        reason: "active: 20 + 70 = 90 <= active ceiling 96 = 20 + floor((100 - 20) * 0.95)",
      },
      {
        index: 2,
        id: "errors",
        tier: "active",
        chars: 10,
        totalBefore: 90,
        limit: ceiling,
        verdict: "dropped",
        totalAfter: 90,
        reason: "active: 90 + 10 = 100 > active ceiling 96 = 20 + floor((100 - 20) * 0.95)",
      },
      {
        index: 3,
        id: "docs",
        tier: "informational",
        chars: 10,
        totalBefore: 90,
        limit: { kind: "budget", value: 100 },
        verdict: "included",
        totalAfter: 100,
        reason: "informational: 90 + 10 = 100 <= budget 100",
      },
      {
        index: 4,
        id: "faq",
        tier: "informational",
        chars: 1,
        totalBefore: 100,
        limit: { kind: "budget", value: 100 },
        verdict: "dropped",
        totalAfter: 100,
        reason: "informational: 100 + 1 = 101 > budget 100",
      },
    ]);
  });

  it("explains a core overflow and the capped ceiling", () => {
    const rows = explainBudgetedPrompt([s("act", "active", 5), s("core", "core", 100)], { depth: 0, totalBudget: 80 });
    expect(rows.map((r) => r.reason)).toEqual([
      "active: 0 + 5 = 5 <= active ceiling 80 (100 + floor((80 - 100) * 0.95) capped at the budget, which the core alone exceeds)",
      "core: always included; the total is now 105, over the budget of 80 by 25",
    ]);
  });

  it("says when no budget is set", () => {
    const rows = explainBudgetedPrompt([s("a", "active", 5), s("b", "informational", 5)], { depth: 0 });
    expect(rows.map((r) => [r.verdict, r.reason])).toEqual([
      ["included", "active: included, no budget is set"],
      ["included", "informational: included, no budget is set"],
    ]);
  });

  it("is empty for no candidates", () => {
    expect(explainBudgetedPrompt([], { depth: 0, totalBudget: 10 })).toEqual([]);
  });

  it("rejects malformed candidates exactly like the composer", () => {
    expect(() => explainBudgetedPrompt([s("a", "core", 1), s("a", "core", 1)], { depth: 0 })).toThrow(
      BudgetedSectionError,
    );
  });
});
