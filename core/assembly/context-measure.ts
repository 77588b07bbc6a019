import type { ContentBlock, Message, ToolDefinition } from "../messages/index.ts";
import { estimateTextTokens, type TokenEstimator } from "../tokens/estimate.ts";
import { type JsonSize, sizeJson } from "../util/json-size.ts";
import { utf8Length } from "../util/utf8.ts";
import { StringIndex } from "../util/string-index.ts";
import { IntList } from "../util/int-list.ts";

/**
 * How Strata sizes a prompt. Each message is measured once through its *measured text*:
 * its blocks' payloads joined with `\n` —
 * text/thinking: the text; tool_call: `<name>(<arguments JSON>)`; tool_result: the result
 * (strings verbatim, anything else as JSON); image/audio/file: `data` or `url`;
 * document: `text`, `data` or `url`. Role names and JSON framing are not counted.
 * Native tool schemas (sent in `request.tools`) are measured as `JSON.stringify(tools)`.
 */
export interface Measure {
  /** UTF-16 code units of the measured text (JavaScript `length`). */
  readonly chars: number;
  /** UTF-8 bytes of the measured text, as `TextEncoder` would write it. */
  readonly bytes: number;
  /** Estimated tokens (the budget's estimator). */
  readonly tokens: number;
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
    case "thinking":
      return block.text;
    case "tool_call":
      return `${block.name}(${JSON.stringify(block.arguments) ?? ""})`;
    case "tool_result":
      return typeof block.result === "string" ? block.result : (JSON.stringify(block.result) ?? "");
    case "document":
      return block.text ?? block.data ?? block.url ?? "";
    case "opaque":
      return JSON.stringify(block.value) ?? "";
    default:
      return block.data ?? block.url ?? "";
  }
}

export function messageMeasureText(message: Message): string {
  const content = message.content;
  if (content.length === 1) return blockText(content[0]!);
  let out = "";
  for (let i = 0; i < content.length; i++) out += i === 0 ? blockText(content[i]!) : `\n${blockText(content[i]!)}`;
  return out;
}

/**
 * Measures of many messages as columns indexed like the messages: no object per message, so a
 * 100,000-message history adds a few typed arrays to the heap instead of 100,000 objects.
 */
export interface MeasureColumns {
  readonly chars: Float64Array;
  readonly bytes: Float64Array;
  readonly tokens: Float64Array;
  /**
   * The tool exchanges, so eviction groups them without walking the messages again: either the
   * tool blocks as met, or (from `measureMessages`) already paired.
   */
  readonly toolBlocks: ToolBlocks | ToolLinks;
}

/** Tool blocks in message and block order, as parallel lists. */
export interface ToolBlocks {
  /** Index of the message holding each block. */
  readonly at: number[];
  /** `true` for a `tool_call` (its `id`), `false` for a `tool_result` (its `toolCallId`). */
  readonly isCall: boolean[];
  readonly id: string[];
}

/**
 * Tool results already paired with their calls: the message at `result[k]` answers a call in the
 * message at `call[k]`, the first message that names that call id. Results naming no call are left out.
 */
export interface ToolLinks {
  readonly result: ArrayLike<number>;
  readonly call: ArrayLike<number>;
}

/**
 * Pairs tool results with calls in one forward pass, while each block is at hand (at 100,000
 * messages a second walk over the ids costs a cache miss per id). A call id is owned by the first
 * message naming it; a result met before any call with its id waits until the end.
 */
class ToolLinker {
  // Message indexes, in typed arrays: at 100,000 messages JavaScript lists grown by push made
  // ~760 KB of large-object copies per call (see `IntList`).
  readonly #result = new IntList(64);
  readonly #call = new IntList(64);
  readonly #owner = new StringIndex(64);
  readonly #waitingAt: number[] = [];
  readonly #waitingId: string[] = [];

  /** A `tool_call` (`isCall`, its `id`) or a `tool_result` (its `toolCallId`) in message `at`. */
  note(isCall: boolean, id: string, at: number): void {
    if (isCall) {
      this.#owner.add(id, at);
      return;
    }
    const owner = this.#owner.get(id);
    if (owner === -1) {
      this.#waitingAt.push(at);
      this.#waitingId.push(id);
    } else this.#link(at, owner);
  }

  noteBlock(block: ContentBlock, at: number): void {
    if (block.type === "tool_call") this.note(true, block.id, at);
    else if (block.type === "tool_result") this.note(false, block.toolCallId, at);
  }

  /** The links, once every tool block was noted. */
  done(): ToolLinks {
    for (let k = 0; k < this.#waitingAt.length; k++) {
      const owner = this.#owner.get(this.#waitingId[k]!);
      if (owner !== -1) this.#link(this.#waitingAt[k]!, owner);
    }
    return { result: this.#result.values(), call: this.#call.values() };
  }

  #link(result: number, call: number): void {
    if (result === call) return;
    this.#result.push(result);
    this.#call.push(call);
  }
}

/** `ToolBlocks` paired as `measureMessages` pairs them. */
export function linkToolBlocks(blocks: ToolBlocks): ToolLinks {
  const linker = new ToolLinker();
  for (let t = 0; t < blocks.at.length; t++) linker.note(blocks.isCall[t]!, blocks.id[t]!, blocks.at[t]!);
  return linker.done();
}

/**
 * Measures every message, in order: the estimator sees them in the order given, once each,
 * exactly as `measureMessage` would. With the default estimator the measured text is never
 * built: its length and UTF-8 size are sums over the blocks' payloads (joined by a one-byte
 * `\n`; no payload starts or ends with half a surrogate pair next to another, so the sums equal
 * the joined text's counts), and JSON payloads (tool arguments, structured results) are sized
 * without being written (`sizeJson`). Without `withBytes` the UTF-8 sizes are not counted
 * (`bytes` stays all 0): for a caller that neither caps bytes nor shows them, which then never
 * reads the text payloads' characters at all (at 100,000 messages that is most of the memory
 * traffic).
 */
export function measureMessages(
  messages: readonly Message[],
  estimate: TokenEstimator,
  withBytes = true,
): MeasureColumns {
  const count = messages.length;
  const chars = new Float64Array(count);
  const bytes = new Float64Array(count);
  const tokens = new Float64Array(count);
  const tools = new ToolLinker();
  const json: JsonSize = { chars: 0, bytes: 0 };
  for (let i = 0; i < count; i++) {
    const content = messages[i]!.content;
    if (estimate !== estimateTextTokens) {
      const text = messageMeasureText(messages[i]!);
      chars[i] = text.length;
      if (withBytes) bytes[i] = utf8Length(text);
      tokens[i] = estimate(text);
      for (let k = 0; k < content.length; k++) tools.noteBlock(content[k]!, i);
      continue;
    }
    // The `\n` separators: one char and one byte each.
    let c = content.length > 1 ? content.length - 1 : 0;
    let b = c;
    for (let k = 0; k < content.length; k++) {
      const block = content[k]!;
      const type = block.type;
      if (type === "tool_call") {
        // `<name>(<arguments JSON>)`: the two parentheses are one byte each.
        sizeJson(block.arguments, json, withBytes);
        c += block.name.length + 2 + json.chars;
        if (withBytes) b += utf8Length(block.name) + 2 + json.bytes;
      } else if ((type === "tool_result" && typeof block.result !== "string") || type === "opaque") {
        sizeJson(type === "opaque" ? block.value : block.result, json, withBytes);
        c += json.chars;
        b += json.bytes;
      } else {
        const text = blockText(block);
        c += text.length;
        if (withBytes) b += utf8Length(text);
      }
      tools.noteBlock(block, i);
    }
    chars[i] = c;
    if (withBytes) bytes[i] = b;
    tokens[i] = Math.ceil(c / 4); // estimateTextTokens of a text `c` units long
  }
  return { chars, bytes, tokens, toolBlocks: tools.done() };
}

/** Row `i` of `columns` as a `Measure`. */
export const measureAt = (columns: MeasureColumns, i: number): Measure => ({
  chars: columns.chars[i]!,
  bytes: columns.bytes[i]!,
  tokens: columns.tokens[i]!,
});

export function measureText(text: string, estimate: TokenEstimator): Measure {
  return { chars: text.length, bytes: utf8Length(text), tokens: estimate(text) };
}

export const measureMessage = (message: Message, estimate: TokenEstimator = estimateTextTokens): Measure =>
  measureText(messageMeasureText(message), estimate);

export const measureToolSchemas = (
  tools: readonly ToolDefinition[],
  estimate: TokenEstimator = estimateTextTokens,
): Measure => measureText(JSON.stringify(tools), estimate);
