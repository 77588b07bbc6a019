/**
 * OpenAI Chat Completions ⇄ normalized request.
 *
 * Canonical wire form: `model`, provider options, `prompt_cache_key` (from `cacheKey`),
 * `tools`, `messages`. Content that is one plain text block is a string; an assistant turn
 * with tool calls and no text has `content: null`. `developer` messages are system messages
 * marked `providerFields.openai.role`. Tool-call `arguments` stay text unless they are compact
 * JSON (see `parseArguments`). Thinking blocks are not sent (Chat Completions takes none back).
 */
import { InvalidInputError } from "../util/errors.ts";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message, ProviderFields } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import {
  cacheControlOf,
  cacheMarkerFrom,
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
import {
  audioFromPart,
  audioToPart,
  functionFields,
  mediaUrl,
  messageFieldsFrom,
  refusalFromPart,
  roleFromWire,
  roleToWire,
  textFromPart,
  textToPart,
  toolFromFunction,
} from "./openai-parts.ts";
import type { ChatPartIn, ChatRequestIn } from "./openai-chat-schema.ts";
import type { NormalizedRequest } from "./types.ts";
import { chatRequest } from "./openai-chat-schema.ts";
import { ExportContext, type ExportOptions, type ExportResult, type Translator } from "./export-context.ts";
import { fromZodIssues } from "./issues.ts";
import { TRANSLATOR } from "./settings.ts";

const KEY = "openai-chat";

/**
 * A content part; a `cache_control` on it (OpenRouter and LiteLLM take Anthropic's marker there for
 * Claude) becomes the block's cache marker, remembered so it is written back.
 */
function partFrom(p: ChatPartIn): ContentBlock {
  const cc = (p as { cache_control?: unknown }).cache_control;
  if (cc === undefined) return partFromWire(p);
  const { cache_control: _, ...rest } = p as ChatPartIn & { cache_control?: unknown };
  const b = partFromWire(rest as ChatPartIn);
  return { ...b, cache: cacheMarkerFrom(cc)!, providerFields: { [KEY]: { ...fieldsFor(b, KEY), cacheControl: true } } };
}

function partFromWire(p: ChatPartIn): ContentBlock {
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

const MESSAGE_FIELDS = ["role", "content", "name", "tool_calls", "tool_call_id", "function_call", "images"];
const CALL_FIELDS = ["id", "type", "function"];
const FUNCTION_FIELDS = ["name", "arguments"];

/**
 * `block` (a fresh literal) with `providerFields` set when defined: `withOptional` without its
 * copies, on the path every message takes.
 */
function withFields<T extends object>(block: T, providerFields: ProviderFields | undefined): T {
  if (providerFields !== undefined) (block as { providerFields?: ProviderFields }).providerFields = providerFields;
  return block;
}

/** Parsed (schema-checked) Chat Completions request → normalized request. */
export function fromOpenAIChat(raw: ChatRequestIn): NormalizedRequest {
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
    // A string content (most messages) makes its list at its size: a push onto an empty list
    // reserved room for 17 blocks, kept by every message for as long as the request lives.
    const content: ContentBlock[] = typeof m.content === "string" ? [{ type: "text", text: m.content }] : [];
    if (Array.isArray(m.content) && m.role !== "tool")
      for (const p of m.content) content.push(partFrom(p as ChatPartIn));
    // A fresh object when the message has extra fields (`noContent` may be added below); else
    // undefined, not an empty object per message.
    let extras = extraFields(m, MESSAGE_FIELDS) as Record<string, JsonValue> | undefined;
    if (m.role === "user" && m.images)
      for (const data of m.images) content.push({ type: "image", data, providerFields: { [KEY]: { ollama: true } } });
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        names.add(c.id, c.function.name);
        const cx = extraFields(c, CALL_FIELDS);
        const fx = extraFields(c.function, FUNCTION_FIELDS);
        content.push(
          withFields(
            {
              type: "tool_call",
              id: c.id,
              name: c.function.name,
              arguments: parseArguments(c.function.arguments),
            } as ContentBlock,
            cx || fx ? { [KEY]: { ...cx, ...fx } } : undefined,
          ),
        );
      }
      if (m.function_call) {
        const f = m.function_call;
        content.push({
          type: "tool_call",
          id: "",
          name: f.name,
          arguments: parseArguments(f.arguments),
          providerFields: { [KEY]: { ...extraFields(f, ["name", "arguments"]), legacyFunction: true } },
        });
      }
      if (m.content === undefined) (extras ??= {}).noContent = true;
    }
    if (m.role === "tool") {
      const parts = Array.isArray(m.content);
      const block = withFields(
        {
          type: "tool_result",
          toolCallId: m.tool_call_id,
          name: names.get(m.tool_call_id),
          result: m.content as JsonValue,
        } as ContentBlock,
        parts ? { [KEY]: { contentParts: true } } : undefined,
      );
      return withFields({ role: "tool", content: [block] } as Message, providerFieldsOf(KEY, extras));
    }
    const message = { role: roleFromWire(m.role), content } as Message & { name?: string };
    if (m.name !== undefined) message.name = m.name;
    return withFields(message, messageFieldsFrom(KEY, extras, m.role));
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

function partTo(b: ContentBlock, path: string): JsonObject | undefined {
  const { cacheControl, ...extras } = fieldsFor(b, KEY);
  const part = partToWire(b, path, extras);
  return part && cacheControl === true && b.cache ? { ...part, cache_control: cacheControlOf(b.cache)! } : part;
}

function partToWire(b: ContentBlock, path: string, extras: JsonObject): JsonObject | undefined {
  switch (b.type) {
    case "text":
      return textToPart(b.text, extras, "text");
    case "image": {
      const m = mediaSource(b);
      if (!m) throw new InvalidInputError(path, "an image block needs data or a url");
      return {
        type: "image_url",
        image_url: compact({ url: mediaUrl(m), detail: extras.detail }),
        ...omitKeys(extras, ["detail"]),
      };
    }
    case "audio":
      return audioToPart(b, extras, path, "Chat Completions");
    case "file":
    case "document": {
      const data = b.data ?? (b.type === "document" && b.text !== undefined ? undefined : b.url);
      if (b.type === "document" && b.text !== undefined && b.data === undefined) return { type: "text", text: b.text };
      return {
        type: "file",
        file: compact({ file_id: extras.file_id, file_data: data, filename: b.name }),
        ...omitKeys(extras, ["file_id"]),
      };
    }
    case "thinking":
    case "opaque":
      return undefined;
    default:
      throw new InvalidInputError(path, `a ${b.type} block cannot be a content part in Chat Completions`);
  }
}

/** Normalized request → Chat Completions request body (deterministic key order), with what the export dropped. */
export function writeOpenAIChat(
  request: ProviderRequest | NormalizedRequest,
  options: ExportOptions = {},
  translator?: Translator,
): ExportResult {
  assertProviderRequest(request);
  const ctx = new ExportContext("openai-chat", request, options ?? {}, translator);
  const messages: JsonObject[] = [];
  request.messages.forEach((m, i) => {
    // Chat Completions has no opaque blocks of its own: another format's are dropped, each named.
    m.content.forEach((b, j) => {
      if (b.type === "opaque") ctx.opaqueDropped(`messages[${i}].content[${j}]`, b);
    });
    const extras = fieldsFor(m, KEY);
    const results = m.content.filter((b) => b.type === "tool_result");
    for (const r of results) {
      if (r.type !== "tool_result") continue;
      if (fieldsFor(r, KEY).legacyFunction === true) {
        const content = r.result === null ? null : resultText(r);
        messages.push(withExtras({ role: "function", name: r.name, content }, m.role === "tool" ? extras : undefined));
        continue;
      }
      const content = fieldsFor(r, KEY).contentParts === true ? r.result : resultText(r);
      messages.push(
        withExtras({ role: "tool", tool_call_id: r.toolCallId, content }, m.role === "tool" ? extras : undefined),
      );
    }
    if (m.role === "tool") return;
    const calls: JsonObject[] = [];
    const parts: JsonObject[] = [];
    const images: string[] = [];
    let legacyCall: JsonObject | undefined;
    m.content.forEach((b, j) => {
      if (b.type === "tool_result") return;
      if (b.type === "image" && b.data !== undefined && fieldsFor(b, KEY).ollama === true) {
        images.push(b.data);
        return;
      }
      if (b.type === "tool_call" && fieldsFor(b, KEY).legacyFunction === true) {
        const { legacyFunction: _, ...fx } = fieldsFor(b, KEY);
        legacyCall = withExtras({ name: b.name, arguments: stringifyArguments(b.arguments) }, fx);
        return;
      }
      if (b.type === "tool_call") {
        const fx = fieldsFor(b, KEY);
        calls.push(
          withExtras(
            { id: b.id, type: "function", function: { name: b.name, arguments: stringifyArguments(b.arguments) } },
            fx,
          ),
        );
        return;
      }
      if (b.type === "thinking") return ctx.thinkingDropped(`messages[${i}].content[${j}]`, b);
      if (b.type === "opaque") return;
      const p = partTo(b, `messages[${i}].content[${j}]`);
      if (p) parts.push(p);
    });
    if (results.length > 0 && parts.length === 0 && calls.length === 0) return;
    // Every block was another format's (opaque or thinking) and dropped with a warning: no empty message.
    if (
      parts.length === 0 &&
      calls.length === 0 &&
      m.content.every((b) => b.type === "opaque" || b.type === "thinking")
    )
      return;
    const textOnly = m.content.filter(
      (b) => b.type !== "tool_call" && b.type !== "thinking" && !(b.type === "image" && fieldsFor(b, KEY).ollama),
    );
    const content: JsonValue | undefined =
      textOnly.length === 1 && isPlainTextFor(textOnly[0]!, KEY, false)
        ? textOnly[0].text
        : parts.length > 0
          ? parts
          : extras.noContent === true
            ? undefined
            : null;
    messages.push(
      compact({
        role: roleToWire(m),
        content,
        name: m.name,
        tool_calls: calls.length > 0 ? calls : undefined,
        function_call: legacyCall,
        images: images.length > 0 ? images : undefined,
        ...omitKeys(extras, ["noContent"]),
      }),
    );
  });
  const tools: JsonObject[] = [];
  request.tools.forEach((t, i) => {
    const hosted = ctx.hostedTool(t);
    if (hosted)
      return ctx.warn("tool_dropped", `tools[${i}]`, `${hosted} has no Chat Completions equivalent: not written.`);
    const own = fieldsFor(t, KEY);
    if (own.type === "custom") return tools.push(own);
    const schema = t.inputSchema === undefined ? undefined : ctx.schema(t.inputSchema);
    tools.push({
      type: "function",
      function: functionFields(schema === t.inputSchema ? t : { ...t, inputSchema: schema as JsonValue }),
    });
  });
  const model = options?.model ?? request.model.model;
  if (ctx.crossing || model === "") ctx.checkModel(model, true);
  const out = ctx.head(model, request.providerOptions, ["model", "messages", "tools"]);
  if (request.cacheKey !== undefined && out.prompt_cache_key === undefined) out.prompt_cache_key = request.cacheKey;
  if (tools.length > 0) out.tools = tools;
  out.messages = messages;
  ctx.reportForeign(request);
  const body = compact(out);
  const r = chatRequest.safeParse(body);
  return ctx.result(body, r.success ? [] : fromZodIssues(r.error.issues, body));
}

/**
 * toOpenAIChat: the body plus what the export dropped, filled or approximated. A request read from
 * another format gets its settings translated (see settings.ts and the README's settings table).
 */
export function toOpenAIChat(request: ProviderRequest | NormalizedRequest, options: ExportOptions = {}): ExportResult {
  return writeOpenAIChat(request, options, TRANSLATOR);
}
