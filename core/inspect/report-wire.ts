/**
 * The report sections of a wire request, from its parts (`requestParts`): its own order and the
 * layout it follows, both layouts re-laid with their next turns, the context budget over its parts,
 * and its system prompt as tier-gated sections.
 */
import { evictParts } from "../cache/part-budget.ts";
import {
  type NextTurnEdit,
  type NextTurnMemo,
  type PartsNextTurn,
  outOfPlace,
  partsAsSent,
  partsNextTurn,
  relayBlocker,
  relayParts,
} from "../cache/part-layout.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";
import type { SegmentedRequest } from "../cache/segments.ts";
import type { Measure } from "../cache/counted.ts";
import type { CacheProvider, NextTurnSimulation, RequestPart } from "../cache/types.ts";
import type { PromptTier } from "../composer/tier-gate-types.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { Message } from "../messages/types.ts";
import type { ContextBudgetJson, TierBudgetJson } from "../request/assembly-request.ts";
import { budgetSection, omissionItem, problemFrom, reportTiers, tierDrops } from "./report-parts.ts";
import type {
  DroppedItem,
  LayoutTrace,
  ReportAssembly,
  ReportContextBudget,
  ReportProblem,
  ReportTiers,
  TracedMessage,
} from "./types.ts";
import { composeInstructions } from "./wire-tiers.ts";

/** How many messages each traced list of a `ReportAssembly` has before the report's cap. */
export interface AssemblyListed {
  readonly legacy: number;
  readonly cache_aware: number;
  readonly asSent: number;
}

export interface WireOptions {
  readonly contextBudget?: ContextBudgetJson | null;
  readonly tiers?: Readonly<Record<string, PromptTier>>;
  readonly tierBudget?: number | null | TierBudgetJson;
  /** Each part's preview (`partPreview`, made once per part by the caller). */
  readonly preview: (part: RequestPart) => string;
  /** The next turn's reply and input; null skips the next-turn simulation. */
  readonly nextTurn: NextTurnEdit | null;
}

export interface WireSections {
  /**
   * The assembly section whose traced lists hold the first `cap` messages of each order (`listed`
   * says how many there are): traced and previewed only up to the cap of the report asked for, so
   * one analysis gives a short report first and a longer one later.
   */
  readonly assembly: (cap: number) => ReportAssembly;
  readonly listed: AssemblyListed;
  readonly nextTurn: NextTurnSimulation | null;
  readonly contextBudget: ReportContextBudget | null;
  readonly tiers: ReportTiers | null;
  readonly dropped: readonly DroppedItem[];
}

const textChars = (m: Message, from: number, to: number) => {
  let n = 0;
  for (let j = from; j < to; j++) {
    const b = m.content[j]!;
    if (b.type === "text" || b.type === "thinking") n += b.text.length;
  }
  return n;
};

/** A part's characters of text (what `TracedMessage.chars` counts). */
const partChars = (request: NormalizedRequest, p: RequestPart) =>
  textChars(request.messages[p.messageIndex!]!, p.firstBlock!, p.endBlock!);

/** The characters of text of the traced messages of `order` (all of them, however many a report keeps). */
function tracedChars(request: NormalizedRequest, parts: readonly RequestPart[], order: readonly number[]): number {
  let chars = 0;
  for (let index = 0; index < order.length; index++) chars += partChars(request, parts[order[index]!]!);
  return chars;
}

/** The first `cap` traced messages of `order` (the report keeps no more: see `WireSections.listed`). */
function traced(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  order: readonly number[],
  cap: number,
  preview: (part: RequestPart) => string,
): TracedMessage[] {
  const messages: TracedMessage[] = [];
  for (let index = 0; index < order.length && index < cap; index++) {
    const p = parts[order[index]!]!;
    const colon = p.source.indexOf(":");
    messages.push({
      index,
      path: p.path,
      part: p.index,
      role: p.role!,
      source: p.source,
      sourceKind: colon < 0 ? p.source : p.source.slice(0, colon),
      chars: partChars(request, p),
      bytes: p.bytes,
      tokens: p.tokens,
      preview: preview(p),
    });
  }
  return messages;
}

/** The bytes and tokens of all the parts: every layout lays out the same parts. */
function partTotals(parts: readonly RequestPart[]): { readonly bytes: number; readonly tokens: number } {
  let bytes = 0;
  let tokens = 0;
  for (let i = 0; i < parts.length; i++) {
    bytes += parts[i]!.bytes;
    tokens += parts[i]!.tokens;
  }
  return { bytes, tokens };
}

export function wireSections(
  request: NormalizedRequest,
  seg: SegmentedRequest,
  parts: readonly RequestPart[],
  provider: CacheProvider,
  measure: Measure,
  options: WireOptions,
  problems: ReportProblem[],
): WireSections {
  const cannotRelay = relayBlocker(parts);
  const misplaced = { cache_aware: outOfPlace(parts, "cache_aware"), legacy: outOfPlace(parts, "legacy") };
  const follows = (["cache_aware", "legacy"] as const).filter((l) => misplaced[l] === null);
  const sentOrder = partsAsSent(parts);
  const listed = { legacy: 0, cache_aware: 0, asSent: sentOrder.length };
  // Each layout's order (null: the order as sent, which it follows) and its figures over all its parts.
  const relaid: {
    readonly layout: InputAssemblyLayout;
    readonly order: readonly number[] | null;
    readonly chars: number;
  }[] = [];
  const totals = partTotals(parts);
  if (cannotRelay === null) {
    for (const l of ["legacy", "cache_aware"] as const) {
      const order = relayParts(parts, l);
      const same = order.length === sentOrder.length && order.every((k, i) => k === sentOrder[i]);
      relaid.push({ layout: l, order: same ? null : order, chars: tracedChars(request, parts, order) });
      listed[l] = order.length;
    }
  }

  let nextTurn: NextTurnSimulation | null = null;
  let asSentNext: PartsNextTurn | null = null;
  if (options.nextTurn) {
    const edit = options.nextTurn;
    try {
      const basis = follows[0] ?? "appended";
      // One memo for the three orders: a request that follows both layouts is simulated once.
      const memo: NextTurnMemo = [];
      asSentNext = partsNextTurn(request, parts, basis, edit, provider, measure, seg, memo);
      if (cannotRelay === null) {
        const pair = (l: InputAssemblyLayout) => {
          const { basis: _b, ...rest } = partsNextTurn(request, parts, l, edit, provider, measure, seg, memo);
          return { layout: l, ...rest };
        };
        nextTurn = { provider, legacy: pair("legacy"), cache_aware: pair("cache_aware") };
      }
    } catch (e) {
      problems.push(problemFrom("cache", e, "warning"));
    }
  }

  const assembly = (cap: number): ReportAssembly => {
    const sent = traced(request, parts, sentOrder, cap, options.preview);
    const layouts: Partial<Record<InputAssemblyLayout, LayoutTrace>> = {};
    for (const { layout, order, chars } of relaid)
      layouts[layout] = {
        layout,
        // A layout the request already follows has its very rows: shared instead of copied.
        messages: order === null ? sent : traced(request, parts, order, cap, options.preview),
        omissions: [],
        totalChars: chars,
        totalBytes: totals.bytes,
        totalTokens: totals.tokens,
      };
    return {
      selectedLayout: follows.length === 1 ? follows[0]! : "cache_aware",
      legacy: layouts.legacy ?? null,
      cache_aware: layouts.cache_aware ?? null,
      asSent: {
        messages: sent,
        follows,
        outOfPlace: misplaced,
        cannotRelay,
        nextTurn: asSentNext,
      },
    };
  };

  const dropped: DroppedItem[] = [];
  let contextBudget: ReportContextBudget | null = null;
  if (options.contextBudget) {
    try {
      const b = evictParts(parts, request, options.contextBudget);
      const omitted = b.report.omitted.map((o, i) => omissionItem(o, b.report, parts[b.omissionParts[i]![0]!]!.path));
      contextBudget = budgetSection(b.report, omitted, b.omitted);
      dropped.push(...omitted);
    } catch (e) {
      problems.push(problemFrom("budget", e));
    }
  }

  let tiers: ReportTiers | null = null;
  try {
    const composed = composeInstructions(request, parts, options.tiers, options.tierBudget);
    if (composed) {
      tiers = reportTiers(composed.tiers, "instructions", composed.sources);
      dropped.unshift(...tierDrops(tiers));
    }
  } catch (e) {
    problems.push(problemFrom("tiers", e));
  }
  return { assembly, listed, nextTurn, contextBudget, tiers, dropped };
}
