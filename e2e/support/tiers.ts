// The tier gate worked out independently of the app, to check the numbers the views show.
// Rule (spec 002): core is always kept; an active section is kept while the running total fits the
// active ceiling core + floor((budget − core) × fraction); an informational one while it fits the budget.

export interface TierInput {
  readonly id: string;
  readonly tier: "core" | "active" | "informational";
  readonly chars: number;
}

export interface TierDrop {
  readonly id: string;
  readonly chars: number;
  /** Running total of kept sections before this one. */
  readonly before: number;
  /** The limit it was tested against (ceiling for active, budget for informational). */
  readonly limit: number;
}

/** The `sections` of a Strata assembly request, with their sizes in UTF-16 units. */
export function tierSections(requestText: string): TierInput[] {
  const request = JSON.parse(requestText) as { sections: { id: string; tier: TierInput["tier"]; content: string }[] };
  return request.sections.map((s) => ({ id: s.id, tier: s.tier, chars: s.content.length }));
}

export function expectedTierDrops(sections: readonly TierInput[], budget: number, fraction: number): TierDrop[] {
  const core = sections.filter((s) => s.tier === "core").reduce((a, s) => a + s.chars, 0);
  const ceiling = core + Math.floor(Math.max(0, budget - core) * fraction);
  let total = core;
  const drops: TierDrop[] = [];
  for (const s of sections) {
    if (s.tier === "core") continue;
    const limit = s.tier === "active" ? ceiling : budget;
    if (total + s.chars <= limit) total += s.chars;
    else drops.push({ id: s.id, chars: s.chars, before: total, limit });
  }
  return drops;
}
