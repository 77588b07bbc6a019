/**
 * OpenAI Chat Completions ⇄ normalized request.
 *
 * Canonical wire form: `model`, provider options, `prompt_cache_key` (from `cacheKey`),
 * `tools`, `messages`. Content that is one plain text block is a string; an assistant turn
 * with tool calls and no text has `content: null`. `developer` messages are system messages
 * marked `providerFields.openai.role`. Tool-call `arguments` stay text unless they are compact
 * JSON (see `parseArguments`). Thinking blocks are not sent (Chat Completions takes none back).
 */
import { InvalidInputError } from "../errors.ts";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import {
  compact,
  extraFields,
  fieldsFor,
  isPlainTextFor,
  type JsonObject,
  mediaSource,
  omitKeys,
  parseArguments,
  providerFieldsOf,
  resultText,
  stringifyArguments,
  ToolNames,
  withExtras,
  withOptional,
} from "./convert-util.ts";
import type { ChatPartIn, ChatRequestIn } from "./openai-chat-schema.ts";
import type { NormalizedRequest } from "./types.ts";

const KEY = "openai-chat";

function partFrom(p: ChatPartIn): ContentBlock {
  switch (p.type) {
    case "text":
      return withOptional({ type: "text", text: p.text } as ContentBlock, { providerFields: providerFieldsOf(KEY, extraFields(p, ["type", "text"])) });
    case "refusal":
      return { type: "text", text: p.refusal, providerFields: { [KEY]: { part: "refusal", ...extraFields(p, ["type", "refusal"]) } } };
    case "image_url":
      return withOptional({ type: "image", url: p.image_url.url } as ContentBlock, {
        providerFields: providerFieldsOf(KEY, { ...extraFields(p, ["type", "image_url"]), ...extraFields(p.image_url, ["url"]) }),
      });
    case "input_audio":
      return withOptional({ type: "audio", mimeType: `audio/${p.input_audio.format}`, data: p.input_audio.data } as ContentBlock, {
        providerFields: providerFieldsOf(KEY, extraFields(p, ["type", "input_audio"])),
      });
    case "file": {
      const extras = { ...extraFields(p, ["type", "file"]), ...extraFields(p.file, ["file_data", "filename"]) };
      return withOptional({ type: "file" } as ContentBlock, { data: p.file.file_data, name: p.file.filename, providerFields: providerFieldsOf(KEY, extras) } as object);
    }
  }
}

/** Parsed (schema-checked) Chat Completions request → normalized request. */
export function fromOpenAIChat(raw: ChatRequestIn): NormalizedRequest {
  const names = new ToolNames();
  const messages: Message[] = raw.messages.map((m) => {
    const content: ContentBlock[] = [];
    if (typeof m.content === "string") content.push({ type: "text", text: m.content });
    else if (Array.isArray(m.content) && m.role !== "tool") for (const p of m.content) content.push(partFrom(p as ChatPartIn));
    const extras: Record<string, JsonValue> = { ...extraFields(m, ["role", "content", "name", "tool_calls", "tool_call_id"]) };
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        names.add(c.id, c.function.name);
        const fx = { ...extraFields(c, ["id", "type", "function"]), ...extraFields(c.function, ["name", "arguments"]) };
        content.push(withOptional({ type: "tool_call", id: c.id, name: c.function.name, arguments: parseArguments(c.function.arguments) } as ContentBlock, { providerFields: providerFieldsOf(KEY, fx) }));
      }
      if (m.content === undefined) extras.noContent = true;
    }
    if (m.role === "tool") {
      const parts = Array.isArray(m.content);
      const block = withOptional({ type: "tool_result", toolCallId: m.tool_call_id, name: names.get(m.tool_call_id), result: m.content as JsonValue } as ContentBlock, {
        providerFields: parts ? { [KEY]: { contentParts: true } } : undefined,
      });
      return withOptional({ role: "tool", content: [block] } as Message, { providerFields: providerFieldsOf(KEY, extras) });
    }
    const role = m.role === "developer" ? "system" : m.role;
    const fields: Record<string, JsonObject> = {};
    if (Object.keys(extras).length > 0) fields[KEY] = extras;
    if (m.role === "developer") fields.openai = { role: "developer" };
    return withOptional({ role, content } as Message, { name: m.name, providerFields: Object.keys(fields).length > 0 ? fields : undefined });
  });
  const tools: ToolDefinition[] = (raw.tools ?? []).map((t) => {
    if (t.type === "custom") return { name: t.custom.name, providerFields: { [KEY]: t as unknown as JsonObject } };
    const f = t.function;
    const extras = { ...extraFields(t, ["type", "function"]), ...extraFields(f, ["name", "description", "parameters"]) };
    return withOptional({ name: f.name } as ToolDefinition, { description: f.description, inputSchema: f.parameters as JsonValue | undefined, providerFields: providerFieldsOf("openai", extras) });
  });
  return withOptional({ model: { provider: "openai", model: raw.model }, messages, tools } as NormalizedRequest, {
    providerOptions: extraFields(raw, ["model", "messages", "tools", "prompt_cache_key"]),
    cacheKey: raw.prompt_cache_key,
  });
}

function partTo(b: ContentBlock, path: string): JsonObject | undefined {
  const extras = fieldsFor(b, KEY);
  switch (b.type) {
    case "text":
      if (extras.part === "refusal") return compact({ type: "refusal", refusal: b.text, ...omitKeys(extras, ["part"]) });
      return withExtras({ type: "text", text: b.text }, extras);
    case "image": {
      const m = mediaSource(b);
      if (!m) throw new InvalidInputError(path, "an image block needs data or a url");
      const url = m.kind === "url" ? m.url : `data:${m.mimeType};base64,${m.data}`;
      return { type: "image_url", image_url: compact({ url, detail: extras.detail }), ...omitKeys(extras, ["detail"]) };
    }
    case "audio": {
      const m = mediaSource(b);
      if (!m || m.kind !== "data") throw new InvalidInputError(path, "Chat Completions takes audio only as inline base64 data");
      return withExtras({ type: "input_audio", input_audio: { data: m.data, format: m.mimeType.replace(/^audio\//, "") } }, extras);
    }
    case "file":
    case "document": {
      const data = b.data ?? (b.type === "document" && b.text !== undefined ? undefined : b.url);
      if (b.type === "document" && b.text !== undefined && b.data === undefined) return { type: "text", text: b.text };
      return { type: "file", file: compact({ file_id: extras.file_id, file_data: data, filename: b.name }), ...omitKeys(extras, ["file_id"]) };
    }
    case "thinking":
      return undefined;
    default:
      throw new InvalidInputError(path, `a ${b.type} block cannot be a content part in Chat Completions`);
  }
}

/** Normalized request → Chat Completions request body (deterministic key order). */
export function toOpenAIChat(request: ProviderRequest | NormalizedRequest): JsonObject {
  const messages: JsonObject[] = [];
  request.messages.forEach((m, i) => {
    const extras = fieldsFor(m, KEY);
    const results = m.content.filter((b) => b.type === "tool_result");
    for (const r of results) {
      if (r.type !== "tool_result") continue;
      const content = fieldsFor(r, KEY).contentParts === true ? r.result : resultText(r);
      messages.push(withExtras({ role: "tool", tool_call_id: r.toolCallId, content }, m.role === "tool" ? extras : undefined));
    }
    if (m.role === "tool") return;
    const calls: JsonObject[] = [];
    const parts: JsonObject[] = [];
    m.content.forEach((b, j) => {
      if (b.type === "tool_result") return;
      if (b.type === "tool_call") {
        const fx = fieldsFor(b, KEY);
        calls.push(withExtras({ id: b.id, type: "function", function: { name: b.name, arguments: stringifyArguments(b.arguments) } }, fx));
        return;
      }
      const p = partTo(b, `messages[${i}].content[${j}]`);
      if (p) parts.push(p);
    });
    if (results.length > 0 && parts.length === 0 && calls.length === 0) return;
    const textOnly = m.content.filter((b) => b.type !== "tool_call" && b.type !== "thinking");
    const content: JsonValue | undefined =
      textOnly.length === 1 && isPlainTextFor(textOnly[0]!, KEY, false) ? textOnly[0].text : parts.length > 0 ? parts : extras.noContent === true ? undefined : null;
    const role = m.role === "system" && fieldsFor(m, "openai").role === "developer" ? "developer" : m.role;
    messages.push(compact({ role, content, name: m.name, tool_calls: calls.length > 0 ? calls : undefined, ...omitKeys(extras, ["noContent"]) }));
  });
  const tools = request.tools.map((t) => {
    const own = fieldsFor(t, KEY);
    if (own.type === "custom") return own;
    const x = fieldsFor(t, "openai");
    return { type: "function", function: compact({ name: t.name, description: t.description, parameters: t.inputSchema, ...x }) };
  });
  const out: Record<string, JsonValue | undefined> = { model: request.model.model };
  const opts = request.providerOptions ?? {};
  for (const k of Object.keys(opts)) if (!["model", "messages", "tools"].includes(k)) out[k] = opts[k];
  if (request.cacheKey !== undefined && out.prompt_cache_key === undefined) out.prompt_cache_key = request.cacheKey;
  if (tools.length > 0) out.tools = tools;
  out.messages = messages;
  return compact(out);
}
