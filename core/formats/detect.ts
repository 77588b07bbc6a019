/**
 * Which format to try first. `parseRequest` tries the formats in this ranking and the first whose
 * schema accepts the value wins, so the ranking is also the tie-break rule for a value that is
 * valid under several formats (an Anthropic body of plain text messages is valid OpenAI Chat too):
 *
 * 1. Decisive features — fields or blocks that only one format has. More of them ranks higher.
 *    - Strata's own `AssemblyRequest` (ranked by `parseRequest`, see request/detect.ts): `model` is an
 *      object; `systemInstructions`, `history`, `inputLayout`, `sections`, `template`, `toolResults`,
 *      `contextBudget`.
 *    - Anthropic: a top-level `system` (string or array); `cache_control` at the top level or on a
 *      block; `tool_use`, `tool_result`, `thinking`, `redacted_thinking` blocks (and `image` /
 *      `document` blocks with a `source`); `anthropic_version`; `thinking`.
 *      Server-tool and newer blocks (`server_tool_use`, `web_search_tool_result`, …) count the same.
 *    - Gemini: `contents`, `systemInstruction`, `generationConfig`, `safetySettings`, `toolConfig`,
 *      `cachedContent`, in either spelling (`system_instruction`, …).
 *    - OpenAI Responses: `input`, `instructions`, `previous_response_id`, `max_output_tokens`, a
 *      `prompt` object (a stored prompt).
 *    - OpenAI Chat: `system`, `developer`, `tool` or `function` role messages; `tool_calls`,
 *      `function_call`; `image_url`, `input_audio` parts; `max_completion_tokens`, `response_format`.
 *    - Bedrock Converse: `modelId`, `inferenceConfig`, `additionalModelRequestFields`,
 *      `guardrailConfig`, `promptVariables`; blocks without a `type` holding one member (`{ text }`,
 *      `{ toolUse }`, `{ cachePoint }`); `toolConfig.tools[].toolSpec`. Bedrock and Anthropic both have
 *      `system` and `messages`, but Anthropic blocks always have a `type` and Converse blocks never do,
 *      and each schema rejects the other's blocks; so only a body with no blocks at all (plain string
 *      contents are Anthropic-only) can be valid under both, and then Anthropic wins on table order.
 * 2. The conversation container: a `messages` array ranks OpenAI Chat and Anthropic above the
 *    formats that need another one (`input` and `contents` are decisive already). Two formats that
 *    both accept a value always share this step, so it only orders the formats that cannot match.
 * 3. The model id's prefix, after any vendor path (`anthropic/`, `models/`, Bedrock's
 *    `us.anthropic.`): `claude` → Anthropic; `gemini` → Gemini; `gpt`, `o1`, `o3`, `o4` (any
 *    `o<digit>`), `chatgpt`, `ft:` → OpenAI (Chat and Responses alike: their schemas tell them apart);
 *    a Bedrock model id (`anthropic.claude-…-v1:0`, `amazon.nova-…`, an inference-profile or ARN) → Bedrock.
 * 4. Table order (`REQUEST_FORMATS`, or `WIRE_FORMATS` for `parseWireRequest`): with no evidence at all, a `messages` body is OpenAI Chat, the
 *    format most OpenAI-compatible servers take.
 *
 * The same ranking picks the "closest" format when nothing matches (then fewest issues breaks ties).
 */
import { isObject } from "../util/plain-object.ts";
import { ANTHROPIC_PASSTHROUGH } from "./anthropic-schema.ts";
import type { WireFormat } from "./types.ts";
import { BEDROCK_MESSAGE_MEMBERS } from "./bedrock-members.ts";

export interface FormatEvidence {
  /** Decisive features found for the format (step 1). */
  readonly decisive: number;
  /** 1 when the value has the `messages` array the format keeps its conversation in (step 2). */
  readonly shape: number;
  /** 1 when the model id's prefix names the format's provider (step 3). */
  readonly model: number;
}

export type Obj = Record<string, unknown>;

export const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined;
export const count = (o: Obj, keys: readonly string[]) => keys.reduce((n, k) => n + (has(o, k) ? 1 : 0), 0);

const ANTHROPIC_BLOCKS = new Set([
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  ...Object.keys(ANTHROPIC_PASSTHROUGH),
]);
const CHAT_PARTS = new Set(["image_url", "input_audio"]);
const CHAT_ROLES = new Set(["system", "developer", "tool", "function"]);
/** Converse block members (a block is `{ member: … }`, without `type`). */
const BEDROCK_MEMBERS: ReadonlySet<string> = new Set(BEDROCK_MESSAGE_MEMBERS);
const BEDROCK_FIELDS = [
  "modelId",
  "inferenceConfig",
  "additionalModelRequestFields",
  "guardrailConfig",
  "promptVariables",
];
/** Bedrock model and inference-profile ids: `anthropic.claude-…-v1:0`, `us.amazon.nova-pro-v1:0`, ARNs. */
const BEDROCK_MODEL =
  /^(arn:aws[^:]*:bedrock:|(?:(?:us|eu|apac|jp|au|ca|us-gov|global)\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|writer|qwen|openai)\.[a-z0-9-]+.*(?:-v\d+(?::\d+)?)?$)/;
const isBedrockBlock = (b: Record<string, unknown>) => {
  const keys = Object.keys(b);
  return keys.length === 1 && BEDROCK_MEMBERS.has(keys[0]!);
};

/** The model id without a vendor path: `anthropic/claude-x` → `claude-x`, `us.anthropic.claude-x` → `claude-x`. */
function bareModel(model: unknown): string {
  if (typeof model !== "string") return "";
  const id = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  const bedrock = /^(?:[a-z]{2}\.)?anthropic\./.exec(id);
  return bedrock ? id.slice(bedrock[0].length) : id;
}

/** Step 3: the provider family a model id names, if any. */
function modelFamily(model: unknown): "anthropic" | "gemini" | "openai" | null {
  const id = bareModel(model);
  if (id.startsWith("claude")) return "anthropic";
  if (id.startsWith("gemini")) return "gemini";
  if (/^(gpt|o\d|chatgpt|ft:)/.test(id)) return "openai";
  return null;
}

/** The evidence for every wire format in `o` (one pass over its messages and blocks). */
export function wireEvidence(o: Obj): Record<WireFormat, FormatEvidence> {
  let anthropic = count(o, ["system", "anthropic_version", "thinking"]);
  let chat = count(o, ["max_completion_tokens", "response_format"]);
  const messages = Array.isArray(o["messages"]) ? (o["messages"] as unknown[]) : [];
  let roles = false;
  let calls = false;
  let chatParts = false;
  let blocks = false;
  let blockCache = false;
  let converse = false;
  // Indexed loops: iterators here were an allocation per message and block of every detection.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObject(m)) continue;
    if (typeof m["role"] === "string" && CHAT_ROLES.has(m["role"])) roles = true;
    if (has(m, "tool_calls") || has(m, "function_call")) calls = true;
    const content = m["content"];
    if (!Array.isArray(content)) continue;
    for (let j = 0; j < content.length; j++) {
      const b: unknown = content[j];
      if (!isObject(b)) continue;
      const t = b["type"];
      if (
        typeof t === "string" &&
        (ANTHROPIC_BLOCKS.has(t) || ((t === "image" || t === "document") && has(b, "source")))
      )
        blocks = true;
      if (typeof t === "string" && CHAT_PARTS.has(t)) chatParts = true;
      if (has(b, "cache_control")) blockCache = true;
      if (isBedrockBlock(b)) converse = true;
    }
  }
  const system = o["system"];
  const converseSystem = Array.isArray(system) && system.some((b) => isObject(b) && isBedrockBlock(b));
  const toolConfig = o["toolConfig"];
  const toolSpecs =
    isObject(toolConfig) &&
    Array.isArray(toolConfig["tools"]) &&
    toolConfig["tools"].some((t) => isObject(t) && (has(t, "toolSpec") || has(t, "cachePoint")));
  anthropic += (blocks ? 1 : 0) + (blockCache || has(o, "cache_control") ? 1 : 0);
  // A Converse system array counts against Anthropic's top-level `system` above.
  if (converseSystem) anthropic--;
  chat += (roles ? 1 : 0) + (calls ? 1 : 0) + (chatParts ? 1 : 0);
  const family = modelFamily(o["model"]);
  const hasMessages = Array.isArray(o["messages"]) ? 1 : 0;
  return {
    "openai-chat": { decisive: chat, shape: hasMessages, model: family === "openai" ? 1 : 0 },
    "openai-responses": {
      decisive:
        count(o, ["input", "instructions", "previous_response_id", "max_output_tokens"]) +
        (isObject(o["prompt"]) ? 1 : 0),
      shape: 0,
      model: family === "openai" ? 1 : 0,
    },
    anthropic: { decisive: anthropic, shape: hasMessages, model: family === "anthropic" ? 1 : 0 },
    gemini: {
      decisive: count(o, [
        "contents",
        "systemInstruction",
        "system_instruction",
        "generationConfig",
        "generation_config",
        "safetySettings",
        "safety_settings",
        "toolConfig",
        "tool_config",
        "cachedContent",
        "cached_content",
      ]),
      shape: 0,
      model: family === "gemini" ? 1 : 0,
    },
    "bedrock-converse": {
      decisive: count(o, BEDROCK_FIELDS) + (converse ? 1 : 0) + (converseSystem ? 1 : 0) + (toolSpecs ? 1 : 0),
      shape: hasMessages,
      model: typeof o["model"] === "string" && BEDROCK_MODEL.test(o["model"].toLowerCase()) ? 1 : 0,
    },
  };
}

/** Orders two formats by their evidence (steps 1–3); 0 when tied (table order then decides). */
export const byEvidence =
  <F extends string>(evidence: Record<F, FormatEvidence>) =>
  (a: F, b: F): number =>
    evidence[b].decisive - evidence[a].decisive ||
    evidence[b].shape - evidence[a].shape ||
    evidence[b].model - evidence[a].model;

/** `formats` in the order a parser tries them (steps 1–4; `Array.prototype.sort` is stable). */
export function rankFormats<F extends string>(formats: readonly F[], evidence: Record<F, FormatEvidence>): F[] {
  return [...formats].sort(byEvidence(evidence));
}
