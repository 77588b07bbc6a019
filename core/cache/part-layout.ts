/**
 * Layouts over the parts of a wire request (`requestParts`): which of Strata's input layouts the
 * request's own order follows, the same parts re-laid in a layout, the request rebuilt from parts
 * in any order (for export in its own wire format), and the next turn in each order.
 *
 * The group orders are the assembly's: `LAYOUT_GROUP_ORDER` for the input groups, with context
 * placed as the prompt builder places context blocks (after the leading instructions in
 * `cache_aware`, ahead of every message in `legacy`).
 */
import { LAYOUT_GROUP_ORDER } from "../assembly/layouts.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ContentBlock, Message } from "../messages/types.ts";
import { compareTurns, toTurn } from "./compare.ts";
import { estimatorMeasure, type Measure } from "./counted.ts";
import type { SegmentRecord } from "./segment-record.ts";
import { type SegmentedRequest, segmentLazily } from "./segments.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";
import type { CacheProvider, LayoutNextTurn, RequestPart, Segment, TokenEstimator } from "./types.ts";

export type PartGroup = "instructions" | "context" | "attachments" | "summaries" | "history" | "toolResults" | "input";

/** Group order of each layout, context included. */
export const PART_GROUP_ORDER: Readonly<Record<InputAssemblyLayout, readonly PartGroup[]>> = {
  cache_aware: ["instructions", "context", ...LAYOUT_GROUP_ORDER.cache_aware.slice(1)],
  legacy: ["context", ...LAYOUT_GROUP_ORDER.legacy],
};

const GROUP_OF: Readonly<Record<string, PartGroup>> = {
  instructions: "instructions",
  context: "context",
  attachment: "attachments",
  summary: "summaries",
  history: "history",
  toolResult: "toolResults",
  input: "input",
};

/** The input group of a message part (by its provenance label); null for tools and `unknown` parts. */
export function partGroup(part: RequestPart): PartGroup | null {
  if (part.messageIndex === null) return null;
  const colon = part.source.indexOf(":");
  return GROUP_OF[colon < 0 ? part.source : part.source.slice(0, colon)] ?? null;
}

/**
 * What the layouts ask of one parts list, worked out once: `partGroup` of every part, by position,
 * and each layout's order (`relayParts`). An inspection asks for the groups of the same parts about
 * ten times (two layout checks, two re-layings, three next turns), and a 5 MB request has tens of
 * thousands of parts. A parts list is never changed after `requestParts` makes it, so what is kept
 * stays valid as long as the list lives.
 */
interface PartsLayoutMemo {
  readonly groups: readonly (PartGroup | null)[];
  readonly relaid: Partial<Record<InputAssemblyLayout, readonly number[]>>;
}
const layoutMemos = new WeakMap<readonly RequestPart[], PartsLayoutMemo>();

function layoutMemo(parts: readonly RequestPart[]): PartsLayoutMemo {
  let memo = layoutMemos.get(parts);
  if (memo === undefined) {
    memo = { groups: parts.map(partGroup), relaid: {} };
    layoutMemos.set(parts, memo);
  }
  return memo;
}

/** The first message part out of place for a layout: it sits after a part the layout puts behind it. */
export interface OutOfPlace {
  readonly part: number;
  readonly path: string;
  readonly kind: string;
  /** The part it comes after. */
  readonly afterPath: string;
  readonly afterKind: string;
  readonly message: string;
}

const GROUP_WORDS: Readonly<Record<PartGroup, string>> = {
  instructions: "instructions",
  context: "context",
  attachments: "attachments",
  summaries: "summaries",
  history: "history",
  toolResults: "tool results",
  input: "the current input",
};

/**
 * Does the parts' own order follow `layout`? Walks the message parts once; `unknown` parts sit
 * anywhere. Returns the first part out of place, or null.
 */
export function outOfPlace(parts: readonly RequestPart[], layout: InputAssemblyLayout): OutOfPlace | null {
  const order = PART_GROUP_ORDER[layout];
  const { groups } = layoutMemo(parts);
  let max = -1;
  let maxPart: RequestPart | null = null;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const g = groups[i]!;
    if (g === null) continue;
    const rank = order.indexOf(g);
    if (rank < max && maxPart) {
      const ahead = order.slice(rank + 1, max + 1).map((x) => GROUP_WORDS[x]);
      return {
        part: p.index,
        path: p.path,
        kind: p.kind,
        afterPath: maxPart.path,
        afterKind: maxPart.kind,
        message: `${p.path} (${p.kind}) comes after ${maxPart.path} (${maxPart.kind}); ${layout} puts ${GROUP_WORDS[g]} before ${ahead.join(", ")}.`,
      };
    }
    if (rank >= max) {
      // The latest part of the furthest group so far: the one the misplaced part is named after.
      max = rank;
      maxPart = p;
    }
  }
  return null;
}

/** Why the parts cannot be re-laid, or null when they can: a part of unknown kind has no place in a layout. */
export function relayBlocker(parts: readonly RequestPart[]): string | null {
  const odd = parts.find((p) => p.kind === "unknown");
  return odd
    ? `${odd.path} is of a kind Strata cannot tell (${odd.rule.replace(/^\d+: /, "")}), so it has no place in a layout.`
    : null;
}

/**
 * The message parts' indexes in `layout`'s group order; within a group the request's own order is
 * kept (a stable bucket pass, linear). Tool parts are not listed (the catalog does not move).
 * Check `relayBlocker` first: `unknown` parts are left out.
 */
export function relayParts(parts: readonly RequestPart[], layout: InputAssemblyLayout): number[] {
  const memo = layoutMemo(parts);
  let relaid = memo.relaid[layout];
  if (relaid === undefined) {
    // Counted, then placed: each group's parts from the offset where the groups before it end (no
    // bucket lists to flatten: `flat()` walked 10,000s of indexes generically).
    const order = PART_GROUP_ORDER[layout];
    const groups = memo.groups;
    const starts = new Array<number>(order.length + 1).fill(0);
    for (let i = 0; i < parts.length; i++) {
      const g = groups[i]!;
      if (g !== null) starts[order.indexOf(g) + 1]!++;
    }
    for (let r = 1; r <= order.length; r++) starts[r]! += starts[r - 1]!;
    const placed = new Array<number>(starts[order.length]!).fill(0);
    for (let i = 0; i < parts.length; i++) {
      const g = groups[i]!;
      if (g !== null) placed[starts[order.indexOf(g)]!++] = parts[i]!.index;
    }
    relaid = memo.relaid[layout] = placed;
  }
  // A copy: the caller may change its order; the kept one stays as made.
  return relaid.slice();
}

/** The message parts' indexes in the request's own order. */
export function partsAsSent(parts: readonly RequestPart[]): number[] {
  // Counted, then filled: a list grown by push to 10,000s of indexes copies itself over and over.
  let n = 0;
  for (let i = 0; i < parts.length; i++) if (parts[i]!.messageIndex !== null) n++;
  const sent = new Array<number>(n);
  n = 0;
  for (let i = 0; i < parts.length; i++) if (parts[i]!.messageIndex !== null) sent[n++] = parts[i]!.index;
  return sent;
}

/**
 * The request with its messages rebuilt from `order` (indexes of message parts): each part is its
 * message's blocks `[firstBlock, endBlock)` under the message's role, name and wire fields; parts of
 * one message that follow each other with no gap become one message again. Tools and options are
 * kept. With the parts in their own order and none left out, this is the request itself.
 */
export function requestFromParts(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  order: readonly number[],
): NormalizedRequest {
  const messages: Message[] = [];
  let last: { message: number; end: number; content: ContentBlock[] } | null = null;
  for (const k of order) {
    const p = parts[k];
    if (!p || p.messageIndex === null) continue;
    const m = request.messages[p.messageIndex]!;
    const blocks = m.content.slice(p.firstBlock!, p.endBlock!);
    if (last && last.message === p.messageIndex && last.end === p.firstBlock) {
      last.content.push(...blocks);
      last.end = p.endBlock!;
      continue;
    }
    const content = [...blocks];
    messages.push({ ...m, content });
    last = { message: p.messageIndex, end: p.endBlock!, content };
  }
  return { ...request, messages };
}

/** What a next turn adds: the assistant's reply and the user's next input. */
export interface NextTurnEdit {
  readonly reply: Message;
  readonly nextInput: readonly Message[];
}

/** `LayoutNextTurn` for an order that may also be `appended`. */
export type PartsNextTurn = Omit<LayoutNextTurn, "layout"> & { readonly basis: InputAssemblyLayout | "appended" };

/**
 * `seg` with `tail` appended as further messages, without segmenting `seg`'s request again: the
 * tail is segmented alone and shifted behind it (indexes, byte offsets, message paths; `shift` is
 * the number of messages `seg` holds). Valid for
 * messages that are not system messages (providers that hoist the system prompt keep it in front).
 */
function appendSegments(
  seg: SegmentedRequest,
  request: NormalizedRequest,
  shift: number,
  tail: readonly Message[],
  provider: CacheProvider,
  estimate: TokenEstimator,
): SegmentedRequest {
  const own = segmentLazily({ model: request.model, tools: [], messages: tail }, provider, estimate);
  const segments: Segment[] = seg.segments.slice();
  const by = seg.segments.length;
  for (const s of own.segments as readonly SegmentRecord[]) segments.push(s.shifted(by, seg.totalBytes, shift));
  return {
    ...seg,
    segments,
    texts: seg.texts.concat(own.texts),
    totalBytes: seg.totalBytes + own.totalBytes,
    totalTokens: seg.totalTokens + own.totalTokens,
  };
}

/** Next turns already simulated for one request, by their orders (see `partsNextTurn`). */
export type NextTurnMemo = {
  readonly thisOrder: readonly number[];
  readonly plan: readonly number[];
  readonly result: Omit<PartsNextTurn, "basis">;
}[];

/** A slot of a next-turn plan: a part index, or the reply / the next input. */
const REPLY = -1;
const NEXT_INPUT = -2;

/**
 * This turn's order and the next turn's plan under `basis`. `layout`: the next turn is laid out by
 * the same rules (this turn's input and tool results join the history in the order this layout sent
 * them, followed by the reply; the next input is the input; every other group stays). `appended`:
 * the next turn is this request with the reply and the next input appended, as a client that only
 * ever appends would send it.
 */
function nextTurnPlan(
  parts: readonly RequestPart[],
  basis: InputAssemblyLayout | "appended",
): { thisOrder: number[]; plan: number[] } {
  if (basis === "appended") {
    const thisOrder = partsAsSent(parts);
    return { thisOrder, plan: [...thisOrder, REPLY, NEXT_INPUT] };
  }
  const thisOrder = relayParts(parts, basis);
  const all = layoutMemo(parts).groups;
  // Every part of this order once, the reply and the next input: filled by index, not grown.
  const plan = new Array<number>(thisOrder.length + 2);
  let n = 0;
  for (const g of PART_GROUP_ORDER[basis]) {
    if (g === "history") {
      for (let i = 0; i < thisOrder.length; i++) {
        const own = all[thisOrder[i]!];
        if (own === "history" || own === "toolResults" || own === "input") plan[n++] = thisOrder[i]!;
      }
      plan[n++] = REPLY;
    } else if (g === "input") plan[n++] = NEXT_INPUT;
    else if (g !== "toolResults")
      for (let i = 0; i < thisOrder.length; i++) if (all[thisOrder[i]!] === g) plan[n++] = thisOrder[i]!;
  }
  plan.length = n;
  return { thisOrder, plan };
}

const sameOrder = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * This turn and the next in one order (see `nextTurnPlan`), compared. `current`, the request
 * segmented in its own order, is reused when this turn's order is the request's own, and lends
 * its hashes to the next turn (`segmentWith`'s twin): the common prefix is compared, not rehashed.
 * `memo` shares results between bases whose orders and plans coincide (a request that follows
 * both layouts): pass the same map to every call for one request.
 */
export function partsNextTurn(
  request: NormalizedRequest,
  parts: readonly RequestPart[],
  basis: InputAssemblyLayout | "appended",
  edit: NextTurnEdit,
  provider: CacheProvider,
  measured: Measure | TokenEstimator,
  current?: SegmentedRequest,
  memo?: NextTurnMemo,
): PartsNextTurn {
  // An estimator (already checked) measures as segmentRequest does; a Measure as the analysis does.
  const measure = typeof measured === "function" ? estimatorMeasure(provider, measured) : measured;
  const estimate = measure.partial;
  const { thisOrder, plan } = nextTurnPlan(parts, basis);
  const known = memo?.find((m) => sameOrder(m.thisOrder, thisOrder) && sameOrder(m.plan, plan));
  if (known) return { basis, ...known.result };
  const asSent = current !== undefined && sameOrder(thisOrder, partsAsSent(parts));
  const firstRequest = asSent ? request : requestFromParts(request, parts, thisOrder);
  const firstSeg = asSent ? current : measure.segment(firstRequest, current);
  const tail = [edit.reply, ...edit.nextInput];
  // The common case, a next turn that only appends to this one: segment just the new messages.
  const appends =
    plan.length === thisOrder.length + 2 && plan[thisOrder.length] === REPLY && sameOrder(plan.slice(0, -2), thisOrder);
  let second: SegmentedRequest;
  // Counted tokens depend on the framing around the end of the request: count the next turn whole.
  if (appends && measure.source === "counted")
    second = measure.segment({ ...firstRequest, messages: [...firstRequest.messages, ...tail] }, firstSeg);
  else if (appends) second = appendSegments(firstSeg, request, firstRequest.messages.length, tail, provider, estimate);
  else {
    const messages: Message[] = [];
    for (let i = 0; i < plan.length; ) {
      const k = plan[i]!;
      if (k === REPLY || k === NEXT_INPUT) {
        messages.push(...(k === REPLY ? [edit.reply] : edit.nextInput));
        i++;
        continue;
      }
      let j = i;
      while (j < plan.length && plan[j]! >= 0) j++;
      messages.push(...requestFromParts(request, parts, plan.slice(i, j)).messages);
      i = j;
    }
    second = measure.segment({ ...request, messages }, firstSeg);
  }
  const a = toTurn(firstSeg, provider, estimate);
  const b = toTurn(second, provider, estimate);
  const comparison = compareTurns(a, b, { provider }, estimate);
  const result = {
    turn: comparison.previous,
    nextTurn: comparison.next,
    comparison,
    stablePrefixRatio:
      comparison.next.bytes === 0
        ? 0
        : Math.round((comparison.commonPrefix.bytes / comparison.next.bytes) * 10_000) / 10_000,
  };
  memo?.push({ thisOrder, plan, result });
  return { basis, ...result };
}
