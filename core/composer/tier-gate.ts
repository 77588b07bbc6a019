/**
 * The tier gate: one pass over the candidates in caller order.
 *
 *   coreChars     = sum of chars of every `core` candidate
 *   activeCeiling = coreChars + floor((budget - coreChars) * activeBudgetFraction)   (≤ budget)
 *   core          → always included
 *   active        → included if totalChars + chars <= activeCeiling
 *   informational → included if totalChars + chars <= budget
 *
 * `totalChars` is the running sum of the `chars` of sections included so far. The gate never
 * reorders. `runTierGate` is the only implementation: the composer, `applyBudgetGate` and
 * `explainBudgetedPrompt` all call it. The explanation text lives in tier-gate-explain.ts and is
 * built from the gate's decisions (`onDecision`), so composing never pulls it in.
 */
import { InvalidInputError } from "../util/errors.ts";
import { firstRepeat, stringHash } from "../util/string-index.ts";
import { computeActiveCeiling, getActiveBudgetFraction, getEffectiveBudget } from "./tier-gate-config.ts";
import { BudgetedSectionError } from "./tier-gate-errors.ts";
import type { BudgetConfig, BudgetedSection, BudgetedSectionInput } from "./tier-gate-types.ts";

/** What the gate decided, without the joined text. */
export interface BudgetGateResult {
  /**
   * Included sections in candidate order (`chars` filled in). Sections given with `chars` are
   * the caller's objects.
   */
  readonly included: readonly BudgetedSection[];
  /** Dropped sections in candidate order (`chars` filled in). */
  readonly droppedSections: readonly BudgetedSection[];
  /** Ids of `droppedSections`, in candidate order. */
  readonly dropped: readonly string[];
  /** Sum of `chars` over `included` (separators not counted). */
  readonly totalChars: number;
  /** Sum of `chars` over every `core` candidate. */
  readonly coreChars: number;
  /** The active-tier ceiling the gate used. */
  readonly activeCeiling: number;
  /** The budget gated against: an integer, or `Infinity` when no budget is configured. */
  readonly effectiveBudget: number;
  readonly activeBudgetFraction: number;
  /** `totalChars > effectiveBudget`: core sections pushed the total over the budget. */
  readonly overflowed: boolean;
  /** `max(0, totalChars - effectiveBudget)`. */
  readonly overBudgetChars: number;
}

/** Internal: the gate's result plus the included contents, ready to join. */
export interface TierGateOutcome extends BudgetGateResult {
  readonly contents: readonly string[];
}

function show(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "number" ? String(value) : typeof value;
}

/** Checks one candidate and returns its chars. Throws `BudgetedSectionError` naming index, id and field. */
function checkSection(section: BudgetedSectionInput, index: number): number {
  if (section === null || typeof section !== "object") {
    throw new BudgetedSectionError(
      index,
      undefined,
      "not_an_object",
      "",
      `expected a section { id, content, tier, chars? }, got ${show(section)}.`,
    );
  }
  const { id, content, tier, chars } = section;
  if (typeof id !== "string") {
    throw new BudgetedSectionError(
      index,
      undefined,
      "id_not_string",
      "id",
      `the section id must be a string, got ${show(id)}.`,
    );
  }
  if (typeof content !== "string") {
    throw new BudgetedSectionError(
      index,
      id,
      "content_not_string",
      "content",
      `section ${JSON.stringify(id)} must have string content, got ${show(content)}.`,
    );
  }
  if (tier !== "core" && tier !== "active" && tier !== "informational") {
    throw new BudgetedSectionError(
      index,
      id,
      "unknown_tier",
      "tier",
      `section ${JSON.stringify(id)} has tier ${JSON.stringify(tier) ?? "undefined"}; use "core", "active" or "informational".`,
    );
  }
  if (chars === undefined) return content.length;
  if (typeof chars !== "number") {
    throw new BudgetedSectionError(
      index,
      id,
      "chars_not_number",
      "chars",
      `section ${JSON.stringify(id)} has chars ${show(chars)}; use a non-negative integer or omit it (content.length).`,
    );
  }
  if (!Number.isFinite(chars)) {
    throw new BudgetedSectionError(
      index,
      id,
      "chars_not_finite",
      "chars",
      `section ${JSON.stringify(id)} has chars ${chars}; use a finite non-negative integer or omit it (content.length).`,
    );
  }
  if (chars < 0) {
    throw new BudgetedSectionError(
      index,
      id,
      "chars_negative",
      "chars",
      `section ${JSON.stringify(id)} has chars ${chars}; use a non-negative integer or omit it (content.length).`,
    );
  }
  if (!Number.isInteger(chars)) {
    throw new BudgetedSectionError(
      index,
      id,
      "chars_fractional",
      "chars",
      `section ${JSON.stringify(id)} has fractional chars ${chars}; round it to an integer or omit it (content.length).`,
    );
  }
  return chars;
}

function duplicateIdError(index: number, id: string, first: number): BudgetedSectionError {
  return new BudgetedSectionError(
    index,
    id,
    "duplicate_id",
    "id",
    `section id ${JSON.stringify(id)} is already used by candidates[${first}]; give every candidate a unique id.`,
  );
}

/** The duplicate-id error for the first repeated id among `candidates[0..end)`, if any. */
function repeatBefore(candidates: readonly BudgetedSectionInput[], end: number): BudgetedSectionError | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < end; i++) {
    const id = candidates[i]!.id;
    const first = seen.get(id);
    if (first !== undefined) return duplicateIdError(i, id, first);
    seen.set(id, i);
  }
  return undefined;
}

/**
 * One decision of the gate: the candidate (with `chars` filled in), the running total before it
 * and whether it was included. Called in candidate order, after every candidate is validated.
 */
export type TierDecisionListener = (section: BudgetedSection, totalBefore: number, included: boolean) => void;

/**
 * The gate. Validates every candidate first (so nothing is decided on malformed input), then
 * makes the single decision pass. When `onDecision` is given, it hears every decision as it is
 * made (`explainBudgetedPrompt` turns them into rows).
 */
export function runTierGate(
  candidates: readonly BudgetedSectionInput[],
  config: BudgetConfig,
  onDecision?: TierDecisionListener,
): TierGateOutcome {
  if (!Array.isArray(candidates)) {
    throw new InvalidInputError(
      "candidates",
      `expected an array of { id, content, tier, chars? } sections, got ${show(candidates)}.`,
    );
  }
  const effectiveBudget = getEffectiveBudget(config);
  const activeBudgetFraction = getActiveBudgetFraction(config);
  const n = candidates.length;

  // Pass 1 validates and records what the decision pass needs in flat arrays, so pass 2 never
  // dereferences a section object (it matters at 100k sections: one cache miss per object).
  // Completed sections are noted only for candidates without chars; the others are the caller's.
  let completed: (BudgetedSection | undefined)[] | undefined;
  const contents = new Array<string>(n);
  const sizes = new Float64Array(n);
  const tiers = new Uint8Array(n); // 0 core, 1 active, 2 informational
  const hashes = new Int32Array(n);
  let coreChars = 0;
  for (let i = 0; i < n; i++) {
    const input = candidates[i]!;
    let chars: number;
    try {
      chars = checkSection(input, i);
    } catch (error) {
      // Repeated ids are found after this loop; an earlier repeat is still the first error.
      throw repeatBefore(candidates, i) ?? error;
    }
    hashes[i] = stringHash(input.id);
    const tier = input.tier;
    // Sections given without chars are completed once; sections with chars pass through unchanged.
    if (input.chars === undefined)
      (completed ??= new Array(n))[i] = { id: input.id, content: input.content, tier, chars };
    contents[i] = input.content;
    sizes[i] = chars;
    if (tier === "core") coreChars += chars;
    else tiers[i] = tier === "active" ? 1 : 2;
  }

  // Ids are checked for repeats once all are known (a repeat before a malformed candidate still
  // comes first: see the catch above).
  const repeat = firstRepeat(hashes, (i) => candidates[i]!.id);
  if (repeat !== undefined) throw duplicateIdError(repeat.at, candidates[repeat.at]!.id, repeat.first);

  // Pass 2: the decisions, in caller order. Kept sections are compacted in place (kept <= i).
  const sections = candidates.slice() as BudgetedSection[];
  if (completed !== undefined) for (let i = 0; i < n; i++) if (completed[i] !== undefined) sections[i] = completed[i]!;
  const activeCeiling = computeActiveCeiling(coreChars, effectiveBudget, activeBudgetFraction);
  const dropped: string[] = [];
  const droppedSections: BudgetedSection[] = [];
  let kept = 0;
  let totalChars = 0;

  for (let i = 0; i < n; i++) {
    const tier = tiers[i]!;
    const chars = sizes[i]!;
    const keep = tier === 0 || totalChars + chars <= (tier === 1 ? activeCeiling : effectiveBudget);

    if (onDecision !== undefined) onDecision(sections[i]!, totalChars, keep);

    if (keep) {
      if (kept !== i) {
        sections[kept] = sections[i]!;
        contents[kept] = contents[i]!;
      }
      kept++;
      totalChars += chars;
    } else {
      const section = sections[i]!;
      dropped.push(section.id);
      droppedSections.push(section);
    }
  }
  sections.length = kept;
  contents.length = kept;
  const included = sections;

  const overBudgetChars = totalChars > effectiveBudget ? totalChars - effectiveBudget : 0;
  return {
    included,
    droppedSections,
    dropped,
    totalChars,
    coreChars,
    activeCeiling,
    effectiveBudget,
    activeBudgetFraction,
    overflowed: overBudgetChars > 0,
    overBudgetChars,
    contents,
  };
}

/**
 * Runs the tier gate without joining the text: which candidates are kept, which are dropped and
 * the numbers behind the decision. `composeBudgetedPrompt` is this plus the join.
 */
export function applyBudgetGate(candidates: readonly BudgetedSectionInput[], config: BudgetConfig): BudgetGateResult {
  const g = runTierGate(candidates, config);
  return {
    included: g.included,
    droppedSections: g.droppedSections,
    dropped: g.dropped,
    totalChars: g.totalChars,
    coreChars: g.coreChars,
    activeCeiling: g.activeCeiling,
    effectiveBudget: g.effectiveBudget,
    activeBudgetFraction: g.activeBudgetFraction,
    overflowed: g.overflowed,
    overBudgetChars: g.overBudgetChars,
  };
}
