/** zod/mini shape of an OpenAI Chat Completions request (unknown fields pass through). */
import * as z from "zod/mini";

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string(), detail: z.optional(z.string()) }),
});
/** Shared with the Responses schema (same part shape on both wires). */
export const audioPart = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
});
const filePart = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_id: z.optional(z.string()),
    file_data: z.optional(z.string()),
    filename: z.optional(z.string()),
  }),
});
/** Shared with the Responses schema (same part shape on both wires). */
export const refusalPart = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

export const chatPart = z.discriminatedUnion("type", [textPart, imagePart, audioPart, filePart, refusalPart]);
const textContent = z.union([z.string(), z.array(textPart)]);

const toolCall = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const name = z.optional(z.string());
/** The legacy single call of an assistant turn (before `tool_calls`). */
const functionCall = z.optional(z.looseObject({ name: z.string(), arguments: z.string() }));
export const chatMessage = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("system"), content: textContent, name }),
  z.looseObject({ role: z.literal("developer"), content: textContent, name }),
  z.looseObject({
    role: z.literal("user"),
    content: z.union([z.string(), z.array(chatPart)]),
    name,
    // Ollama's OpenAI-compatible servers: base64 images beside the text.
    images: z.optional(z.array(z.string())),
  }),
  z.looseObject({
    role: z.literal("assistant"),
    content: z.optional(
      z.nullable(z.union([z.string(), z.array(z.discriminatedUnion("type", [textPart, refusalPart]))])),
    ),
    name,
    tool_calls: z.optional(z.array(toolCall)),
    function_call: functionCall,
  }),
  z.looseObject({ role: z.literal("tool"), content: textContent, tool_call_id: z.string() }),
  // Deprecated but still accepted: the answer to a `function_call` (openai-node ChatCompletionFunctionMessageParam).
  z.looseObject({ role: z.literal("function"), name: z.string(), content: z.nullable(z.string()) }),
]);

export const chatTool = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("function"),
    function: z.looseObject({
      name: z.string(),
      description: z.optional(z.string()),
      parameters: z.optional(z.record(z.string(), z.unknown())),
    }),
  }),
  z.looseObject({ type: z.literal("custom"), custom: z.looseObject({ name: z.string() }) }),
]);

export const chatRequest = z.looseObject({
  model: z.string(),
  messages: z.array(chatMessage),
  tools: z.optional(z.array(chatTool)),
  prompt_cache_key: z.optional(z.string()),
  // openai-node ChatCompletionCreateParamsBase: `max_tokens?: number | null`, `max_completion_tokens?: number | null`.
  max_tokens: z.optional(z.nullable(z.number().check(z.int(), z.gte(1)))),
  max_completion_tokens: z.optional(z.nullable(z.number().check(z.int(), z.gte(1)))),
});

export type ChatRequestIn = z.infer<typeof chatRequest>;
export type ChatPartIn = z.infer<typeof chatPart>;
