/** zod/mini shape of an Anthropic Messages request (the parts Strata reads; unknown fields pass through). */
import * as z from "zod/mini";

const cacheControl = z.looseObject({ type: z.literal("ephemeral"), ttl: z.optional(z.enum(["5m", "1h"])) });
const cache = z.optional(cacheControl);
const jsonObject = z.record(z.string(), z.unknown());

export const anthropicText = z.looseObject({ type: z.literal("text"), text: z.string(), cache_control: cache });

const mediaSource = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal("url"), url: z.string() }),
  z.looseObject({ type: z.literal("file"), file_id: z.string() }),
  z.looseObject({ type: z.literal("text"), media_type: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal("content"), content: z.unknown() }),
]);

const image = z.looseObject({ type: z.literal("image"), source: mediaSource, cache_control: cache });
const documentBlock = z.looseObject({
  type: z.literal("document"),
  source: mediaSource,
  title: z.optional(z.string()),
  cache_control: cache,
});
const toolUse = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: jsonObject,
  cache_control: cache,
});
const toolResult = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.optional(z.union([z.string(), z.array(z.looseObject({ type: z.string() }))])),
  is_error: z.optional(z.boolean()),
  cache_control: cache,
});
const thinking = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.optional(z.string()),
  cache_control: cache,
});
const redacted = z.looseObject({ type: z.literal("redacted_thinking"), data: z.string(), cache_control: cache });

export const anthropicBlock = z.discriminatedUnion("type", [
  anthropicText,
  image,
  documentBlock,
  toolUse,
  toolResult,
  thinking,
  redacted,
]);

/** The block types Strata models; any other `type` is checked by `ANTHROPIC_PASSTHROUGH` or kept as unknown. */
export const ANTHROPIC_MODELLED = new Set([
  "text",
  "image",
  "document",
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
]);

/**
 * Block types Anthropic takes that Strata keeps verbatim (opaque, no warning), with their required
 * string fields. From the SDK's `ContentBlockParam` and `BetaContentBlockParam` unions
 * (anthropics/anthropic-sdk-typescript src/resources/messages/messages.ts and beta/messages/messages.ts
 * @bfa9197, 2026-08-19).
 */
export const ANTHROPIC_PASSTHROUGH: Readonly<Record<string, readonly string[]>> = {
  search_result: ["source", "title"],
  server_tool_use: ["id", "name"],
  web_search_tool_result: ["tool_use_id"],
  web_fetch_tool_result: ["tool_use_id"],
  code_execution_tool_result: ["tool_use_id"],
  bash_code_execution_tool_result: ["tool_use_id"],
  text_editor_code_execution_tool_result: ["tool_use_id"],
  tool_search_tool_result: ["tool_use_id"],
  advisor_tool_result: ["tool_use_id"],
  container_upload: ["file_id"],
  mcp_tool_use: ["id", "name", "server_name"],
  mcp_tool_result: ["tool_use_id"],
  compaction: [],
  tool_addition: [],
  tool_removal: [],
  fallback: [],
};

/** A block as the request schema sees it: typed; `checkAnthropicBlocks` checks the rest by type. */
const typedBlock = z.looseObject({ type: z.string() });

export const anthropicMessage = z.looseObject({
  role: z.enum(["user", "assistant"]),
  content: z.union([z.string(), z.array(typedBlock)]),
});

export const anthropicTool = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  input_schema: z.optional(jsonObject),
  cache_control: cache,
  type: z.optional(z.string()),
});

export const anthropicRequest = z.looseObject({
  model: z.string(),
  /** Required by the Messages API (anthropic-sdk-typescript MessageCreateParams: `max_tokens: number`); optional here for pasted fragments, but a number when present. */
  max_tokens: z.optional(z.number().check(z.int(), z.gte(1))),
  system: z.optional(z.union([z.string(), z.array(anthropicText)])),
  messages: z.array(anthropicMessage),
  tools: z.optional(z.array(anthropicTool)),
  cache_control: cache,
});

export type AnthropicRequestIn = z.infer<typeof anthropicRequest>;
export type AnthropicBlockIn = z.infer<typeof anthropicBlock>;
export type AnthropicMessageBlockIn = z.infer<typeof typedBlock>;
