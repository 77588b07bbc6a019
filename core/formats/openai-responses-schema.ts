/**
 * zod/mini shape of an OpenAI Responses request. `input` items are dispatched by hand on
 * `type` (messages may omit it), so each item is checked against one schema and its
 * issues name that item's fields.
 */
import * as z from "zod/mini";
import { audioPart, refusalPart } from "./openai-chat-schema.ts";

const inputText = z.looseObject({ type: z.literal("input_text"), text: z.string() });
const outputText = z.looseObject({ type: z.literal("output_text"), text: z.string() });
const inputImage = z.looseObject({ type: z.literal("input_image"), image_url: z.optional(z.string()) });
const inputFile = z.looseObject({
  type: z.literal("input_file"),
  file_data: z.optional(z.string()),
  filename: z.optional(z.string()),
});

export const responsesPart = z.discriminatedUnion("type", [
  inputText,
  outputText,
  refusalPart,
  inputImage,
  inputFile,
  audioPart,
]);

export const responsesMessage = z.looseObject({
  type: z.optional(z.literal("message")),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(responsesPart)]),
});
export const responsesFunctionCall = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export const responsesFunctionOutput = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string(),
  output: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});
export const responsesReasoning = z.looseObject({
  type: z.literal("reasoning"),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })),
  encrypted_content: z.optional(z.nullable(z.string())),
});

export const RESPONSES_ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning"] as const;

/**
 * Input item types Strata keeps verbatim (opaque, no warning), with their required string fields;
 * `true` marks what answers a call (a tool-side item). From the SDK's `ResponseInputItem` union
 * (openai/openai-node src/resources/responses/responses.ts @7b7d6ca, 2026-08-21).
 */
export const RESPONSES_PASSTHROUGH: Readonly<Record<string, readonly [readonly string[], boolean]>> = {
  item_reference: [["id"], false],
  web_search_call: [["id"], false],
  file_search_call: [["id"], false],
  computer_call: [["id", "call_id"], false],
  computer_call_output: [["call_id"], true],
  custom_tool_call: [["call_id", "name", "input"], false],
  custom_tool_call_output: [["call_id"], true],
  local_shell_call: [["id", "call_id"], false],
  local_shell_call_output: [["id", "output"], true],
  shell_call: [["call_id"], false],
  shell_call_output: [["call_id"], true],
  apply_patch_call: [["call_id"], false],
  apply_patch_call_output: [["call_id"], true],
  mcp_list_tools: [["id", "server_label"], false],
  mcp_approval_request: [["id", "name", "server_label"], false],
  mcp_approval_response: [["approval_request_id"], true],
  mcp_call: [["id", "name", "server_label"], false],
  image_generation_call: [["id"], false],
  code_interpreter_call: [["id"], false],
  tool_search_call: [[], false],
  tool_search_output: [[], true],
  additional_tools: [[], false],
  compaction: [[], false],
  compaction_trigger: [[], false],
  program: [[], false],
  program_output: [[], true],
};

export const responsesTool = z.looseObject({ type: z.string(), name: z.optional(z.string()) });
export const responsesFunctionTool = z.looseObject({
  type: z.literal("function"),
  name: z.string(),
  description: z.optional(z.nullable(z.string())),
  parameters: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});

export const responsesRequest = z.looseObject({
  model: z.optional(z.string()),
  instructions: z.optional(z.string()),
  // A body may name a stored prompt (`prompt: { id, variables }`) and send no input (or model) at all.
  input: z.optional(z.union([z.string(), z.array(z.record(z.string(), z.unknown()))])),
  prompt: z.optional(z.nullable(z.looseObject({ id: z.string() }))),
  tools: z.optional(z.array(responsesTool)),
  prompt_cache_key: z.optional(z.string()),
});

export type ResponsesRequestIn = z.infer<typeof responsesRequest>;
export type ResponsesPartIn = z.infer<typeof responsesPart>;
export type ResponsesMessageIn = z.infer<typeof responsesMessage>;
export type ResponsesFunctionCallIn = z.infer<typeof responsesFunctionCall>;
export type ResponsesFunctionOutputIn = z.infer<typeof responsesFunctionOutput>;
export type ResponsesReasoningIn = z.infer<typeof responsesReasoning>;
export type ResponsesItemIn =
  | ({ readonly kind: "message" } & { readonly item: ResponsesMessageIn })
  | ({ readonly kind: "function_call" } & { readonly item: ResponsesFunctionCallIn })
  | ({ readonly kind: "function_call_output" } & { readonly item: ResponsesFunctionOutputIn })
  | ({ readonly kind: "reasoning" } & { readonly item: ResponsesReasoningIn })
  | {
      readonly kind: "opaque";
      readonly item: Record<string, unknown>;
      readonly wireType: string;
      readonly path: string;
    };
