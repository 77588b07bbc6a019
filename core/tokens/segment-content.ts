/**
 * What a provider reads from each kind of segment, shared by the estimators and the OpenAI exact
 * counter: the texts of a tool definition, a tool call or a tool result, the media inside a tool
 * result, response schemas in the request options, and which tools run on the provider's side.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue } from "../messages/types.ts";
import { jsonText } from "./features.ts";
import type { MediaResolution } from "./media-rules.ts";

type Obj = { readonly [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** A media block found inside a tool result (Anthropic image blocks, Responses `input_image`). */
export type ResultMedia = Extract<ContentBlock, { type: "image" | "document" }>;

/** The texts and media of a tool result, in order: strings as they are, content arrays part by part, other JSON compact. */
export function resultParts(result: JsonValue): { readonly texts: string[]; readonly media: ResultMedia[] } {
  const texts: string[] = [];
  const media: ResultMedia[] = [];
  if (!Array.isArray(result)) {
    texts.push(jsonText(result));
    return { texts, media };
  }
  for (const item of result) {
    if (!isObj(item)) {
      texts.push(jsonText(item));
      continue;
    }
    const type = item.type;
    if ((type === "text" || type === "input_text" || type === "output_text") && typeof item.text === "string") {
      texts.push(item.text);
      continue;
    }
    const source = isObj(item.source) ? item.source : undefined;
    if ((type === "image" || type === "document") && source?.type === "base64" && typeof source.data === "string") {
      media.push({
        type,
        data: source.data,
        ...(typeof source.media_type === "string" ? { mimeType: source.media_type } : {}),
      });
      continue;
    }
    if (type === "input_image" && typeof item.image_url === "string") {
      media.push({ type: "image", url: item.image_url });
      continue;
    }
    texts.push(jsonText(item));
  }
  return { texts, media };
}

/** The wire object of a tool that runs on the provider's side (web search, code execution, MCP, …), else null. */
export function serverTool(t: ToolDefinition): Obj | null {
  if (t.inputSchema !== undefined) return null;
  const pf = t.providerFields ?? {};
  const responses = pf["openai-responses"];
  if (responses && typeof responses.type === "string" && responses.type !== "function") return responses;
  const chat = pf["openai-chat"];
  if (chat && typeof chat.type === "string" && chat.type !== "function") return chat;
  const anthropic = pf.anthropic;
  if (anthropic && typeof anthropic.type === "string" && anthropic.type !== "custom") return anthropic;
  const gemini = pf.gemini;
  if (gemini && isObj(gemini.tool)) return gemini.tool;
  return null;
}

/** The JSON texts of the response schemas in a request's options (structured output). */
export function responseSchemas(request: NormalizedRequest): string[] {
  const o = request.providerOptions ?? {};
  const out: string[] = [];
  const push = (v: JsonValue | undefined) => {
    if (v !== undefined && v !== null) out.push(jsonText(v));
  };
  // OpenAI Chat: response_format { type: "json_schema", json_schema: { name, schema, strict } }
  const rf = o.response_format;
  if (isObj(rf) && rf.type === "json_schema") push(rf.json_schema);
  // OpenAI Responses: text.format { type: "json_schema", name, schema, strict }
  const text = o.text;
  if (isObj(text) && isObj(text.format) && text.format.type === "json_schema") push(text.format.schema);
  // Gemini: generationConfig.responseSchema / responseJsonSchema (camel or snake case)
  const gc = o.generationConfig ?? o.generation_config;
  if (isObj(gc)) push(gc.responseSchema ?? gc.response_schema ?? gc.responseJsonSchema ?? gc.response_json_schema);
  // Anthropic structured outputs: output_format { type: "json_schema", schema } or output_config.format
  const of = o.output_format ?? (isObj(o.output_config) ? o.output_config.format : undefined);
  if (isObj(of) && of.type === "json_schema") push(of.schema);
  return out;
}

/** The Gemini media resolution the request asks for (`generationConfig.mediaResolution`), raw. */
export function requestResolution(request: NormalizedRequest): JsonValue | undefined {
  const o = request.providerOptions ?? {};
  const gc = o.generationConfig ?? o.generation_config;
  return isObj(gc) ? (gc.mediaResolution ?? gc.media_resolution) : undefined;
}

/**
 * True when the request turns on extended thinking with a budget or reasoning. Claude's
 * `thinking: { type: "enabled" }` adds about 30 tokens on the calibration corpus; `adaptive`
 * (Opus 4.7 and later) adds none, so it does not count here.
 */
export function requestsReasoning(request: NormalizedRequest): boolean {
  const o = request.providerOptions ?? {};
  const thinking = o.thinking;
  if (isObj(thinking) && thinking.type === "enabled") return true;
  const gc = o.generationConfig ?? o.generation_config;
  if (isObj(gc) && (gc.thinkingConfig !== undefined || gc.thinking_config !== undefined)) return true;
  return o.reasoning !== undefined || o.reasoning_effort !== undefined;
}

/** A Gemini media resolution from a part's or the request's setting (`MEDIA_RESOLUTION_LOW`, …). */
export function resolutionOf(value: JsonValue | undefined): MediaResolution | undefined {
  const v =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as { level?: JsonValue }).level
      : value;
  if (typeof v !== "string") return undefined;
  const s = v.toLowerCase();
  if (s.includes("ultra")) return "ultra_high";
  if (s.includes("low")) return "low";
  if (s.includes("medium")) return "medium";
  if (s.includes("high")) return "high";
  return undefined;
}

/**
 * Whether counting `request` prices any media: a block that is not text, thinking, a tool call, a
 * tool result or opaque, or media inside a tool result (`resultParts`) — exactly the blocks the
 * counters hand to a `MediaCoster`. Lets a caller load the media rules only when they are needed.
 */
export function requestHasMedia(request: {
  readonly messages: readonly { readonly content: readonly ContentBlock[] }[];
}): boolean {
  // Indexed loops: iterators here were an allocation per message of every request counted.
  const messages = request.messages;
  for (let i = 0; i < messages.length; i++)
    for (let j = 0, content = messages[i]!.content; j < content.length; j++) {
      const b = content[j]!;
      if (b.type === "text" || b.type === "thinking" || b.type === "tool_call" || b.type === "opaque") continue;
      if (b.type !== "tool_result") return true;
      // A string result holds no media (most results): no parts list is made for it.
      if (typeof b.result !== "string" && resultParts(b.result).media.length > 0) return true;
    }
  return false;
}
