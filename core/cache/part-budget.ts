/**
 * `evictParts(parts, request, budget)`: the context budget over a wire request, with the very
 * eviction assembly runs (`evictToBudget`): tool results → history (oldest first) → summaries →
 * context → attachments; a tool call and its results go together; instructions, the current input,
 * the tool catalog and `unknown` parts are protected. Each message part is one item, labeled with
 * its provenance (`RequestPart.source`) and sized from the segments, as the rest of the report is.
 */
import { resolveContextBudget } from "../assembly/context-budget.ts";
import { evictToBudget, evictionRank, evictionUnits } from "../assembly/context-eviction.ts";
import type { MeasureColumns, ToolBlocks } from "../assembly/context-measure.ts";
import type { ContextBudget, ContextBudgetReport } from "../assembly/context-types.ts";
import type { PromptSource, SourcedMessage } from "../assembly/sources.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { Message } from "../messages/types.ts";
import type { RequestPart } from "./types.ts";

export interface PartsBudget {
  readonly report: ContextBudgetReport;
  /** The part indexes behind each omission of `report.omitted` (same order); the lead part first. */
  readonly omissionParts: readonly (readonly number[])[];
  /** Every omitted part index, ascending. */
  readonly omitted: readonly number[];
}

/**
 * Tool blocks of the items for `evictionUnits`. A call or result without an id (Gemini without
 * `id`) is paired by position: a result answers the nearest earlier item with an id-less call.
 */
function toolBlocksOf(items: readonly SourcedMessage[]): ToolBlocks {
  const blocks: ToolBlocks = { at: [], isCall: [], id: [] };
  let anonymousCall: string | null = null;
  items.forEach((item, i) => {
    for (const b of item.message.content) {
      if (b.type === "tool_call") {
        const id = b.id === "" ? `\u0000call@${i}` : b.id;
        if (b.id === "") anonymousCall = id;
        blocks.at.push(i);
        blocks.isCall.push(true);
        blocks.id.push(id);
      } else if (b.type === "tool_result") {
        blocks.at.push(i);
        blocks.isCall.push(false);
        blocks.id.push(b.toolCallId === "" ? (anonymousCall ?? "\u0000orphan") : b.toolCallId);
      }
    }
  });
  return blocks;
}

/**
 * Evicts whole parts until the request fits `budget` (validated as assembly validates it). Throws
 * `ContextBudgetError` when the protected parts alone exceed a cap.
 */
export function evictParts(
  parts: readonly RequestPart[],
  request: NormalizedRequest,
  budget: ContextBudget,
): PartsBudget {
  const resolved = resolveContextBudget(budget);
  const items: SourcedMessage[] = [];
  const partOf: number[] = [];
  let toolTokens = 0;
  let toolBytes = 0;
  for (const p of parts) {
    if (p.messageIndex === null) {
      toolTokens += p.tokens;
      toolBytes += p.bytes;
      continue;
    }
    const m = request.messages[p.messageIndex]!;
    const message: Message = { role: m.role, content: m.content.slice(p.firstBlock!, p.endBlock!) };
    items.push({ message, source: p.source as PromptSource, id: String(p.index) });
    partOf.push(p.index);
  }
  const n = items.length;
  const measures: MeasureColumns = {
    chars: new Float64Array(n),
    bytes: Float64Array.from(partOf, (k) => parts[k]!.bytes),
    tokens: Float64Array.from(partOf, (k) => parts[k]!.tokens),
    toolBlocks: toolBlocksOf(items),
  };
  const ranks = Int8Array.from(items, (item) => evictionRank(item.source));
  const tools = toolTokens > 0 || toolBytes > 0 ? { chars: 0, bytes: toolBytes, tokens: toolTokens } : undefined;
  const { keep, report } = evictToBudget(
    { messages: items.map((i) => i.message), ranks, itemAt: (i) => items[i]! },
    measures,
    tools,
    resolved,
  );
  const units = evictionUnits(ranks, measures.toolBlocks);
  const itemOfPart = new Map(partOf.map((k, i) => [k, i]));
  const omissionParts = report.omitted.map((o) => {
    const lead = itemOfPart.get(Number(o.id))!;
    const members: number[] = [];
    for (let i = units.first[units.unitOf[lead]!]!; i !== -1; i = units.next[i]!) members.push(partOf[i]!);
    return [partOf[lead]!, ...members.filter((k) => k !== partOf[lead])];
  });
  const omitted: number[] = [];
  keep.forEach((k, i) => {
    if (k === 0) omitted.push(partOf[i]!);
  });
  return { report, omissionParts, omitted };
}
