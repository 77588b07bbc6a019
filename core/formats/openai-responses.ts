/**
 * OpenAI Responses ⇄ normalized request.
 *
 * Canonical wire form: `model`, provider options, `prompt_cache_key` (from `cacheKey`),
 * `instructions`, `tools`, `input`. `input` is a string when the request is one plain user
 * text; a message item is `{ role, content: "text" }` when it is one plain text, else
 * `{ type: "message", role, content: [parts] }`. Consecutive assistant-side items (assistant
 * messages, `function_call`, `reasoning`) form one assistant message; item boundaries and ids
 * are kept in `providerFields["openai-responses"]`, reasoning items verbatim.
 */
import type { RequestFormatIssue } from "./errors.ts";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import { messageText } from "../messages/build.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import {
  compact,
  isPlainTextFor,
  extraFields,
  fieldsFor,
  type JsonObject,
  mediaSource,
  missingStrings,
  omitKeys,
  opaqueBlock,
  ownOpaque,
  parseArguments,
  providerFieldsOf,
  resultText,
  stringifyArguments,
  ToolNames,
  type Warnings,
  warnUnknown,
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
import { fromZodIssues } from "./issues.ts";
import { schemaIssues } from "./schema-accepts.ts";
import {
  RESPONSES_ITEM_TYPES,
  RESPONSES_PASSTHROUGH,
  type ResponsesItemIn,
  type ResponsesPartIn,
  type ResponsesRequestIn,
  responsesFunctionCall,
  responsesFunctionOutput,
  responsesFunctionTool,
  responsesMessage,
  responsesReasoning,
} from "./openai-responses-schema.ts";
import { describeValue } from "../util/describe.ts";
import type { NormalizedRequest } from "./types.ts";
import { responsesRequest } from "./openai-responses-schema.ts";
import { ExportContext, type ExportOptions, type ExportResult, type Translator } from "./export-context.ts";
import { TRANSLATOR } from "./settings.ts";

const KEY = "openai-responses";

/** Checks each `input` item against the schema its `type` selects; issues carry `input[i]…` paths. */
export function checkResponsesItems(
  input: readonly Record<string, unknown>[],
  root: unknown,
): { items: ResponsesItemIn[]; issues: RequestFormatIssue[] } {
  const items: ResponsesItemIn[] = [];
  const issues: RequestFormatIssue[] = [];
  input.forEach((raw, i) => {
    // An item reference may be `{ id }` alone (its `type` is optional in the SDK).
    const type =
      raw.type === undefined && "role" in raw
        ? "message"
        : (raw.type ?? null) === null && typeof raw.id === "string"
          ? "item_reference"
          : raw.type;
    if (typeof type === "string" && !(RESPONSES_ITEM_TYPES as readonly string[]).includes(type)) {
      const known = Object.hasOwn(RESPONSES_PASSTHROUGH, type) ? RESPONSES_PASSTHROUGH[type]! : undefined;
      const missing = known ? missingStrings(raw, known[0], `input[${i}]`) : [];
      if (missing.length > 0) issues.push(...missing);
      else items.push({ kind: "opaque", item: raw, wireType: type, path: `input[${i}]` });
      return;
    }
    const schema =
      type === "message"
        ? responsesMessage
        : type === "function_call"
          ? responsesFunctionCall
          : type === "function_call_output"
            ? responsesFunctionOutput
            : type === "reasoning"
              ? responsesReasoning
              : undefined;
    if (!schema) {
      issues.push({
        code: raw.type === undefined ? "missing_field" : "invalid_value",
        path: `input[${i}].type`,
        message: `expected one of ${RESPONSES_ITEM_TYPES.map((t) => `"${t}"`).join(", ")} (or a message with a role), got ${describeValue(raw.type)}`,
      });
      return;
    }
    const bad = schemaIssues(schema, raw);
    if (bad) issues.push(...fromZodIssues(bad, root, ["input", i]));
    else items.push({ kind: type as ResponsesItemIn["kind"], item: raw } as unknown as ResponsesItemIn);
  });
  return { items, issues };
}

/** Checks function tools (hosted tools pass through verbatim). */
export function checkResponsesTools(
  tools: readonly { type: string }[] | undefined,
  root: unknown,
): RequestFormatIssue[] {
  const issues: RequestFormatIssue[] = [];
  (tools ?? []).forEach((t, i) => {
    if (t.type !== "function") return;
    const bad = schemaIssues(responsesFunctionTool, t);
    if (bad) issues.push(...fromZodIssues(bad, root, ["tools", i]));
  });
  return issues;
}

function partFrom(p: ResponsesPartIn): ContentBlock {
  switch (p.type) {
    case "input_text":
    case "output_text":
      return textFromPart(KEY, p);
    case "refusal":
      return refusalFromPart(KEY, p);
    case "input_image":
      return withOptional(
        { type: "image" } as ContentBlock,
        { url: p.image_url, providerFields: providerFieldsOf(KEY, extraFields(p, ["type", "image_url"])) } as object,
      );
    case "input_file":
      return withOptional(
        { type: "file" } as ContentBlock,
        {
          data: p.file_data,
          name: p.filename,
          providerFields: providerFieldsOf(KEY, extraFields(p, ["type", "file_data", "filename"])),
        } as object,
      );
    case "input_audio":
      return audioFromPart(KEY, p);
  }
}

const contentOf = (content: string | readonly ResponsesPartIn[]): ContentBlock[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : content.map(partFrom);

/** Parsed Responses request (with its checked items) → normalized request. */
export function fromOpenAIResponses(
  raw: ResponsesRequestIn,
  items: readonly ResponsesItemIn[],
  warnings: Warnings = [],
): NormalizedRequest {
  const names = new ToolNames();
  const messages: Message[] = [];
  if (raw.instructions !== undefined)
    messages.push({
      role: "system",
      content: [{ type: "text", text: raw.instructions }],
      providerFields: { [KEY]: { instructions: true } },
    });
  if (typeof raw.input === "string") messages.push({ role: "user", content: [{ type: "text", text: raw.input }] });
  let group: ContentBlock[] | undefined;
  const flush = () => {
    if (group) messages.push({ role: "assistant", content: group });
    group = undefined;
  };
  for (const entry of items) {
    if (entry.kind === "opaque") {
      // Items Strata does not model: what the model did joins the assistant turn, what answers it stands alone.
      const known = Object.hasOwn(RESPONSES_PASSTHROUGH, entry.wireType);
      if (!known) warnUnknown(warnings, entry.path, KEY, entry.wireType);
      const block = opaqueBlock(KEY, entry.wireType, entry.item);
      if (known && RESPONSES_PASSTHROUGH[entry.wireType]![1]) {
        flush();
        messages.push({ role: "tool", content: [block] });
      } else (group ??= []).push(block);
      continue;
    }
    const { kind, item } = entry;
    if (kind === "message" && item.role === "assistant") {
      const blocks = contentOf(item.content);
      const start = { itemStart: extraFields(item, ["type", "role", "content"]) ?? {} };
      const first = blocks[0];
      if (first)
        blocks[0] = {
          ...first,
          providerFields: { ...first.providerFields, [KEY]: { ...fieldsFor(first, KEY), ...start } },
        };
      (group ??= []).push(...blocks);
    } else if (kind === "function_call") {
      names.add(item.call_id, item.name);
      (group ??= []).push(
        withOptional(
          {
            type: "tool_call",
            id: item.call_id,
            name: item.name,
            arguments: parseArguments(item.arguments),
          } as ContentBlock,
          {
            providerFields: providerFieldsOf(KEY, extraFields(item, ["type", "call_id", "name", "arguments"])),
          },
        ),
      );
    } else if (kind === "reasoning") {
      const text = item.summary.map((s) => s.text).join("\n\n");
      (group ??= []).push(
        withOptional(
          { type: "thinking", text } as ContentBlock,
          {
            signature: item.encrypted_content ?? undefined,
            providerFields: { [KEY]: { item: item as unknown as JsonObject } },
          } as object,
        ),
      );
    } else {
      flush();
      if (kind === "function_call_output") {
        const extras: Record<string, JsonValue> = { ...extraFields(item, ["type", "call_id", "output"]) };
        if (Array.isArray(item.output)) extras.contentParts = true;
        const block = withOptional(
          {
            type: "tool_result",
            toolCallId: item.call_id,
            name: names.get(item.call_id),
            result: item.output as JsonValue,
          } as ContentBlock,
          {
            providerFields: providerFieldsOf(KEY, extras),
          },
        );
        messages.push({ role: "tool", content: [block] });
      } else {
        const fields = messageFieldsFrom(KEY, extraFields(item, ["type", "role", "content"]), item.role);
        messages.push(
          withOptional({ role: roleFromWire(item.role), content: contentOf(item.content) } as Message, {
            providerFields: fields,
          }),
        );
      }
    }
  }
  flush();
  const tools: ToolDefinition[] = (raw.tools ?? []).map((t) => {
    if (t.type !== "function") return { name: t.name ?? t.type, providerFields: { [KEY]: t as unknown as JsonObject } };
    const f = t as unknown as { name: string; description?: string | null; parameters?: JsonObject | null };
    const extras = { ...extraFields(t, ["type", "name", "description", "parameters"]) };
    if (f.description === null) extras.description = null;
    if (f.parameters === null) extras.parameters = null;
    return toolFromFunction(f.name, f.description ?? undefined, f.parameters ?? undefined, extras);
  });
  return withOptional({ model: { provider: "openai", model: raw.model ?? "" }, messages, tools } as NormalizedRequest, {
    providerOptions: extraFields(raw, ["model", "instructions", "input", "tools", "prompt_cache_key"]),
    cacheKey: raw.prompt_cache_key,
  });
}

function partTo(b: ContentBlock, role: string, path: string): JsonObject | undefined {
  const extras = omitKeys(fieldsFor(b, KEY), ["itemStart"]);
  switch (b.type) {
    case "text":
      return textToPart(b.text, extras, role === "assistant" ? "output_text" : "input_text");
    case "image": {
      const m = mediaSource(b);
      return compact({ type: "input_image", image_url: m === undefined ? undefined : mediaUrl(m), ...extras });
    }
    case "audio":
      return audioToPart(b, extras, path, "Responses");
    case "file":
    case "document":
      if (b.type === "document" && b.text !== undefined && b.data === undefined)
        return { type: "input_text", text: b.text };
      return compact({ type: "input_file", file_data: b.data ?? b.url, filename: b.name, ...extras });
    default:
      return undefined;
  }
}

function messageItem(
  role: string,
  parts: JsonObject[],
  blocks: readonly ContentBlock[],
  extras: JsonObject | undefined,
): JsonObject {
  const plain =
    blocks.length === 1 &&
    isPlainTextFor(blocks[0]!, KEY, false, ["itemStart"]) &&
    (!extras || Object.keys(extras).length === 0);
  if (plain) return { role, content: (blocks[0] as { text: string }).text };
  return withExtras({ type: "message", role, content: parts }, extras);
}

/** Normalized request → Responses request body (deterministic key order), with what the export dropped. */
export function writeOpenAIResponses(
  request: ProviderRequest | NormalizedRequest,
  options: ExportOptions = {},
  translator?: Translator,
): ExportResult {
  assertProviderRequest(request);
  const ctx = new ExportContext("openai-responses", request, options ?? {}, translator);
  let instructions: string | undefined;
  const input: JsonObject[] = [];
  request.messages.forEach((m, i) => {
    m.content.forEach((b, j) => {
      if (b.type === "opaque") ctx.opaqueDropped(`messages[${i}].content[${j}]`, b);
    });
    const own = fieldsFor(m, KEY);
    if (m.role === "system" && own.instructions === true && instructions === undefined) {
      instructions = messageText(m);
      return;
    }
    // A turn of items kept verbatim: each goes back as it came (another format's: not written).
    if (m.content.length > 0 && m.content.every((b) => b.type === "opaque")) {
      for (const b of m.content) {
        const own = ownOpaque(b, KEY);
        if (own) input.push(own);
      }
      return;
    }
    for (const b of m.content) {
      if (b.type !== "tool_result") continue;
      const x = fieldsFor(b, KEY);
      input.push(
        withExtras(
          {
            type: "function_call_output",
            call_id: b.toolCallId,
            output: x.contentParts === true ? b.result : resultText(b),
          },
          omitKeys(x, ["contentParts"]),
        ),
      );
    }
    if (m.role === "tool") return;
    const role = roleToWire(m);
    if (m.role !== "assistant") {
      const blocks = m.content.filter((b) => b.type !== "tool_result");
      if (blocks.length === 0) return;
      const parts = blocks
        .map((b, j) => partTo(b, role, `messages[${i}].content[${j}]`))
        .filter((p): p is JsonObject => p !== undefined);
      input.push(messageItem(role, parts, blocks, own));
      return;
    }
    // A run of consecutive content blocks, from content[runStart], becomes one message item.
    let run: ContentBlock[] = [];
    let runStart = 0;
    let runExtras: JsonObject | undefined;
    const close = () => {
      if (run.length > 0)
        input.push(
          messageItem(
            "assistant",
            run.map((b, k) => partTo(b, "assistant", `messages[${i}].content[${runStart + k}]`)!).filter(Boolean),
            run,
            runExtras,
          ),
        );
      run = [];
      runExtras = undefined;
    };
    for (let j = 0; j < m.content.length; j++) {
      const b = m.content[j]!;
      const x = fieldsFor(b, KEY);
      if (b.type === "text" || b.type === "image" || b.type === "file" || b.type === "document" || b.type === "audio") {
        if (x.itemStart !== undefined) close();
        if (run.length === 0) {
          runExtras = x.itemStart as JsonObject | undefined;
          runStart = j;
        }
        run.push(b);
        continue;
      }
      close();
      if (b.type === "tool_call")
        input.push(
          compact({
            type: "function_call",
            call_id: b.id,
            name: b.name,
            arguments: stringifyArguments(b.arguments),
            ...x,
          }),
        );
      else if (b.type === "thinking" && x.item !== undefined) input.push(x.item as JsonObject);
      else if (b.type === "thinking") ctx.thinkingDropped(`messages[${i}].content[${j}]`, b);
      else if (b.type === "opaque") {
        const own = ownOpaque(b, KEY);
        if (own) input.push(own);
      }
    }
    close();
  });
  const tools: JsonObject[] = [];
  request.tools.forEach((t, i) => {
    const hosted = ctx.hostedTool(t);
    if (hosted) return ctx.warn("tool_dropped", `tools[${i}]`, `${hosted} has no Responses equivalent: not written.`);
    const own = fieldsFor(t, KEY);
    if (typeof own.type === "string" && own.type !== "function") return tools.push(own);
    const schema = t.inputSchema === undefined ? undefined : ctx.schema(t.inputSchema);
    tools.push({
      type: "function",
      ...functionFields(schema === t.inputSchema ? t : { ...t, inputSchema: schema as JsonValue }),
    });
  });
  const model = options?.model ?? request.model.model;
  if (ctx.crossing) ctx.checkModel(model, false);
  const out = ctx.head(model, request.providerOptions, ["model", "instructions", "input", "tools"]);
  if (model === "") out.model = undefined;
  if (request.cacheKey !== undefined && out.prompt_cache_key === undefined) out.prompt_cache_key = request.cacheKey;
  out.instructions = instructions;
  if (tools.length > 0) out.tools = tools;
  const only = input.length === 1 ? input[0]! : undefined;
  // A body that only names a stored prompt sends no input.
  if (input.length > 0 || instructions !== undefined || out.prompt === undefined)
    out.input =
      only && only.role === "user" && typeof only.content === "string" && Object.keys(only).length === 2
        ? only.content
        : input;
  ctx.reportForeign(request);
  const body = compact(out);
  const r = responsesRequest.safeParse(body);
  const issues = r.success ? [] : fromZodIssues(r.error.issues, body);
  if (r.success && Array.isArray(body.input))
    issues.push(...checkResponsesItems(body.input as Record<string, unknown>[], body).issues);
  if (r.success) issues.push(...checkResponsesTools(body.tools as { type: string }[] | undefined, body));
  return ctx.result(body, issues);
}

/**
 * toOpenAIResponses: the body plus what the export dropped, filled or approximated. A request read from
 * another format gets its settings translated (see settings.ts and the README's settings table).
 */
export function toOpenAIResponses(
  request: ProviderRequest | NormalizedRequest,
  options: ExportOptions = {},
): ExportResult {
  return writeOpenAIResponses(request, options, TRANSLATOR);
}
