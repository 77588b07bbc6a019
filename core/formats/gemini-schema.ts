/**
 * zod/mini shape of a Gemini `generateContent` request body (unknown fields pass through). The REST
 * API reads proto3 JSON, which takes both lowerCamelCase and the proto's snake_case names
 * (`inlineData` / `inline_data`); parts and function declarations are checked by hand
 * (`checkGeminiParts`) so either spelling gets a located message.
 */
import * as z from "zod/mini";

const part = z.record(z.string(), z.unknown());
const content = z.looseObject({
  role: z.optional(z.enum(["user", "model", "function", "tool"])),
  parts: z.array(part),
});
const systemContent = z.optional(z.looseObject({ role: z.optional(z.string()), parts: z.array(part) }));

export const geminiRequest = z.looseObject({
  model: z.optional(z.string()),
  contents: z.union([z.string(), z.array(content)]),
  systemInstruction: systemContent,
  system_instruction: systemContent,
  tools: z.optional(z.array(z.record(z.string(), z.unknown()))),
});

export type GeminiRequestIn = z.infer<typeof geminiRequest>;
export type GeminiContentIn = z.infer<typeof content>;
export type GeminiPartIn = Record<string, unknown>;

/**
 * The `Part.data` oneof: a part holds exactly one. The first five Strata models; the others it keeps
 * verbatim (googleapis/js-genai src/types.ts `Part` @6e9b35c, 2026-08-21).
 */
export const GEMINI_PART_KINDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse"] as const;
export const GEMINI_PASSTHROUGH_KINDS = ["executableCode", "codeExecutionResult", "toolCall", "toolResponse"];
/** Part fields beside the data: what the part is, not what it holds. */
export const GEMINI_PART_META = ["thought", "thoughtSignature", "videoMetadata", "mediaResolution", "partMetadata"];

/** lowerCamelCase → snake_case for the field names Strata reads (proto3 JSON takes both). */
export const GEMINI_SNAKE: Readonly<Record<string, string>> = {
  inlineData: "inline_data",
  fileData: "file_data",
  functionCall: "function_call",
  functionResponse: "function_response",
  executableCode: "executable_code",
  codeExecutionResult: "code_execution_result",
  toolCall: "tool_call",
  toolResponse: "tool_response",
  thoughtSignature: "thought_signature",
  videoMetadata: "video_metadata",
  mediaResolution: "media_resolution",
  partMetadata: "part_metadata",
  mimeType: "mime_type",
  fileUri: "file_uri",
  systemInstruction: "system_instruction",
  functionDeclarations: "function_declarations",
  parametersJsonSchema: "parameters_json_schema",
  toolConfig: "tool_config",
  cachedContent: "cached_content",
};
