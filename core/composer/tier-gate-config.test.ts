import { describe, expect, it, vi } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { applyBudgetGate } from "./tier-gate.ts";
import {
  DEFAULT_ACTIVE_BUDGET_FRACTION,
  computeActiveCeiling,
  getActiveBudgetFraction,
  getEffectiveBudget,
} from "./tier-gate-config.ts";
import type { BudgetConfig } from "./tier-gate-types.ts";

describe("getEffectiveBudget", () => {
  it("prefers totalBudget over resolveBudget", () => {
    const resolveBudget = vi.fn(() => 5);
    expect(getEffectiveBudget({ depth: 0, totalBudget: 100, resolveBudget })).toBe(100);
    expect(resolveBudget).not.toHaveBeenCalled();
  });

  it("asks resolveBudget with the depth and, when set, the runtime role", () => {
    const resolveBudget = vi.fn(({ depth }: { depth: number }) =>
      depth === 0 ? 60_000 : depth === 1 ? 40_000 : 20_000,
    );
    expect(getEffectiveBudget({ depth: 1, resolveBudget })).toBe(40_000);
    expect(resolveBudget).toHaveBeenLastCalledWith({ depth: 1 });
    getEffectiveBudget({ depth: 2, runtimeRole: "planner", resolveBudget });
    expect(resolveBudget).toHaveBeenLastCalledWith({ depth: 2, runtimeRole: "planner" });
  });

  it("falls back to Infinity", () => {
    expect(getEffectiveBudget({ depth: 0 })).toBe(Number.POSITIVE_INFINITY);
  });

  it.each([
    [99.9, 99],
    [0.5, 0],
    [Infinity, Infinity],
    [0, 0],
  ])("quantizes %s to %s", (value, expected) => {
    expect(getEffectiveBudget({ depth: 0, totalBudget: value })).toBe(expected);
    expect(getEffectiveBudget({ depth: 0, resolveBudget: () => value })).toBe(expected);
  });

  it.each([
    ["a negative totalBudget", { depth: 0, totalBudget: -1 }, "config.totalBudget"],
    ["a NaN totalBudget", { depth: 0, totalBudget: Number.NaN }, "config.totalBudget"],
    ["a resolver returning NaN", { depth: 0, resolveBudget: () => Number.NaN }, "config.resolveBudget(...)"],
    [
      "a resolver returning a string",
      { depth: 0, resolveBudget: () => "10" as unknown as number },
      "config.resolveBudget(...)",
    ],
    ["a negative depth", { depth: -1 }, "config.depth"],
    ["a fractional depth", { depth: 0.5 }, "config.depth"],
  ])("rejects %s", (_name, config, field) => {
    expect(() => getEffectiveBudget(config as BudgetConfig)).toThrow(expect.objectContaining({ field }));
    expect(() => getEffectiveBudget(config as BudgetConfig)).toThrow(InvalidInputError);
  });
});

describe("getActiveBudgetFraction", () => {
  it("defaults to 0.95", () => {
    expect(DEFAULT_ACTIVE_BUDGET_FRACTION).toBe(0.95);
    expect(getActiveBudgetFraction({ depth: 0 })).toBe(0.95);
  });

  it.each([-0.1, 1.5, Number.NaN, Infinity])("rejects %s", (fraction) => {
    expect(() => getActiveBudgetFraction({ depth: 0, activeBudgetFraction: fraction })).toThrow(
      expect.objectContaining({ field: "config.activeBudgetFraction" }),
    );
  });
});

describe("computeActiveCeiling", () => {
  it.each([
    [20, 100, 0.95, 96],
    [10, 100, 0.7, 72],
    [0, 1000, 0.7, 700],
    [0, 0, 0.95, 0],
    [100, 80, 0.95, 80],
    [100, 80, 0, 80],
    [5, Infinity, 0, Infinity],
  ])("core %i, budget %s, fraction %s → %s", (core, budget, fraction, ceiling) => {
    expect(computeActiveCeiling(core, budget, fraction)).toBe(ceiling);
  });
});

describe("applyBudgetGate", () => {
  it("decides like the composer without joining text", () => {
    const result = applyBudgetGate(
      [
        { id: "a", tier: "core", content: "aaaa" },
        { id: "b", tier: "informational", content: "bbbbbbb" },
      ],
      { depth: 0, totalBudget: 10 },
    );
    expect(result.included.map((x) => x.id)).toEqual(["a"]);
    expect(result.dropped).toEqual(["b"]);
    expect(result.droppedSections).toEqual([{ id: "b", tier: "informational", content: "bbbbbbb", chars: 7 }]);
    expect(result).toMatchObject({
      totalChars: 4,
      coreChars: 4,
      activeCeiling: 9,
      effectiveBudget: 10,
      overflowed: false,
      overBudgetChars: 0,
    });
    expect("composed" in result).toBe(false);
  });
});
