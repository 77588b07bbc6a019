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
  /** Entries the report keeps of each traced list: only those get previews. */
  readonly listCap: number;
  /** Each part's preview (`partPreview`, made once per part by the caller). */
  readonly preview: (part: RequestPart) => string;
  /** The next turn's reply and input; null skips the next-turn simulation. */
  readonly nextTurn: NextTurnEdit | null;
}

export interface WireSections {
  /** Its traced lists hold the first `listCap` messages of each order; `listed` says how many there are. */
  readonly assembly: ReportAssembly;
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

/**
 * The first `cap` traced messages of `order` (the report keeps no more: see `WireSections.listed`
 * for how many there are), and the characters of text of all of them.
 */
function traced(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  order: readonly number[],
  { listCap: cap, preview }: WireOptions,
): { readonly messages: TracedMessage[]; readonly chars: number } {
  const messages: TracedMessage[] = [];
  let chars = 0;
  for (let index = 0; index < order.length; index++) {
    const p = parts[order[index]!]!;
    const own = partChars(request, p);
    chars += own;
    if (index >= cap) continue;
    const colon = p.source.indexOf(":");
    messages.push({
      index,
      path: p.path,
      part: p.index,
      role: p.role!,
      source: p.source,
      sourceKind: colon < 0 ? p.source : p.source.slice(0, colon),
      chars: own,
      bytes: p.bytes,
      tokens: p.tokens,
      preview: preview(p),
    });
  }
  return { messages, chars };
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
  const sent = traced(request, parts, sentOrder, options);
  const layouts: Partial<Record<InputAssemblyLayout, LayoutTrace>> = {};
  const listed = { legacy: 0, cache_aware: 0, asSent: sentOrder.length };
  if (cannotRelay === null) {
    const { bytes, tokens } = partTotals(parts);
    for (const l of ["legacy", "cache_aware"] as const) {
      const order = relayParts(parts, l);
      // A layout the request already follows has its very rows: share them instead of copying.
      const same = order.length === sentOrder.length && order.every((k, i) => k === sentOrder[i]);
      const { messages, chars } = same ? sent : traced(request, parts, order, options);
      layouts[l] = { layout: l, messages, omissions: [], totalChars: chars, totalBytes: bytes, totalTokens: tokens };
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

  const assembly: ReportAssembly = {
    selectedLayout: follows.length === 1 ? follows[0]! : "cache_aware",
    legacy: layouts.legacy ?? null,
    cache_aware: layouts.cache_aware ?? null,
    asSent: {
      messages: sent.messages,
      follows,
      outOfPlace: misplaced,
      cannotRelay,
      nextTurn: asSentNext,
    },
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
