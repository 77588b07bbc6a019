import { describe, expect, it } from "vitest";
import {
  DEFAULT_CONDENSE_DEPTH,
  DEFAULT_SKIP_INFORMATIONAL_DEPTH,
  shouldCondense,
  skipInformational,
  wouldFit,
} from "./predicates.ts";

describe("depth predicates", () => {
  it("uses thresholds 2 (condense) and 3 (skip informational)", () => {
    expect(DEFAULT_CONDENSE_DEPTH).toBe(2);
    expect(DEFAULT_SKIP_INFORMATIONAL_DEPTH).toBe(3);
  });

  it.each([
    [0, false, false],
    [1, false, false],
    [2, true, false],
    [3, true, true],
    [10, true, true],
  ])("at depth %i: condense %s, skip informational %s", (depth, condense, skip) => {
    expect(shouldCondense(depth)).toBe(condense);
    expect(skipInformational(depth)).toBe(skip);
  });
});

describe("wouldFit", () => {
  it.each([
    [10, 90, 100, true],
    [11, 90, 100, false],
    [0, 100, 100, true],
    [1_000_000, 0, Infinity, true],
  ])("a %i-char section after %i used of %s fits: %s", (chars, used, budget, fits) => {
    expect(wouldFit({ chars }, used, budget)).toBe(fits);
  });
});
