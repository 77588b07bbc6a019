import { textMessage, toolResultBlock } from "../messages/index.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/index.ts";
import type { ToolResultInput } from "./types.ts";

/**
 * The exact text shapes the default input builder emits. All follow the spec's
 * `"<Heading>:\n<text>"` pattern:
 *
 * | part                              | role   | text                               |
 * | --------------------------------- | ------ | ---------------------------------- |
 * | system instruction                | system | `System instruction:\n<text>`      |
 * | developer instruction             | system | `Developer instruction:\n<text>`   |
 * | labeled instruction (either kind) | system | `<label>:\n<text>`                 |
 * | summary                           | system | `Summary:\n<text>`                 |
 * | text attachment / named URI       | user   | `Attachment <name>:\n<text>`       |
 * | resource URI (no name)            | user   | `Resource <uri>:\n<text>`          |
 * | current input string              | user   | `<text>` unchanged                 |
 *
 * Content-block attachments and loaded resources that return content blocks are user
 * messages whose content is the blocks, unchanged.
 */
export const SYSTEM_INSTRUCTION_HEADING = "System instruction";
export const DEVELOPER_INSTRUCTION_HEADING = "Developer instruction";

/** The `result` of a tool result that has no value, no text content and no error. */
export const EMPTY_TOOL_RESULT_TEXT = "(tool completed with no output)";

export const headed = (heading: string, text: string): string => `${heading}:\n${text}`;

export const instructionMessage = (heading: string, text: string): Message =>
  textMessage("system", headed(heading, text));
export const summaryMessage = (text: string): Message => textMessage("system", headed("Summary", text));
export const attachmentMessage = (name: string, text: string): Message =>
  textMessage("user", headed(`Attachment ${name}`, text));
export const resourceMessage = (uri: string, text: string): Message =>
  textMessage("user", headed(`Resource ${uri}`, text));
export const contentMessage = (content: readonly ContentBlock[]): Message => ({ role: "user", content });

/**
 * A `tool` message for one result. `result` is, in order: the error message (with `isError`),
 * the `value`, the joined text of `type:text` content, or `EMPTY_TOOL_RESULT_TEXT`. Content
 * blocks not used as the result follow the `tool_result` block in the same message.
 */
export function toolResultInputMessage(input: ToolResultInput): Message {
  const content = input.content ?? [];
  let result: JsonValue;
  let isError: boolean | undefined;
  let extra: readonly ContentBlock[] = content;
  if (input.error !== undefined) {
    result = typeof input.error === "string" ? input.error : input.error.message;
    isError = true;
  } else if (input.value !== undefined) {
    result = input.value;
  } else {
    const texts: string[] = [];
    const rest: ContentBlock[] = [];
    for (const block of content) {
      if (block.type === "text") texts.push(block.text);
      else rest.push(block);
    }
    result = texts.length > 0 ? texts.join("\n") : EMPTY_TOOL_RESULT_TEXT;
    extra = rest;
  }
  return { role: "tool", content: [toolResultBlock(input.toolCallId, input.name, result, isError), ...extra] };
}
