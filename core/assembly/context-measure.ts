import type { ContentBlock, Message, ToolDefinition } from "../messages/index.ts";
import { estimateTextTokens, type TokenEstimator } from "../tokens/estimate.ts";
import { utf8Length } from "../util/utf8.ts";

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
  /** The tool blocks met on the way, so eviction links tool exchanges without walking the messages again. */
  readonly toolBlocks: ToolBlocks;
}

/** Tool blocks in message and block order, as parallel lists. */
export interface ToolBlocks {
  /** Index of the message holding each block. */
  readonly at: number[];
  /** `true` for a `tool_call` (its `id`), `false` for a `tool_result` (its `toolCallId`). */
  readonly isCall: boolean[];
  readonly id: string[];
}

function noteToolBlock(blocks: ToolBlocks, block: ContentBlock, at: number): void {
  if (block.type !== "tool_call" && block.type !== "tool_result") return;
  blocks.at.push(at);
  blocks.isCall.push(block.type === "tool_call");
  blocks.id.push(block.type === "tool_call" ? block.id : block.toolCallId);
}

/**
 * Measures every message, in order: the estimator sees them in the order given, once each,
 * exactly as `measureMessage` would. With the default estimator the measured text is never
 * built: its length and UTF-8 size are sums over the blocks' payloads (joined by a one-byte
 * `\n`; no payload starts or ends with half a surrogate pair next to another, so the sums equal
 * the joined text's counts).
 */
export function measureMessages(messages: readonly Message[], estimate: TokenEstimator): MeasureColumns {
  const count = messages.length;
  const chars = new Float64Array(count);
  const bytes = new Float64Array(count);
  const tokens = new Float64Array(count);
  const toolBlocks: ToolBlocks = { at: [], isCall: [], id: [] };
  for (let i = 0; i < count; i++) {
    const content = messages[i]!.content;
    if (estimate !== estimateTextTokens) {
      const text = messageMeasureText(messages[i]!);
      chars[i] = text.length;
      bytes[i] = utf8Length(text);
      tokens[i] = estimate(text);
      for (let k = 0; k < content.length; k++) noteToolBlock(toolBlocks, content[k]!, i);
      continue;
    }
    // The `\n` separators: one char and one byte each.
    let c = content.length > 1 ? content.length - 1 : 0;
    let b = c;
    for (let k = 0; k < content.length; k++) {
      const block = content[k]!;
      if (block.type === "tool_call") {
        // `<name>(<arguments JSON>)`: the two parentheses are one byte each.
        const json = JSON.stringify(block.arguments) ?? "";
        c += block.name.length + 2 + json.length;
        b += utf8Length(block.name) + 2 + utf8Length(json);
      } else {
        const text = blockText(block);
        c += text.length;
        b += utf8Length(text);
      }
      noteToolBlock(toolBlocks, block, i);
    }
    chars[i] = c;
    bytes[i] = b;
    tokens[i] = Math.ceil(c / 4); // estimateTextTokens of a text `c` units long
  }
  return { chars, bytes, tokens, toolBlocks };
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
