/**
 * The segments of a request in a provider's prompt order, exactly as the cache layer's
 * `segmentRequest` cuts them (tools, the tool-choice setting, then each message as a header
 * segment followed by one segment per content block), so token counts line up with segments by
 * index and path. The cache layer sits above this one and cannot be imported here: the order
 * is restated, and a test checks both agree on every sample request.
 *
 * - openai: tools → tool_choice → messages in request order.
 * - anthropic (and Bedrock Converse): tools → leading system messages → tool_choice → the rest.
 * - gemini: tools → toolConfig → leading system messages → the rest.
 *
 * Only the leading system messages fill the system slot; a later one (a loaded skill) stays in
 * place, written by the converters as a marked user turn.
 */
import { leadingSystemCount } from "../formats/system-placement.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { contentPath, messagePath } from "../util/paths.ts";
import type { SegmentTokens } from "./types.ts";

/** The prompt order a counter follows: the cache providers' three orders. */
export type SegmentOrder = "openai" | "anthropic" | "gemini";

/** What a segment is: a tool, the tool-choice setting, a message (its header) or a content block. */
type SegmentKind = SegmentTokens["kind"];

/** The segment kinds, by the code a `SegmentWalk` keeps for each. */
const WALK_KINDS: readonly SegmentKind[] = ["tool", "tool_choice", "message", "block"];
const TOOL = 0;
const CHOICE = 1;
const MESSAGE = 2;
const BLOCK = 3;

/**
 * The request's segments in `order` (from message `from` on: only the messages' segments), kept
 * as three numbers each instead of an object and a path: a count walks 100,000 segments of a long
 * chat, and an object and a path string per segment were most of what it allocated. The path is written only
 * when asked for (a note, or a count's `perSegment` when read). Holds no reference to the request:
 * a reader takes segment `i`'s tool, message or block from the request the walk was made for.
 */
export class SegmentWalk {
  readonly length: number;
  /** Where the tool-choice setting sits in the provider options. */
  readonly choiceKey: "tool_choice" | "toolConfig";
  readonly #codes: Uint8Array;
  /** The tool's or the message's index. */
  readonly #first: Int32Array;
  /** The block's index in its message. */
  readonly #second: Int32Array;

  constructor(request: NormalizedRequest, order: SegmentOrder, from = -1) {
    const messages = request.messages;
    this.choiceKey = order === "gemini" ? "toolConfig" : "tool_choice";
    const own = from < 0;
    const tools = own ? request.tools.length : 0;
    const hasChoice = own && (request.providerOptions ?? {})[this.choiceKey] !== undefined;
    // Every order lists the messages in request order; the tool choice goes before them, except
    // Anthropic's, which puts it after the leading system messages.
    const choiceAt = hasChoice ? (order === "anthropic" ? leadingSystemCount(messages) : 0) : -1;
    const start = own ? 0 : from;
    let n = tools + (hasChoice ? 1 : 0);
    for (let i = start; i < messages.length; i++) n += 1 + messages[i]!.content.length;
    this.length = n;
    const codes = (this.#codes = new Uint8Array(n));
    const first = (this.#first = new Int32Array(n));
    const second = (this.#second = new Int32Array(n));
    let k = 0;
    for (let t = 0; t < tools; t++) {
      codes[k] = TOOL;
      first[k++] = t;
    }
    for (let i = start; i <= messages.length; i++) {
      if (i === choiceAt) codes[k++] = CHOICE;
      if (i === messages.length) break;
      codes[k] = MESSAGE;
      first[k++] = i;
      const blocks = messages[i]!.content.length;
      for (let j = 0; j < blocks; j++) {
        codes[k] = BLOCK;
        first[k] = i;
        second[k++] = j;
      }
    }
  }

  kind(i: number): SegmentKind {
    return WALK_KINDS[this.#codes[i]!]!;
  }

  /** The tool's index (a tool segment) or the message's (a message or block segment). */
  index(i: number): number {
    return this.#first[i]!;
  }

  /** The block's index in its message (a block segment). */
  block(i: number): number {
    return this.#second[i]!;
  }

  /** The segment's path (`tools[0]`, `providerOptions.tool_choice`, `messages[2]`, `messages[2].content[0]`). */
  path(i: number): string {
    switch (this.#codes[i]) {
      case TOOL:
        return `tools[${this.#first[i]}]`;
      case CHOICE:
        return `providerOptions.${this.choiceKey}`;
      case MESSAGE:
        return messagePath(this.#first[i]!);
      default:
        return contentPath(this.#first[i]!, this.#second[i]!);
    }
  }
}
