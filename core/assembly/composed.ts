import { evictionRank } from "./context-eviction.ts";
import type { UnlabeledInputGroups } from "./input-groups.ts";
import { LAYOUT_GROUP_ORDER } from "./layouts.ts";
import type { InputAssemblyLayout } from "./types.ts";
import type { Message } from "../messages/index.ts";
import type { Composition } from "./prompt-builder.ts";
import type { SourcedMessage } from "./sources.ts";

/** The composed prompt by position: its messages, each one's eviction rank, and its label on demand. */
export interface ComposedPrompt {
  readonly messages: readonly Message[];
  ranks(): Int8Array;
  itemAt(p: number): SourcedMessage;
}

/** A prompt composed as labeled items (custom builders, middleware, traces, reports). */
export function sourcedPrompt(items: readonly SourcedMessage[]): ComposedPrompt {
  return {
    messages: items.map((item) => item.message),
    ranks: () => Int8Array.from(items, (item) => evictionRank(item.source)),
    itemAt: (p) => items[p]!,
  };
}

/** More input messages than this: look for them in the history by identity instead (see `historyHoldsInput`). */
const MAX_INPUT_SCANS = 16;

/** The default input builder's messages in layout order, labeled by position (see `flatInput`). */
export interface FlatInput {
  readonly messages: Message[];
  /** The leading instructions (first in every layout). */
  readonly instructionCount: number;
  historyHoldsInput(): boolean;
  ranks(): Int8Array;
  itemAt(j: number): SourcedMessage;
}

/**
 * The default input builder's groups in layout order, labeled by position: no item per history
 * message and no Map over them. Only for a pipeline that keeps that order (no middleware, no
 * context providers, no session tail) and shows no label (no trace, no omission report): a
 * history object that repeats is then labeled by each position rather than the first (the
 * identity rule of `ProvenanceMap`), and eviction reads only a label's kind, which is the same.
 * The one case where the kind differs, an input object also in the history (labeled `input`, so
 * protected), is what `historyHoldsInput` detects.
 */
export function flatInput(groups: UnlabeledInputGroups, layout: InputAssemblyLayout): FlatInput {
  const order = LAYOUT_GROUP_ORDER[layout];
  const at = order.indexOf("history");
  const { history, input } = groups;
  const itemsOf = (names: readonly (typeof order)[number][]) =>
    names.flatMap((name) => (name === "history" ? [] : groups[name]));
  const before = itemsOf(order.slice(0, at));
  const after = itemsOf(order.slice(at + 1));
  const start = before.length;
  const end = start + history.length;
  const itemAt = (j: number): SourcedMessage =>
    j < start
      ? before[j]!
      : j >= end
        ? after[j - end]!
        : { message: history.at(j - start), source: `history:${j - start}` };
  const message = (item: SourcedMessage) => item.message;
  return {
    // One list, made at its final size from the snapshot's lists.
    messages: before.map(message).concat(...history.chunks, after.map(message)),
    instructionCount: groups.instructions.length,
    historyHoldsInput: () => input.length > MAX_INPUT_SCANS || input.some((item) => history.includes(item.message)),
    ranks() {
      const ranks = new Int8Array(end + after.length).fill(evictionRank("history:0"), start, end);
      before.forEach((item, j) => (ranks[j] = evictionRank(item.source)));
      after.forEach((item, j) => (ranks[end + j] = evictionRank(item.source)));
      return ranks;
    },
    itemAt,
  };
}

/** The default composition of `input`'s messages, by position: `messages[0..lead)`, the inserted items, `messages[lead..)`. */
export function positionalPrompt(input: FlatInput, { messages, lead, inserted }: Composition): ComposedPrompt {
  const count = inserted.length;
  // Nothing inserted: `input.messages` is this call's own array already (one copy fewer of a
  // 100,000-message history, which V8 allocates outside the young generation at a cost per page).
  let out = input.messages;
  if (count > 0) {
    out = new Array<Message>(messages.length + count);
    for (let j = 0; j < lead; j++) out[j] = messages[j]!;
    for (let k = 0; k < count; k++) out[lead + k] = inserted[k]!.message;
    for (let j = lead; j < messages.length; j++) out[j + count] = messages[j]!;
  }
  return {
    messages: out,
    ranks() {
      const ranks = new Int8Array(out.length);
      const own = input.ranks();
      ranks.set(own.subarray(0, lead));
      inserted.forEach((item, k) => (ranks[lead + k] = evictionRank(item.source)));
      ranks.set(own.subarray(lead), lead + count);
      return ranks;
    },
    itemAt: (p) => (p < lead ? input.itemAt(p) : p < lead + count ? inserted[p - lead]! : input.itemAt(p - count)),
  };
}
