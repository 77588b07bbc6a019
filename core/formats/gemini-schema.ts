/** zod/mini shape of a Gemini `generateContent` request body (camelCase JSON; unknown fields pass through). */
import * as z from "zod/mini";

const jsonObject = z.record(z.string(), z.unknown());

/** A part is one of these keys (plus optional `thought`, `thoughtSignature`); checked by hand for a clear message. */
export const GEMINI_PART_KINDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse"] as const;

export const geminiPart = z.looseObject({
  text: z.optional(z.string()),
  thought: z.optional(z.boolean()),
  thoughtSignature: z.optional(z.string()),
  inlineData: z.optional(z.looseObject({ mimeType: z.string(), data: z.string() })),
  fileData: z.optional(z.looseObject({ mimeType: z.optional(z.string()), fileUri: z.string() })),
  functionCall: z.optional(
    z.looseObject({ id: z.optional(z.string()), name: z.string(), args: z.optional(jsonObject) }),
  ),
  functionResponse: z.optional(z.looseObject({ id: z.optional(z.string()), name: z.string(), response: jsonObject })),
});

export const geminiContent = z.looseObject({
  role: z.optional(z.enum(["user", "model", "function", "tool"])),
  parts: z.array(geminiPart),
});

const functionDeclaration = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  parameters: z.optional(jsonObject),
  parametersJsonSchema: z.optional(jsonObject),
});

export const geminiTool = z.looseObject({ functionDeclarations: z.optional(z.array(functionDeclaration)) });

export const geminiRequest = z.looseObject({
  model: z.optional(z.string()),
  contents: z.array(geminiContent),
  systemInstruction: z.optional(z.looseObject({ role: z.optional(z.string()), parts: z.array(geminiPart) })),
  tools: z.optional(z.array(geminiTool)),
});

export type GeminiRequestIn = z.infer<typeof geminiRequest>;
export type GeminiPartIn = z.infer<typeof geminiPart>;
