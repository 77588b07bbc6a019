import type {
  ContentBlock,
  JsonValue,
  Message,
  Modality,
  Role,
  TextBlock,
  ToolCallBlock,
  ToolResultBlock,
} from "./types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { CONTENT_BLOCK_TYPES, ROLES } from "./types.ts";

export function textBlock(text: string): TextBlock {
  return { type: "text", text };
}

export function textMessage(role: Role, text: string): Message {
  return { role, content: [textBlock(text)] };
}

export const systemMessage = (text: string): Message => textMessage("system", text);
export const userMessage = (text: string): Message => textMessage("user", text);
export const assistantMessage = (text: string): Message => textMessage("assistant", text);

export function toolCallBlock(id: string, name: string, args: JsonValue = {}): ToolCallBlock {
  return { type: "tool_call", id, name, arguments: args };
}

export function toolResultBlock(
  toolCallId: string,
  name: string,
  result: JsonValue,
  isError?: boolean,
): ToolResultBlock {
  return isError === undefined
    ? { type: "tool_result", toolCallId, name, result }
    : { type: "tool_result", toolCallId, name, result, isError };
}

export function toolResultMessage(toolCallId: string, name: string, result: JsonValue, isError?: boolean): Message {
  return { role: "tool", content: [toolResultBlock(toolCallId, name, result, isError)] };
}

export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (ROLES as readonly string[]).includes(value);

export const isContentBlockType = (value: unknown): value is ContentBlock["type"] =>
  typeof value === "string" && (CONTENT_BLOCK_TYPES as readonly string[]).includes(value);

export const isTextBlock = (block: ContentBlock): block is TextBlock => block.type === "text";
export const isToolCallBlock = (block: ContentBlock): block is ToolCallBlock => block.type === "tool_call";
export const isToolResultBlock = (block: ContentBlock): block is ToolResultBlock => block.type === "tool_result";

/** The modality a block needs from the model, or `undefined` for structural blocks (thinking, tool calls, tool results). */
export function blockModality(block: ContentBlock): Modality | undefined {
  switch (block.type) {
    case "text":
    case "image":
    case "audio":
    case "file":
    case "document":
      return block.type;
    default:
      return undefined;
  }
}

/**
 * Concatenated text of a message's `text` blocks, separated by newlines. Checks what it reads as
 * it reads it (no second pass): a non-message, non-array `content`, a non-object block or a text
 * block without string `text` throws `InvalidInputError` naming the field (`message.content[1].text`).
 */
export function messageText(message: Message): string {
  const content: unknown = (message as { content?: unknown } | null | undefined)?.content;
  if (!Array.isArray(content)) {
    throw new InvalidInputError(
      message === null || typeof message !== "object" ? "message" : "message.content",
      message === null || typeof message !== "object"
        ? "must be a message object ({ role, content })."
        : "must be an array of content blocks.",
    );
  }
  let out = "";
  let first = true;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (block === null || typeof block !== "object")
      throw new InvalidInputError(`message.content[${i}]`, "must be a content block object.");
    if ((block as { type?: unknown }).type !== "text") continue;
    const text: unknown = (block as { text?: unknown }).text;
    if (typeof text !== "string") throw new InvalidInputError(`message.content[${i}].text`, "must be a string.");
    out += first ? text : `\n${text}`;
    first = false;
  }
  return out;
}

/** Tool calls an assistant message makes, in order. */
export function toolCallsOf(message: Message): readonly ToolCallBlock[] {
  return message.content.filter(isToolCallBlock);
}

/** Tool results a tool message carries, in order. */
export function toolResultsOf(message: Message): readonly ToolResultBlock[] {
  return message.content.filter(isToolResultBlock);
}
