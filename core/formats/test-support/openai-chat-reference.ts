/**
 * The Chat Completions reader as it was before its allocation changes (commit 2072922), kept
 * verbatim as the oracle the current `fromOpenAIChat` must equal: same blocks, same fields, same
 * key order. Only names changed (`ref…`); `refMessageFieldsFrom` and `refParseArguments` are the
 * helpers of that commit.
 */
import type { ToolDefinition } from "../../messages/request.ts";
import type { ContentBlock, JsonValue, Message, ProviderFields } from "../../messages/types.ts";
import {
  cacheMarkerFrom,
  extraFields,
  fieldsFor,
  type JsonObject,
  providerFieldsOf,
  ToolNames,
  withOptional,
} from "../convert-util.ts";
import { audioFromPart, refusalFromPart, roleFromWire, textFromPart, toolFromFunction } from "../openai-parts.ts";
import type { ChatPartIn, ChatRequestIn } from "../openai-chat-schema.ts";
import type { NormalizedRequest } from "../types.ts";

const KEY = "openai-chat";

function refMessageFieldsFrom(
  key: string,
  extras: JsonObject | undefined,
  wireRole: string,
): ProviderFields | undefined {
  const fields: Record<string, JsonObject> = {};
  if (extras && Object.keys(extras).length > 0) fields[key] = extras;
  if (wireRole === "developer") fields.openai = { role: "developer" };
  return Object.keys(fields).length > 0 ? fields : undefined;
}

function refParseArguments(text: string): JsonValue {
  try {
    const value = JSON.parse(text) as JsonValue;
    if (value !== null && typeof value === "object" && JSON.stringify(value) === text) return value;
  } catch {
    // not JSON: keep the text
  }
  return text;
}

function refPartFrom(p: ChatPartIn): ContentBlock {
  const cc = (p as { cache_control?: unknown }).cache_control;
  if (cc === undefined) return refPartFromWire(p);
  const { cache_control: _, ...rest } = p as ChatPartIn & { cache_control?: unknown };
  const b = refPartFromWire(rest as ChatPartIn);
  return { ...b, cache: cacheMarkerFrom(cc)!, providerFields: { [KEY]: { ...fieldsFor(b, KEY), cacheControl: true } } };
}

function refPartFromWire(p: ChatPartIn): ContentBlock {
  switch (p.type) {
    case "text":
      return textFromPart(KEY, p);
    case "refusal":
      return refusalFromPart(KEY, p);
    case "image_url":
      return withOptional({ type: "image", url: p.image_url.url } as ContentBlock, {
        providerFields: providerFieldsOf(KEY, {
          ...extraFields(p, ["type", "image_url"]),
          ...extraFields(p.image_url, ["url"]),
        }),
      });
    case "input_audio":
      return audioFromPart(KEY, p);
    case "file": {
      const extras = { ...extraFields(p, ["type", "file"]), ...extraFields(p.file, ["file_data", "filename"]) };
      return withOptional(
        { type: "file" } as ContentBlock,
        { data: p.file.file_data, name: p.file.filename, providerFields: providerFieldsOf(KEY, extras) } as object,
      );
    }
  }
}

/** Parsed (schema-checked) Chat Completions request → normalized request. */
export function referenceFromOpenAIChat(raw: ChatRequestIn): NormalizedRequest {
  const names = new ToolNames();
  const messages: Message[] = raw.messages.map((m) => {
    if (m.role === "function") {
      // The legacy answer to a function call: a tool result without an id.
      const block: ContentBlock = {
        type: "tool_result",
        toolCallId: "",
        name: m.name,
        result: m.content,
        providerFields: { [KEY]: { legacyFunction: true } },
      };
      return withOptional({ role: "tool", content: [block] } as Message, {
        providerFields: providerFieldsOf(KEY, extraFields(m, ["role", "name", "content"])),
      });
    }
    const content: ContentBlock[] = [];
    if (typeof m.content === "string") content.push({ type: "text", text: m.content });
    else if (Array.isArray(m.content) && m.role !== "tool")
      for (const p of m.content) content.push(refPartFrom(p as ChatPartIn));
    const extras: Record<string, JsonValue> = {
      ...extraFields(m, ["role", "content", "name", "tool_calls", "tool_call_id", "function_call", "images"]),
    };
    if (m.role === "user" && m.images)
      for (const data of m.images) content.push({ type: "image", data, providerFields: { [KEY]: { ollama: true } } });
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        names.add(c.id, c.function.name);
        const fx = { ...extraFields(c, ["id", "type", "function"]), ...extraFields(c.function, ["name", "arguments"]) };
        content.push(
          withOptional(
            {
              type: "tool_call",
              id: c.id,
              name: c.function.name,
              arguments: refParseArguments(c.function.arguments),
            } as ContentBlock,
            { providerFields: providerFieldsOf(KEY, fx) },
          ),
        );
      }
      if (m.function_call) {
        const f = m.function_call;
        content.push({
          type: "tool_call",
          id: "",
          name: f.name,
          arguments: refParseArguments(f.arguments),
          providerFields: { [KEY]: { ...extraFields(f, ["name", "arguments"]), legacyFunction: true } },
        });
      }
      if (m.content === undefined) extras.noContent = true;
    }
    if (m.role === "tool") {
      const parts = Array.isArray(m.content);
      const block = withOptional(
        {
          type: "tool_result",
          toolCallId: m.tool_call_id,
          name: names.get(m.tool_call_id),
          result: m.content as JsonValue,
        } as ContentBlock,
        {
          providerFields: parts ? { [KEY]: { contentParts: true } } : undefined,
        },
      );
      return withOptional({ role: "tool", content: [block] } as Message, {
        providerFields: providerFieldsOf(KEY, extras),
      });
    }
    return withOptional({ role: roleFromWire(m.role), content } as Message, {
      name: m.name,
      providerFields: refMessageFieldsFrom(KEY, extras, m.role),
    });
  });
  const tools: ToolDefinition[] = (raw.tools ?? []).map((t) => {
    if (t.type === "custom") return { name: t.custom.name, providerFields: { [KEY]: t as unknown as JsonObject } };
    const f = t.function;
    const extras = {
      ...extraFields(t, ["type", "function"]),
      ...extraFields(f, ["name", "description", "parameters"]),
    };
    return toolFromFunction(f.name, f.description, f.parameters, extras);
  });
  return withOptional({ model: { provider: "openai", model: raw.model }, messages, tools } as NormalizedRequest, {
    providerOptions: extraFields(raw, ["model", "messages", "tools", "prompt_cache_key"]),
    cacheKey: raw.prompt_cache_key,
  });
}
