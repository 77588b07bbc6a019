/**
 * Depth-based helpers for callers building the candidate list. The composer itself
 * never consults them; the contribution resolver does when its context carries a `depth`.
 */
import type { BudgetedSection } from "./tier-gate-types.ts";

/** From this depth on, callers should use condensed variants of their sections. */
export const DEFAULT_CONDENSE_DEPTH = 2;
/** From this depth on, callers should not offer `informational` sections at all. */
export const DEFAULT_SKIP_INFORMATIONAL_DEPTH = 3;

/** `depth >= DEFAULT_CONDENSE_DEPTH` (2). */
export function shouldCondense(depth: number): boolean {
  return depth >= DEFAULT_CONDENSE_DEPTH;
}

/** `depth >= DEFAULT_SKIP_INFORMATIONAL_DEPTH` (3). */
export function skipInformational(depth: number): boolean {
  return depth >= DEFAULT_SKIP_INFORMATIONAL_DEPTH;
}

/** `used + section.chars <= budget`: the same test the gate applies to an informational section. */
export function wouldFit(section: Pick<BudgetedSection, "chars">, used: number, budget: number): boolean {
  return used + section.chars <= budget;
}
