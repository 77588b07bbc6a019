import { ContextBudgetError } from "../errors.ts";
import type { SourcedMessage } from "../prompt/sources.ts";
import type { Measure } from "./context-measure.ts";
import { CONTEXT_BUDGET_OMISSION_KINDS } from "./context-types.ts";
import type {
  ContextBudgetLimit,
  ContextBudgetOmission,
  ContextBudgetReport,
  ResolvedContextBudget,
} from "./context-types.ts";

const PROTECTED = -1;
// Shared, never mutated: one array per combination instead of one per omission.
const OVER_NONE: readonly ContextBudgetLimit[] = [];
const OVER_TOKENS: readonly ContextBudgetLimit[] = ["maxInputTokens"];
const OVER_BYTES: readonly ContextBudgetLimit[] = ["maxInputBytes"];
const OVER_BOTH: readonly ContextBudgetLimit[] = ["maxInputTokens", "maxInputBytes"];

/**
 * Eviction rank of a provenance label (index into `CONTEXT_BUDGET_OMISSION_KINDS`), or
 * `PROTECTED`. Tail segments follow what they carry: `tail:skill:*` → skills,
 * `tail:resource:*` → attachments, any other tail id → context.
 */
export function evictionRank(source: string): number {
  const colon = source.indexOf(":");
  const prefix = colon < 0 ? source : source.slice(0, colon);
  switch (prefix) {
    case "toolResult":
      return 0;
    case "history":
      return 1;
    case "summary":
      return 2;
    case "context":
      return 3;
    case "skill":
      return 4;
    case "attachment":
    case "resource":
      return 5;
    case "tail": {
      const rest = source.slice(colon + 1);
      return rest.startsWith("skill:") ? 4 : rest.startsWith("resource:") ? 5 : 3;
    }
    default:
      return PROTECTED; // instructions, input, tools, custom
  }
}

interface Unit {
  readonly members: number[];
  rank: number;
  tokens: number;
  bytes: number;
}

export interface EvictionUnits {
  readonly units: Unit[];
  /** Eviction rank of each item (`-1` = protected). */
  readonly ranks: Int8Array;
}

/**
 * Groups items that must go together: an assistant message with `tool_call` blocks and every
 * message carrying a matching `tool_result` (union-find, near-linear). A unit that contains a
 * protected item is protected as a whole, so eviction never orphans half of a tool exchange.
 */
export function evictionUnits(items: readonly SourcedMessage[]): EvictionUnits {
  const n = items.length;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const callOwner = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    for (const block of items[i]!.message.content) {
      if (block.type === "tool_call" && !callOwner.has(block.id)) callOwner.set(block.id, i);
    }
  }
  if (callOwner.size > 0) {
    for (let i = 0; i < n; i++) {
      for (const block of items[i]!.message.content) {
        if (block.type !== "tool_result") continue;
        const owner = callOwner.get(block.toolCallId);
        if (owner === undefined) continue;
        const a = find(i);
        const b = find(owner);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  // Roots are always the smallest member, so a unit is created when its first member is met.
  const unitAt = new Int32Array(n);
  const ranks = new Int8Array(n);
  const units: Unit[] = [];
  for (let i = 0; i < n; i++) {
    const root = find(i);
    const rank = evictionRank(items[i]!.source);
    ranks[i] = rank;
    if (root === i) {
      unitAt[i] = units.length;
      units.push({ members: [i], rank, tokens: 0, bytes: 0 });
      continue;
    }
    const unit = units[unitAt[root]!]!;
    unit.members.push(i);
    unit.rank = unit.rank === PROTECTED || rank === PROTECTED ? PROTECTED : Math.min(unit.rank, rank);
  }
  return { units, ranks };
}

/** Within history and summaries the oldest goes first; within other kinds the item nearest the end. */
function evictionOrder(units: readonly Unit[]): Unit[] {
  const buckets: Unit[][] = CONTEXT_BUDGET_OMISSION_KINDS.map(() => []);
  for (const unit of units) if (unit.rank !== PROTECTED) buckets[unit.rank]!.push(unit);
  const ordered: Unit[] = [];
  buckets.forEach((bucket, rank) => {
    const kind = CONTEXT_BUDGET_OMISSION_KINDS[rank]!;
    if (kind !== "history" && kind !== "summaries") bucket.sort((a, b) => b.members[b.members.length - 1]! - a.members[a.members.length - 1]!);
    for (const unit of bucket) ordered.push(unit);
  });
  return ordered;
}

export interface EvictionResult {
  /** `1` for kept items, `0` for omitted ones, by item index. */
  readonly keep: Uint8Array;
  readonly report: ContextBudgetReport;
}

/** Eviction with running totals: every item is measured once by the caller; nothing is re-measured per drop. */
export function evictToBudget(
  items: readonly SourcedMessage[],
  measures: readonly Measure[],
  toolSchemas: Measure | undefined,
  budget: ResolvedContextBudget,
): EvictionResult {
  const { units, ranks } = evictionUnits(items);
  let tokens = toolSchemas?.tokens ?? 0;
  let bytes = toolSchemas?.bytes ?? 0;
  const protectedParts = { instructions: [0, 0], input: [0, 0], tools: [tokens, bytes], other: [0, 0] };
  for (const unit of units) {
    for (const i of unit.members) {
      const m = measures[i]!;
      unit.tokens += m.tokens;
      unit.bytes += m.bytes;
      if (unit.rank === PROTECTED) {
        const source = items[i]!.source;
        const part = source === "instructions" || source === "input" || source === "tools" ? protectedParts[source] : protectedParts.other;
        part[0]! += m.tokens;
        part[1]! += m.bytes;
      }
    }
    tokens += unit.tokens;
    bytes += unit.bytes;
  }
  const tokensBefore = tokens;
  const bytesBefore = bytes;
  const parts = Object.values(protectedParts);
  const protectedTokens = parts.reduce((sum, p) => sum + p[0]!, 0);
  const protectedBytes = parts.reduce((sum, p) => sum + p[1]!, 0);
  const { maxInputTokens, maxInputBytes } = budget;
  if (maxInputTokens !== undefined && protectedTokens > maxInputTokens) {
    throw budgetError("maxInputTokens", maxInputTokens, protectedTokens, protectedParts, 0);
  }
  if (maxInputBytes !== undefined && protectedBytes > maxInputBytes) {
    throw budgetError("maxInputBytes", maxInputBytes, protectedBytes, protectedParts, 1);
  }

  const keep = new Uint8Array(items.length).fill(1);
  const omitted: ContextBudgetOmission[] = [];
  const exceeded = (): readonly ContextBudgetLimit[] => {
    const overTokens = maxInputTokens !== undefined && tokens > maxInputTokens;
    const overBytes = maxInputBytes !== undefined && bytes > maxInputBytes;
    return overTokens ? (overBytes ? OVER_BOTH : OVER_TOKENS) : overBytes ? OVER_BYTES : OVER_NONE;
  };
  let over = exceeded();
  if (over.length > 0) {
    for (const unit of evictionOrder(units)) {
      const lead = unit.members.find((i) => ranks[i] === unit.rank) ?? unit.members[0]!;
      const leadItem = items[lead]!;
      omitted.push({
        kind: CONTEXT_BUDGET_OMISSION_KINDS[unit.rank]!,
        source: leadItem.source,
        ...(leadItem.id === undefined ? {} : { id: leadItem.id }),
        sources: unit.members.map((i) => items[i]!.source),
        tokens: unit.tokens,
        bytes: unit.bytes,
        tokensBefore: tokens,
        bytesBefore: bytes,
        exceeded: over,
      });
      for (const i of unit.members) keep[i] = 0;
      tokens -= unit.tokens;
      bytes -= unit.bytes;
      over = exceeded();
      if (over.length === 0) break;
    }
  }
  // One final pass over the kept units: exact sums, free of subtraction rounding with fractional estimates.
  let keptTokens = toolSchemas?.tokens ?? 0;
  let keptBytes = toolSchemas?.bytes ?? 0;
  for (const unit of units) {
    if (keep[unit.members[0]!] === 1) {
      keptTokens += unit.tokens;
      keptBytes += unit.bytes;
    }
  }
  return {
    keep,
    report: {
      ...(maxInputTokens === undefined ? {} : { maxInputTokens }),
      ...(maxInputBytes === undefined ? {} : { maxInputBytes }),
      tokensBefore,
      bytesBefore,
      protectedTokens,
      protectedBytes,
      keptTokens,
      keptBytes,
      truncated: omitted.length > 0,
      omitted,
    },
  };
}

function budgetError(
  limit: ContextBudgetLimit,
  cap: number,
  required: number,
  parts: Record<"instructions" | "input" | "tools" | "other", number[]>,
  slot: 0 | 1,
): ContextBudgetError {
  const unit = slot === 0 ? "tokens" : "bytes";
  const breakdown = [
    `instructions ${parts.instructions[slot]}`,
    `current input ${parts.input[slot]}`,
    `tool catalog ${parts.tools[slot]}`,
    ...(parts.other[slot] === 0 ? [] : [`other kept messages ${parts.other[slot]}`]),
  ].join(", ");
  return new ContextBudgetError(
    { limit, cap, required },
    `Protected prompt parts need ${required} ${unit} (${breakdown}) but ${limit} is ${cap}: ` +
      `raise ${limit} by at least ${required - cap} or shorten the instructions, input or tool catalog.`,
  );
}
