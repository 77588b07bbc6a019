import { ContextBudgetError } from "./errors.ts";
import type { Message } from "../messages/index.ts";
import type { PromptSource, SourcedMessage } from "./sources.ts";
import { linkToolBlocks } from "./context-measure.ts";
import type { Measure, MeasureColumns, ToolBlocks, ToolLinks } from "./context-measure.ts";
import { CONTEXT_BUDGET_OMISSION_KINDS } from "./context-types.ts";
import type {
  ContextBudgetLimit,
  ContextBudgetOmission,
  ContextBudgetReport,
  ResolvedContextBudget,
} from "./context-types.ts";
import { definedFields } from "../util/plain-object.ts";

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

/**
 * Units as flat columns (one typed-array slot per unit or item, no object per unit): unit `u`'s
 * members are `first[u]`, `next[first[u]]`, … in ascending item order, ending at `-1`.
 */
export interface EvictionUnits {
  readonly count: number;
  readonly first: Int32Array;
  readonly last: Int32Array;
  /** Next member of the same unit, by item index (`-1` = none). */
  readonly next: Int32Array;
  /** Unit of each item. */
  readonly unitOf: Int32Array;
  /** Eviction rank of each unit (`-1` = protected). */
  readonly rank: Int8Array;
}

/**
 * Groups items that must go together: an assistant message with `tool_call` blocks and every
 * message carrying a matching `tool_result` (union-find, near-linear). A unit that contains a
 * protected item is protected as a whole, so eviction never orphans half of a tool exchange.
 * `ranks` is each item's own rank; `tools` lists the items' tool blocks or their links (see `MeasureColumns`).
 */
export function evictionUnits(ranks: Int8Array, tools: ToolBlocks | ToolLinks): EvictionUnits {
  const n = ranks.length;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (i: number, j: number): void => {
    const a = find(i);
    const b = find(j);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  };
  const links = "result" in tools ? tools : linkToolBlocks(tools);
  for (let k = 0; k < links.result.length; k++) union(links.result[k]!, links.call[k]!);
  // Roots are always the smallest member, so a unit is created when its first member is met.
  const first = new Int32Array(n);
  const last = new Int32Array(n);
  const next = new Int32Array(n).fill(-1);
  const unitOf = new Int32Array(n);
  const rank = new Int8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const root = find(i);
    const own = ranks[i]!;
    if (root === i) {
      unitOf[i] = count;
      first[count] = i;
      last[count] = i;
      rank[count] = own;
      count++;
      continue;
    }
    const u = unitOf[root]!;
    unitOf[i] = u;
    next[last[u]!] = i;
    last[u] = i;
    rank[u] = rank[u] === PROTECTED || own === PROTECTED ? PROTECTED : Math.min(rank[u]!, own);
  }
  return { count, first, last, next, unitOf, rank };
}

/** Unit ids in eviction order: by rank; within history and summaries the oldest first, within other kinds the unit ending nearest the end. */
function evictionOrder({ count, rank, last }: EvictionUnits): Int32Array {
  // A counting sort by rank keeps first-member order within each rank, without an array per rank.
  const starts = new Int32Array(CONTEXT_BUDGET_OMISSION_KINDS.length + 1);
  for (let u = 0; u < count; u++) if (rank[u] !== PROTECTED) starts[rank[u]! + 1]!++;
  for (let r = 1; r < starts.length; r++) starts[r]! += starts[r - 1]!;
  const order = new Int32Array(starts[starts.length - 1]!);
  const fill = starts.slice(0, -1);
  for (let u = 0; u < count; u++) if (rank[u] !== PROTECTED) order[fill[rank[u]!]!++] = u;
  CONTEXT_BUDGET_OMISSION_KINDS.forEach((kind, r) => {
    if (kind !== "history" && kind !== "summaries")
      order.subarray(starts[r]!, starts[r + 1]!).sort((a, b) => last[b]! - last[a]!);
  });
  return order;
}

/** What eviction needs of the composed prompt, by position. */
export interface EvictionInput {
  readonly messages: readonly Message[];
  /** Each item's `evictionRank`. */
  readonly ranks: Int8Array;
  /** The item at `i` with its provenance: asked only for protected items and, with `details`, for the omitted ones. */
  readonly itemAt: (i: number) => SourcedMessage;
}

export interface EvictionResult {
  /** `1` for kept items, `0` for omitted ones, by item index. */
  readonly keep: Uint8Array;
  /** `omitted` is empty (and `truncated` still exact) when eviction ran without `details`. */
  readonly report: ContextBudgetReport;
}

/**
 * Eviction with running totals: every item is measured once by the caller; nothing is re-measured
 * per drop. Without `details` the omission list is not built (a caller that will not show it).
 */
export function evictToBudget(
  input: EvictionInput,
  measures: MeasureColumns,
  toolSchemas: Measure | undefined,
  budget: ResolvedContextBudget,
  details = true,
): EvictionResult {
  const { messages, ranks, itemAt } = input;
  const units = evictionUnits(ranks, measures.toolBlocks);
  const { count, first, next, rank } = units;
  const unitTokens = new Float64Array(count);
  const unitBytes = new Float64Array(count);
  let tokens = toolSchemas?.tokens ?? 0;
  let bytes = toolSchemas?.bytes ?? 0;
  const protectedParts = { instructions: [0, 0], input: [0, 0], tools: [tokens, bytes], other: [0, 0] };
  for (let u = 0; u < count; u++) {
    let t = 0;
    let b = 0;
    for (let i = first[u]!; i !== -1; i = next[i]!) {
      t += measures.tokens[i]!;
      b += measures.bytes[i]!;
      if (rank[u] === PROTECTED) {
        const source = itemAt(i).source;
        const part =
          source === "instructions" || source === "input" || source === "tools"
            ? protectedParts[source]
            : protectedParts.other;
        part[0]! += measures.tokens[i]!;
        part[1]! += measures.bytes[i]!;
      }
    }
    unitTokens[u] = t;
    unitBytes[u] = b;
    tokens += t;
    bytes += b;
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

  const keep = new Uint8Array(messages.length).fill(1);
  const omitted: ContextBudgetOmission[] = [];
  let truncated = false;
  const exceeded = (): readonly ContextBudgetLimit[] => {
    const overTokens = maxInputTokens !== undefined && tokens > maxInputTokens;
    const overBytes = maxInputBytes !== undefined && bytes > maxInputBytes;
    return overTokens ? (overBytes ? OVER_BOTH : OVER_TOKENS) : overBytes ? OVER_BYTES : OVER_NONE;
  };
  let over = exceeded();
  if (over.length > 0) {
    const order = evictionOrder(units);
    for (let o = 0; o < order.length; o++) {
      const u = order[o]!;
      truncated = true;
      if (details) omitted.push(omission(units, u, input, unitTokens[u]!, unitBytes[u]!, tokens, bytes, over));
      for (let i = first[u]!; i !== -1; i = next[i]!) keep[i] = 0;
      tokens -= unitTokens[u]!;
      bytes -= unitBytes[u]!;
      over = exceeded();
      if (over.length === 0) break;
    }
  }
  // One final pass over the kept units: exact sums, free of subtraction rounding with fractional estimates.
  let keptTokens = toolSchemas?.tokens ?? 0;
  let keptBytes = toolSchemas?.bytes ?? 0;
  for (let u = 0; u < count; u++) {
    if (keep[first[u]!] === 1) {
      keptTokens += unitTokens[u]!;
      keptBytes += unitBytes[u]!;
    }
  }
  return {
    keep,
    report: {
      ...definedFields({ maxInputTokens, maxInputBytes }),
      tokensBefore,
      bytesBefore,
      protectedTokens,
      protectedBytes,
      keptTokens,
      keptBytes,
      truncated,
      omitted,
    },
  };
}

/** The report entry for dropping unit `u`; it is led by its first member of the unit's own rank. */
function omission(
  units: EvictionUnits,
  u: number,
  input: EvictionInput,
  tokens: number,
  bytes: number,
  tokensBefore: number,
  bytesBefore: number,
  exceeded: readonly ContextBudgetLimit[],
): ContextBudgetOmission {
  const { first, next, rank } = units;
  const sources: PromptSource[] = [];
  let lead = -1;
  for (let i = first[u]!; i !== -1; i = next[i]!) {
    sources.push(input.itemAt(i).source);
    if (lead === -1 && input.ranks[i] === rank[u]) lead = i;
  }
  const leadItem = input.itemAt(lead === -1 ? first[u]! : lead);
  return {
    kind: CONTEXT_BUDGET_OMISSION_KINDS[rank[u]!]!,
    source: leadItem.source,
    ...definedFields({ id: leadItem.id }),
    sources,
    tokens,
    bytes,
    tokensBefore,
    bytesBefore,
    exceeded,
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
