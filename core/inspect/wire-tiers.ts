/**
 * Tier gating for a wire request: its system prompt (the `instructions` parts' text blocks) split
 * into sections (`splitPromptSections`), each given a tier (default `active`), gated by the same
 * composer as an `AssemblyRequest`'s `sections`. `composeInstructions` also rebuilds the request
 * with the composed system prompt, so it can be exported in its own wire format.
 */
import type { RequestPart } from "../cache/types.ts";
import { composeBudgetedPrompt } from "../composer/composer.ts";
import { explainBudgetedPrompt } from "../composer/composer-explain.ts";
import { splitPromptSections } from "../composer/prompt-sections.ts";
import type { BudgetedSectionInput, PromptTier } from "../composer/tier-gate-types.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ContentBlock, Message } from "../messages/types.ts";
import type { TierBudgetJson } from "../request/assembly-request.ts";
import type { PreparedTiers } from "../request/prepare-with.ts";
import { tierBudgetConfig } from "../request/tier-budget.ts";
import type { TierRowSource } from "./report-parts.ts";

export interface InstructionSections {
  readonly candidates: readonly BudgetedSectionInput[];
  readonly sources: readonly TierRowSource[];
}

/**
 * The sections of the request's system prompt, in order, with `tiers[id]` (default `active`).
 * Section ids are unique across the instruction blocks (a repeated id gets `-2`, `-3`, …).
 */
export function instructionSections(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  tiers: Readonly<Record<string, PromptTier>> = {},
): InstructionSections {
  const candidates: BudgetedSectionInput[] = [];
  const sources: TierRowSource[] = [];
  const used = new Map<string, number>();
  for (const p of parts) {
    if (p.kind !== "instructions" || p.messageIndex === null) continue;
    const m = request.messages[p.messageIndex]!;
    for (let j = p.firstBlock!; j < p.endBlock!; j++) {
      const b = m.content[j]!;
      if (b.type !== "text") continue;
      for (const s of splitPromptSections(b.text)) {
        const n = (used.get(s.id) ?? 0) + 1;
        used.set(s.id, n);
        const id = n === 1 ? s.id : `${s.id}-${n}`;
        const tier = Object.hasOwn(tiers, id) ? tiers[id]! : "active";
        candidates.push({ id, tier, content: b.text.slice(s.start, s.end) });
        sources.push({ title: s.title, path: `messages[${p.messageIndex}].content[${j}]`, start: s.start, end: s.end });
      }
    }
  }
  return { candidates, sources };
}

export interface ComposedInstructions {
  readonly tiers: PreparedTiers;
  readonly sources: readonly TierRowSource[];
  /** The composed system prompt: the included sections joined by a blank line. */
  readonly composed: string;
  /**
   * The request with its system prompt replaced by `composed`: one text block in the first
   * instruction message (keeping its role and wire fields, and the cache marker of the last
   * instruction block); the other instruction messages and blocks are gone.
   */
  readonly request: NormalizedRequest;
}

/** The tier gate over the request's system prompt sections; null when it has no system prompt text. */
export function composeInstructions(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  tiers: Readonly<Record<string, PromptTier>> = {},
  budget?: number | null | TierBudgetJson,
): ComposedInstructions | null {
  const { candidates, sources } = instructionSections(request, parts, tiers);
  if (candidates.length === 0) return null;
  const config = tierBudgetConfig(undefined, budget === undefined ? null : budget);
  const composed = composeBudgetedPrompt(candidates, config);
  const instructionMessages = parts.filter((p) => p.kind === "instructions").map((p) => p.messageIndex!);
  const first = instructionMessages[0]!;
  let cache: ContentBlock["cache"];
  for (const i of instructionMessages) for (const b of request.messages[i]!.content) if (b.cache) cache = b.cache;
  const drop = new Set(instructionMessages);
  const messages: Message[] = [];
  request.messages.forEach((m, i) => {
    if (i === first)
      messages.push({
        ...m,
        content: [cache ? { type: "text", text: composed.composed, cache } : { type: "text", text: composed.composed }],
      });
    else if (!drop.has(i)) messages.push(m);
  });
  return {
    tiers: { config, composed, rows: explainBudgetedPrompt(candidates, config) },
    sources,
    composed: composed.composed,
    request: { ...request, messages },
  };
}
