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
import type { ContentBlock, Message } from "../messages/types.ts";
import type { ToolDefinition } from "../messages/request.ts";
import { contentPath, messagePath } from "../util/paths.ts";

/** The prompt order a counter follows: the cache providers' three orders. */
export type SegmentOrder = "openai" | "anthropic" | "gemini";

export type SegmentRef =
  | { readonly kind: "tool"; readonly path: string; readonly tool: ToolDefinition; readonly toolIndex: number }
  | { readonly kind: "tool_choice"; readonly path: string; readonly key: "tool_choice" | "toolConfig" }
  | { readonly kind: "message"; readonly path: string; readonly message: Message; readonly messageIndex: number }
  | {
      readonly kind: "block";
      readonly path: string;
      readonly message: Message;
      readonly messageIndex: number;
      readonly block: ContentBlock;
      readonly blockIndex: number;
    };

function pushMessage(m: Message, i: number, out: SegmentRef[]): void {
  out.push({ kind: "message", path: messagePath(i), message: m, messageIndex: i });
  m.content.forEach((block, j) =>
    out.push({
      kind: "block",
      path: contentPath(i, j),
      message: m,
      messageIndex: i,
      block,
      blockIndex: j,
    }),
  );
}

/** The segments of `messages[from…]`, in order: the tail of `segmentRefs` past the leading system messages. */
export function messageRefs(messages: readonly Message[], from: number): SegmentRef[] {
  const out: SegmentRef[] = [];
  for (let i = from; i < messages.length; i++) pushMessage(messages[i]!, i, out);
  return out;
}

/** The request's segments in `order` (the same list, paths and indexes as `segmentRequest`). */
export function segmentRefs(request: NormalizedRequest, order: SegmentOrder): SegmentRef[] {
  const out: SegmentRef[] = [];
  request.tools.forEach((tool, toolIndex) => out.push({ kind: "tool", path: `tools[${toolIndex}]`, tool, toolIndex }));
  const key = order === "gemini" ? "toolConfig" : "tool_choice";
  const hasChoice = (request.providerOptions ?? {})[key] !== undefined;
  const choice: SegmentRef = { kind: "tool_choice", path: `providerOptions.${key}`, key };
  if (order === "openai") {
    if (hasChoice) out.push(choice);
    request.messages.forEach((m, i) => pushMessage(m, i, out));
    return out;
  }
  if (order === "gemini" && hasChoice) out.push(choice);
  const leading = leadingSystemCount(request.messages);
  for (let i = 0; i < leading; i++) pushMessage(request.messages[i]!, i, out);
  if (order === "anthropic" && hasChoice) out.push(choice);
  for (let i = leading; i < request.messages.length; i++) pushMessage(request.messages[i]!, i, out);
  return out;
}
