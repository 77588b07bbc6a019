import { describe, expect, it, vi } from "vitest";
import { InvalidInputError, StrataError } from "../util/errors.ts";
import { budgetUsedPercent, composeBudgetedPrompt } from "./composer.ts";
import { buildPromptBuiltEvent } from "./composer.ts";
import type { PromptBuiltEvent } from "./events.ts";
import { BudgetedSectionError } from "./tier-gate-errors.ts";
import type { BudgetConfig, BudgetedSection, BudgetedSectionInput, PromptTier } from "./tier-gate-types.ts";

/** A section whose content is `chars` copies of the first letter of its id. */
function s(id: string, tier: PromptTier, chars: number): BudgetedSection {
  return { id, tier, chars, content: id.charAt(0).repeat(chars) };
}

interface Case {
  readonly name: string;
  readonly candidates: readonly BudgetedSection[];
  readonly config: BudgetConfig;
  readonly included: readonly string[];
  readonly totalChars: number;
  readonly activeCeiling: number;
}

// Budget 100 with 20 core chars and the default fraction: ceiling = 20 + floor(80 × 0.95) = 96.
const CASES: readonly Case[] = [
  {
    name: "empty candidates",
    candidates: [],
    config: { depth: 0, totalBudget: 100 },
    included: [],
    totalChars: 0,
    activeCeiling: 95,
  },
  {
    name: "empty candidates, no budget",
    candidates: [],
    config: { depth: 0 },
    included: [],
    totalChars: 0,
    activeCeiling: Infinity,
  },
  {
    name: "an active section exactly at the ceiling is kept",
    candidates: [s("core", "core", 20), s("act", "active", 76)],
    config: { depth: 0, totalBudget: 100 },
    included: ["core", "act"],
    totalChars: 96,
    activeCeiling: 96,
  },
  {
    name: "an active section one over the ceiling is dropped",
    candidates: [s("core", "core", 20), s("act", "active", 77)],
    config: { depth: 0, totalBudget: 100 },
    included: ["core"],
    totalChars: 20,
    activeCeiling: 96,
  },
  {
    name: "an informational section exactly at the budget is kept",
    candidates: [s("core", "core", 20), s("info", "informational", 80)],
    config: { depth: 0, totalBudget: 100 },
    included: ["core", "info"],
    totalChars: 100,
    activeCeiling: 96,
  },
  {
    name: "an informational section one over the budget is dropped",
    candidates: [s("core", "core", 20), s("info", "informational", 81)],
    config: { depth: 0, totalBudget: 100 },
    included: ["core"],
    totalChars: 20,
    activeCeiling: 96,
  },
  {
    name: "informational sections may use the room above the active ceiling",
    candidates: [s("core", "core", 20), s("act", "active", 76), s("info", "informational", 4), s("more", "active", 0)],
    config: { depth: 0, totalBudget: 100 },
    included: ["core", "act", "info"],
    totalChars: 100,
    activeCeiling: 96,
  },
  {
    // 90 × 0.7 is 62.99999999999999 in IEEE doubles, so the ceiling is 10 + 62 = 72 in every runtime.
    name: "fraction 0.7 floors the float product (62 fits)",
    candidates: [s("core", "core", 10), s("act", "active", 62)],
    config: { depth: 0, totalBudget: 100, activeBudgetFraction: 0.7 },
    included: ["core", "act"],
    totalChars: 72,
    activeCeiling: 72,
  },
  {
    name: "fraction 0.7 floors the float product (63 does not fit)",
    candidates: [s("core", "core", 10), s("act", "active", 63)],
    config: { depth: 0, totalBudget: 100, activeBudgetFraction: 0.7 },
    included: ["core"],
    totalChars: 10,
    activeCeiling: 72,
  },
  {
    name: "fraction 0.7 with an exact product",
    candidates: [s("act", "active", 700), s("bct", "active", 1)],
    config: { depth: 0, totalBudget: 1000, activeBudgetFraction: 0.7 },
    included: ["act"],
    totalChars: 700,
    activeCeiling: 700,
  },
  {
    name: "fraction 0.95 of an odd remainder floors (1000 - 1 = 999 → 949)",
    candidates: [s("core", "core", 1), s("act", "active", 949), s("bct", "active", 1)],
    config: { depth: 0, totalBudget: 1000, activeBudgetFraction: 0.95 },
    included: ["core", "act"],
    totalChars: 950,
    activeCeiling: 950,
  },
  {
    name: "fraction 0 leaves active sections no room",
    candidates: [s("core", "core", 10), s("act", "active", 1), s("info", "informational", 90)],
    config: { depth: 0, totalBudget: 100, activeBudgetFraction: 0 },
    included: ["core", "info"],
    totalChars: 100,
    activeCeiling: 10,
  },
  {
    name: "fraction 1 lets active sections use the whole budget",
    candidates: [s("core", "core", 10), s("act", "active", 90)],
    config: { depth: 0, totalBudget: 100, activeBudgetFraction: 1 },
    included: ["core", "act"],
    totalChars: 100,
    activeCeiling: 100,
  },
  {
    name: "core over budget is kept and everything else dropped",
    candidates: [s("core", "core", 80), s("act", "active", 1), s("info", "informational", 1)],
    config: { depth: 0, totalBudget: 50 },
    included: ["core"],
    totalChars: 80,
    activeCeiling: 50,
  },
  {
    // The formula gives 100 + floor(-20 × 0.95) = 81; it is capped at the budget (80).
    name: "core over budget: an active section before the core may not exceed the budget",
    candidates: [s("act", "active", 81), s("core", "core", 100)],
    config: { depth: 0, totalBudget: 80 },
    included: ["core"],
    totalChars: 100,
    activeCeiling: 80,
  },
  {
    name: "the gate never reorders: a later, smaller section can take the room a larger one could not",
    candidates: [s("big", "informational", 60), s("small", "informational", 50), s("core", "core", 5)],
    config: { depth: 0, totalBudget: 55 },
    included: ["small", "core"],
    totalChars: 55,
    activeCeiling: 52,
  },
  {
    name: "a zero budget keeps core and zero-char sections only",
    candidates: [s("zero", "informational", 0), s("act", "active", 1)],
    config: { depth: 0, totalBudget: 0 },
    included: ["zero"],
    totalChars: 0,
    activeCeiling: 0,
  },
  {
    name: "an infinite budget keeps every section",
    candidates: [s("core", "core", 50), s("act", "active", 10_000), s("info", "informational", 100_000)],
    config: { depth: 0 },
    included: ["core", "act", "info"],
    totalChars: 110_050,
    activeCeiling: Infinity,
  },
  {
    name: "an infinite budget keeps active sections even with fraction 0",
    candidates: [s("act", "active", 10)],
    config: { depth: 0, totalBudget: Infinity, activeBudgetFraction: 0 },
    included: ["act"],
    totalChars: 10,
    activeCeiling: Infinity,
  },
];

describe("composeBudgetedPrompt: the tier gate at its boundaries", () => {
  it.each(CASES)("$name", ({ candidates, config, included, totalChars, activeCeiling }) => {
    const result = composeBudgetedPrompt(candidates, config);
    expect(result.included.map((x) => x.id)).toEqual(included);
    expect(result.dropped).toEqual(candidates.map((x) => x.id).filter((id) => !included.includes(id)));
    expect(result.totalChars).toBe(totalChars);
    expect(result.activeCeiling).toBe(activeCeiling);
    expect(result.composed).toBe(result.included.map((x) => x.content).join("\n\n"));
  });
});

describe("composeBudgetedPrompt: the result", () => {
  const candidates = [s("a", "core", 3), s("b", "active", 2), s("c", "informational", 50)];

  it("joins included content with blank lines and does not count the separators", () => {
    const result = composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 10 });
    expect(result.composed).toBe("aaa\n\nbb");
    expect(result.totalChars).toBe(5);
    expect(result.totalTokensEst).toBe(2);
  });

  it("reports sizes by id, the budget, its use and what was dropped", () => {
    const result = composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 10 });
    expect(result.sectionChars).toEqual({ a: 3, b: 2 });
    expect(result.droppedChars).toEqual({ c: 50 });
    expect(result.dropped).toEqual(["c"]);
    expect(result.effectiveBudget).toBe(10);
    expect(result.budgetUsedPct).toBe(50);
    expect(result.coreChars).toBe(3);
    expect(result.activeBudgetFraction).toBe(0.95);
    expect(result.overflowed).toBe(false);
    expect(result.overBudgetChars).toBe(0);
  });

  it("says when core sections overflow the budget", () => {
    const result = composeBudgetedPrompt([s("a", "core", 15)], { depth: 0, totalBudget: 10 });
    expect(result.overflowed).toBe(true);
    expect(result.overBudgetChars).toBe(5);
    expect(result.budgetUsedPct).toBe(150);
  });

  it("serializes to plain JSON, computed records included", () => {
    const result = composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 10 });
    const json = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
    expect(json["sectionChars"]).toEqual({ a: 3, b: 2 });
    expect(json["droppedChars"]).toEqual({ c: 50 });
    expect({ ...result }.sectionChars).toEqual({ a: 3, b: 2 });
  });

  it("keeps any id as a record key, __proto__ included", () => {
    const result = composeBudgetedPrompt([s("__proto__", "core", 2), s("constructor", "active", 1)], { depth: 0 });
    expect(Object.keys(result.sectionChars)).toEqual(["__proto__", "constructor"]);
    expect(result.sectionChars["__proto__"]).toBe(2);
    expect(Object.getPrototypeOf(result.sectionChars)).toBe(Object.prototype);
  });

  it("defaults chars to content.length and fills it in on included and dropped sections", () => {
    const input: BudgetedSectionInput[] = [
      { id: "x", tier: "core", content: "héllo" },
      { id: "y", tier: "informational", content: "🙂🙂" },
    ];
    const result = composeBudgetedPrompt(input, { depth: 0, totalBudget: 8 });
    expect(result.included).toEqual([{ id: "x", tier: "core", content: "héllo", chars: 5 }]);
    expect(result.droppedChars).toEqual({ y: 4 });
  });

  it("counts the caller's chars when given, even if they differ from content.length", () => {
    const result = composeBudgetedPrompt([{ id: "x", tier: "core", content: "abc", chars: 40 }], {
      depth: 0,
      totalBudget: 100,
    });
    expect(result.totalChars).toBe(40);
  });

  it("returns the caller's section objects when chars is given", () => {
    const section = s("a", "core", 1);
    expect(composeBudgetedPrompt([section], { depth: 0 }).included[0]).toBe(section);
  });

  it("keeps empty content as an empty part of the join", () => {
    const result = composeBudgetedPrompt(
      [s("a", "core", 1), { id: "e", tier: "core", content: "" }, s("b", "core", 1)],
      { depth: 0 },
    );
    expect(result.composed).toBe("a\n\n\n\nb");
  });

  it("does not mutate the candidates", () => {
    const input = [s("a", "core", 1), s("b", "informational", 9)];
    const copy = structuredClone(input);
    composeBudgetedPrompt(input, { depth: 0, totalBudget: 2 });
    expect(input).toEqual(copy);
  });
});

describe("composeBudgetedPrompt: ordering warnings", () => {
  const config = { depth: 0, totalBudget: 100, activeBudgetFraction: 0.7 };

  it("warns when a core section after included non-core ones pushes the prompt over budget", () => {
    const result = composeBudgetedPrompt([s("tips", "active", 60), s("rules", "core", 50)], config);
    expect(result.overflowed).toBe(true);
    expect(result.warnings).toEqual([
      {
        code: "core_after_non_core",
        id: "rules",
        index: 1,
        message:
          'core section "rules" comes after 1 non-core section(s) (60 chars) that were included first, and the prompt is over budget: put core sections first so the gate can drop the others instead.',
      },
    ]);
  });

  it("says nothing when core comes first (the gate then drops what does not fit) or nothing overflows", () => {
    const first = composeBudgetedPrompt([s("rules", "core", 50), s("tips", "active", 60)], config);
    expect(first.overflowed).toBe(false);
    expect(first.warnings).toEqual([]);
    const fits = composeBudgetedPrompt([s("tips", "active", 20), s("rules", "core", 50)], config);
    expect(fits.warnings).toEqual([]);
    // Core alone over budget is an overflow, but no ordering can fix it.
    const alone = composeBudgetedPrompt([s("rules", "core", 150)], config);
    expect(alone.overflowed).toBe(true);
    expect(alone.warnings).toEqual([]);
  });
});

describe("budgetUsedPct", () => {
  it.each([
    [0, 100, 0],
    [50, 100, 50],
    [1, 3, 33.33],
    [2, 3, 66.67],
    [150, 100, 150],
    [10, Infinity, 0],
    [0, 0, 0],
    [1, 0, Infinity],
  ])("is %i chars of a %s budget → %s", (total, budget, pct) => {
    expect(budgetUsedPercent(total, budget)).toBe(pct);
  });
});

describe("probes.onBuilt", () => {
  it("fires once with the same event buildPromptBuiltEvent builds", () => {
    const onBuilt = vi.fn<(event: PromptBuiltEvent) => void>();
    const result = composeBudgetedPrompt(
      [s("a", "core", 3), s("b", "informational", 9)],
      { depth: 0, totalBudget: 5 },
      { onBuilt },
    );
    expect(onBuilt).toHaveBeenCalledTimes(1);
    const event = onBuilt.mock.calls[0]![0];
    expect(event).toEqual(buildPromptBuiltEvent(result));
    expect(event).toEqual({
      sections: 1,
      totalChars: 3,
      totalTokensEst: 1,
      budgetUsedPct: 60,
      effectiveBudget: 5,
      sectionChars: { a: 3 },
      dropped: ["b"],
      droppedChars: { b: 9 },
    });
  });

  it("leaves dropped, droppedChars and overBudgetChars out when they do not apply", () => {
    const event = buildPromptBuiltEvent(composeBudgetedPrompt([s("a", "core", 3)], { depth: 0 }));
    expect(Object.keys(event).sort()).toEqual([
      "budgetUsedPct",
      "effectiveBudget",
      "sectionChars",
      "sections",
      "totalChars",
      "totalTokensEst",
    ]);
  });

  it("carries overBudgetChars when the core overflows", () => {
    const event = buildPromptBuiltEvent(composeBudgetedPrompt([s("a", "core", 3)], { depth: 0, totalBudget: 1 }));
    expect(event.overBudgetChars).toBe(2);
  });

  it("is not called when the candidates are invalid", () => {
    const onBuilt = vi.fn();
    expect(() => composeBudgetedPrompt([s("a", "core", 1), s("a", "core", 1)], { depth: 0 }, { onBuilt })).toThrow(
      BudgetedSectionError,
    );
    expect(onBuilt).not.toHaveBeenCalled();
  });
});

describe("composeBudgetedPrompt: invalid candidates", () => {
  const good = s("ok", "core", 1);
  it.each([
    ["negative chars", { id: "b", tier: "active", content: "x", chars: -1 }, "chars_negative", "candidates[1].chars"],
    [
      "fractional chars",
      { id: "b", tier: "active", content: "x", chars: 1.5 },
      "chars_fractional",
      "candidates[1].chars",
    ],
    [
      "NaN chars",
      { id: "b", tier: "active", content: "x", chars: Number.NaN },
      "chars_not_finite",
      "candidates[1].chars",
    ],
    [
      "infinite chars",
      { id: "b", tier: "active", content: "x", chars: Infinity },
      "chars_not_finite",
      "candidates[1].chars",
    ],
    ["string chars", { id: "b", tier: "active", content: "x", chars: "1" }, "chars_not_number", "candidates[1].chars"],
    ["an unknown tier", { id: "b", tier: "optional", content: "x" }, "unknown_tier", "candidates[1].tier"],
    ["non-string content", { id: "b", tier: "core", content: 5 }, "content_not_string", "candidates[1].content"],
    ["a duplicate id", { id: "ok", tier: "core", content: "x" }, "duplicate_id", "candidates[1].id"],
  ])("rejects %s, naming the candidate's index and id", (_name, bad, issue, field) => {
    let error: unknown;
    try {
      composeBudgetedPrompt([good, bad as unknown as BudgetedSection], { depth: 0 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BudgetedSectionError);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toBeInstanceOf(StrataError);
    const e = error as BudgetedSectionError;
    expect(e.code).toBe("invalid_budgeted_section");
    expect(e.issue).toBe(issue);
    expect(e.index).toBe(1);
    expect(e.field).toBe(field);
    expect(e.sectionId).toBe((bad as { id: string }).id);
    expect(e.message).toContain(`${field}: `);
    expect(e.message).toContain(JSON.stringify((bad as { id: string }).id));
  });

  it("names the first use of a duplicate id", () => {
    expect(() =>
      composeBudgetedPrompt([s("a", "core", 1), s("b", "core", 1), s("a", "core", 1)], { depth: 0 }),
    ).toThrow(/candidates\[2\]\.id: .*"a".*candidates\[0\]/);
  });

  it("throws the first error in candidate order, whether a repeated id or a malformed candidate", () => {
    const bad = { id: "b", tier: "optional", content: "x" } as unknown as BudgetedSection;
    const first = (list: BudgetedSection[]) => {
      try {
        composeBudgetedPrompt(list, { depth: 0 });
      } catch (caught) {
        return caught as BudgetedSectionError;
      }
      throw new Error("expected a BudgetedSectionError");
    };
    expect(first([s("a", "core", 1), s("c", "core", 1), s("a", "core", 1), bad])).toMatchObject({
      issue: "duplicate_id",
      index: 2,
    });
    expect(first([s("a", "core", 1), bad, s("a", "core", 1)])).toMatchObject({ issue: "unknown_tier", index: 1 });
  });

  it.each([
    ["a missing section", null, "not_an_object", "candidates[1]"],
    ["a number id", { id: 7, tier: "core", content: "x" }, "id_not_string", "candidates[1].id"],
  ])("rejects %s", (_name, bad, issue, field) => {
    expect(() => composeBudgetedPrompt([good, bad as unknown as BudgetedSection], { depth: 0 })).toThrow(
      expect.objectContaining({ issue, field, index: 1, sectionId: undefined }),
    );
  });

  it("rejects candidates that are not an array", () => {
    expect(() => composeBudgetedPrompt({} as unknown as BudgetedSection[], { depth: 0 })).toThrow(InvalidInputError);
  });
});
