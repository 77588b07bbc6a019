/**
 * Anthropic Messages ⇄ normalized request.
 *
 * Canonical wire form (what `toAnthropic` writes and round-trips byte for byte):
 * `model`, the provider options in their order, then `tools`, `system`, `messages` (prompt order).
 * A message or system prompt that is one plain text block is written as a string.
 * The leading system messages form `system`; a later system message (a loaded skill, a reminder)
 * is written in place as a user turn wrapped in `systemMarker` (see system-placement.ts).
 * Consecutive `tool` messages become one user turn of `tool_result` blocks.
 * Block types Strata does not model (server tools, search results, MCP, …) are opaque blocks,
 * written back as they came; an unknown type is kept the same way, with a warning.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import {
  ANTHROPIC_MODELLED,
  ANTHROPIC_PASSTHROUGH,
  type AnthropicBlockIn,
  type AnthropicMessageBlockIn,
  type AnthropicRequestIn,
  anthropicBlock,
} from "./anthropic-schema.ts";
import type { RequestFormatIssue } from "./errors.ts";
import { fromZodIssues } from "./issues.ts";
import { schemaIssues } from "./schema-accepts.ts";
import {
  argumentsObject,
  cacheControlOf,
  cacheMarkerFrom,
  compact,
  extraFields,
  fieldsFor,
  isPlainTextFor,
  type JsonObject,
  mediaSource,
  missingStrings,
  omitKeys,
  opaqueBlock,
  ownOpaque,
  providerFieldsOf,
  resultText,
  ToolNames,
  type Warnings,
  warnUnknown,
  withExtras,
  withOptional,
} from "./convert-util.ts";
import {
  leadingSystemCount,
  markedSystemBlock,
  type SystemPlacementOptions,
  systemMarkerOption,
} from "./system-placement.ts";
import type { NormalizedRequest } from "./types.ts";
import { anthropicRequest } from "./anthropic-schema.ts";
import { asObject, ExportContext, type ExportOptions, type ExportResult, type Translator } from "./export-context.ts";
import { ANTHROPIC_EXPORT_MAX_TOKENS, findModel } from "./models.ts";
import { TRANSLATOR } from "./settings.ts";

const KEY = "anthropic";

function blockFrom(b: AnthropicBlockIn, names: ToolNames): ContentBlock {
  const cache = cacheMarkerFrom(b.cache_control);
  switch (b.type) {
    case "text":
      return withOptional({ type: "text", text: b.text } as ContentBlock, {
        cache,
        providerFields: providerFieldsOf(KEY, extraFields(b, ["type", "text", "cache_control"])),
      });
    case "image":
    case "document": {
      const s = b.source as Record<string, unknown>;
      const keys = Object.keys(s);
      const extras: Record<string, JsonValue> = { ...extraFields(b, ["type", "source", "title", "cache_control"]) };
      let media: Record<string, string> = {};
      if (s.type === "base64" && keys.length === 3)
        media = { mimeType: s.media_type as string, data: s.data as string };
      else if (s.type === "url" && keys.length === 2) media = { url: s.url as string };
      else if (s.type === "text" && keys.length === 3 && b.type === "document")
        media = { mimeType: s.media_type as string, text: s.data as string };
      else extras.source = s as JsonValue;
      const title = b.type === "document" ? b.title : undefined;
      return withOptional(
        { type: b.type, ...media } as ContentBlock,
        { name: title, cache, providerFields: providerFieldsOf(KEY, extras) } as object,
      );
    }
    case "tool_use":
      names.add(b.id, b.name);
      return withOptional(
        { type: "tool_call", id: b.id, name: b.name, arguments: b.input as JsonValue } as ContentBlock,
        {
          cache,
          providerFields: providerFieldsOf(KEY, extraFields(b, ["type", "id", "name", "input", "cache_control"])),
        },
      );
    case "tool_result": {
      const extras: Record<string, JsonValue> = {
        ...extraFields(b, ["type", "tool_use_id", "content", "is_error", "cache_control"]),
      };
      if (Array.isArray(b.content)) extras.contentBlocks = true;
      if (b.content === undefined) extras.noContent = true;
      return withOptional(
        {
          type: "tool_result",
          toolCallId: b.tool_use_id,
          name: names.get(b.tool_use_id),
          result: (b.content ?? "") as JsonValue,
        } as ContentBlock,
        { isError: b.is_error, cache, providerFields: providerFieldsOf(KEY, extras) } as object,
      );
    }
    case "thinking":
      return withOptional(
        { type: "thinking", text: b.thinking } as ContentBlock,
        {
          signature: b.signature,
          cache,
          providerFields: providerFieldsOf(KEY, extraFields(b, ["type", "thinking", "signature", "cache_control"])),
        } as object,
      );
    case "redacted_thinking":
      return withOptional({ type: "thinking", text: b.data, redacted: true } as ContentBlock, {
        cache,
        providerFields: providerFieldsOf(KEY, extraFields(b, ["type", "data", "cache_control"])),
      });
  }
}

/** Checks each message block against the schema its `type` selects; issues carry `messages[i].content[j]…` paths. */
export function checkAnthropicBlocks(raw: AnthropicRequestIn, root: unknown): RequestFormatIssue[] {
  const issues: RequestFormatIssue[] = [];
  raw.messages.forEach((m, i) => {
    if (typeof m.content === "string") return;
    m.content.forEach((b, j) => {
      if (ANTHROPIC_MODELLED.has(b.type)) {
        const bad = schemaIssues(anthropicBlock, b);
        if (bad) issues.push(...fromZodIssues(bad, root, ["messages", i, "content", j]));
      } else if (Object.hasOwn(ANTHROPIC_PASSTHROUGH, b.type))
        issues.push(...missingStrings(b, ANTHROPIC_PASSTHROUGH[b.type]!, `messages[${i}].content[${j}]`));
    });
  });
  return issues;
}

/** A message block: modelled, kept verbatim (known), or kept verbatim with a warning (unknown type). */
function messageBlockFrom(b: AnthropicMessageBlockIn, names: ToolNames, path: string, warnings: Warnings) {
  if (ANTHROPIC_MODELLED.has(b.type)) return blockFrom(b as AnthropicBlockIn, names);
  if (!Object.hasOwn(ANTHROPIC_PASSTHROUGH, b.type)) warnUnknown(warnings, path, KEY, b.type);
  return opaqueBlock(KEY, b.type, b, cacheMarkerFrom(b.cache_control));
}

/** Parsed (schema-checked) Anthropic request → normalized request. */
export function fromAnthropic(raw: AnthropicRequestIn, warnings: Warnings = []): NormalizedRequest {
  const names = new ToolNames();
  const messages: Message[] = [];
  if (raw.system !== undefined) {
    const blocks =
      typeof raw.system === "string"
        ? [{ type: "text", text: raw.system } as ContentBlock]
        : raw.system.map((b) => blockFrom(b, names));
    messages.push({ role: "system", content: blocks });
  }
  for (const [i, m] of raw.messages.entries()) {
    const content =
      typeof m.content === "string"
        ? [{ type: "text", text: m.content } as ContentBlock]
        : m.content.map((b, j) => messageBlockFrom(b, names, `messages[${i}].content[${j}]`, warnings));
    const allResults = content.length > 0 && content.every((b) => b.type === "tool_result");
    const role = m.role === "user" && allResults ? "tool" : m.role;
    messages.push(
      withOptional({ role, content } as Message, {
        providerFields: providerFieldsOf(KEY, extraFields(m, ["role", "content"])),
      }),
    );
  }
  const tools: ToolDefinition[] = (raw.tools ?? []).map((t) =>
    withOptional({ name: t.name } as ToolDefinition, {
      description: t.description,
      inputSchema: t.input_schema as JsonValue | undefined,
      cache: cacheMarkerFrom(t.cache_control),
      providerFields: providerFieldsOf(KEY, extraFields(t, ["name", "description", "input_schema", "cache_control"])),
    }),
  );
  const options = extraFields(raw, ["model", "system", "messages", "tools"]);
  return withOptional({ model: { provider: "anthropic", model: raw.model }, messages, tools } as NormalizedRequest, {
    providerOptions: options,
  });
}

export interface ToAnthropicOptions extends ExportOptions, SystemPlacementOptions {
  /**
   * Paths (`tools[2]`, `messages[0].content[1]`) that get `cache_control`; when given they replace
   * the request's own markers. A block that already has a marker keeps its `ttl`; `{ path, ttl }`
   * sets one. At most 4 (Anthropic's limit), one fewer when the request asks for automatic caching
   * (top-level `cache_control`), which takes a slot. `suggestCacheBreakpoints` says where.
   */
  readonly breakpoints?: readonly (string | { readonly path: string; readonly ttl?: "5m" | "1h" })[];
}

function blockTo(b: ContentBlock, path: string, cacheCtl: JsonObject | undefined): JsonObject | undefined {
  const extras = fieldsFor(b, KEY);
  switch (b.type) {
    case "opaque": {
      const own = ownOpaque(b, KEY);
      if (!own) return undefined;
      // Verbatim, unless the breakpoints asked for moved its marker.
      const has = own.cache_control !== undefined;
      if (cacheCtl === undefined) return has ? omitKeys(own, ["cache_control"]) : own;
      return has && b.cache !== undefined ? own : { ...omitKeys(own, ["cache_control"]), cache_control: cacheCtl };
    }
    case "text":
      return withExtras(compact({ type: "text", text: b.text }), compact({ ...extras, cache_control: cacheCtl }));
    case "image":
    case "document":
    case "file": {
      let source: JsonValue | undefined = extras.source;
      if (source === undefined && b.type === "document" && b.text !== undefined)
        source = { type: "text", media_type: b.mimeType ?? "text/plain", data: b.text };
      if (source === undefined) {
        const m = mediaSource(b);
        if (!m) throw new InvalidInputError(path, `a ${b.type} block needs data or a url`);
        source =
          m.kind === "data" ? { type: "base64", media_type: m.mimeType, data: m.data } : { type: "url", url: m.url };
      }
      const name = b.type === "image" ? undefined : b.name;
      return compact({
        type: b.type === "image" ? "image" : "document",
        source,
        title: name,
        ...omitKeys(extras, ["source"]),
        cache_control: cacheCtl,
      });
    }
    case "audio":
      throw new InvalidInputError(
        path,
        "Anthropic Messages has no audio blocks: transcribe the audio or send it to a provider that takes audio",
      );
    case "tool_call":
      return compact({
        type: "tool_use",
        id: b.id,
        name: b.name,
        input: argumentsObject(b.arguments, `${path}.arguments`),
        ...extras,
        cache_control: cacheCtl,
      });
    case "tool_result": {
      const content = extras.noContent === true ? undefined : extras.contentBlocks === true ? b.result : resultText(b);
      return compact({
        type: "tool_result",
        tool_use_id: b.toolCallId,
        content,
        is_error: b.isError,
        ...omitKeys(extras, ["contentBlocks", "noContent"]),
        cache_control: cacheCtl,
      });
    }
    case "thinking":
      if (b.redacted) return compact({ type: "redacted_thinking", data: b.text, ...extras, cache_control: cacheCtl });
      return compact({
        type: "thinking",
        thinking: b.text,
        signature: b.signature,
        ...extras,
        cache_control: cacheCtl,
      });
  }
}

/** The body against the Anthropic request schema, plus the fields the API requires that the read schema leaves optional. */
function checkBody(body: JsonObject): RequestFormatIssue[] {
  const r = anthropicRequest.safeParse(body);
  const issues = r.success ? [] : fromZodIssues(r.error.issues, body);
  if (typeof body.max_tokens !== "number")
    issues.push({ code: "missing_field", path: "max_tokens", message: "required" });
  return issues;
}

/**
 * `max_tokens` for a request that sets none: the target Claude model's export default from the
 * model table, else the source model's (capped at `ANTHROPIC_EXPORT_MAX_TOKENS`), else that cap.
 */
function defaultMaxTokens(model: string, sourceModel: string): { value: number; from: string } {
  const own = model === "" ? null : findModel(model, "anthropic").row;
  if (own) return { value: own.exportMaxTokens, from: `the model table's default for ${own.family}` };
  const other = sourceModel === "" ? null : findModel(sourceModel).row;
  if (other)
    return {
      value: other.exportMaxTokens,
      from: `what ${other.family} allows, capped at ${ANTHROPIC_EXPORT_MAX_TOKENS}`,
    };
  return { value: ANTHROPIC_EXPORT_MAX_TOKENS, from: "Strata's export default" };
}

/** Normalized request → Anthropic Messages request body (deterministic key order), with what the export dropped or filled. */
export function writeAnthropic(
  request: ProviderRequest | NormalizedRequest,
  options: ToAnthropicOptions = {},
  translator?: Translator,
): ExportResult {
  assertProviderRequest(request);
  if (options === null || typeof options !== "object")
    throw new InvalidInputError("options", "must be an object ({ breakpoints?, systemMarker?, model?, from? }).");
  const ctx = new ExportContext("anthropic", request, options, translator);
  if (options.breakpoints !== undefined && !Array.isArray(options.breakpoints))
    throw new InvalidInputError("breakpoints", "must be an array of paths (or suggestCacheBreakpoints' result).");
  const ttls = new Map<string, "5m" | "1h" | undefined>();
  const explicit = options.breakpoints?.map((b, i) => {
    const path: unknown = typeof b === "string" ? b : (b as { path?: unknown } | null)?.path;
    if (typeof path !== "string")
      throw new InvalidInputError(`breakpoints[${i}]`, 'must be a path like "messages[3].content[0]" or { path }.');
    const ttl = typeof b === "string" ? undefined : b.ttl;
    if (ttl !== undefined && ttl !== "5m" && ttl !== "1h")
      throw new InvalidInputError(`breakpoints[${i}].ttl`, 'must be "5m" or "1h".');
    ttls.set(path, ttl);
    return path;
  });
  const automatic = request.providerOptions?.cache_control;
  const slots = automatic === undefined || automatic === null ? 4 : 3;
  if (explicit && explicit.length > slots) {
    throw new InvalidInputError(
      "breakpoints",
      `Anthropic allows at most 4 cache breakpoints per request${slots < 4 ? ", and the top-level cache_control (automatic caching) takes one" : ""}; got ${explicit.length}: keep the ${slots} that end the longest stable prefixes`,
    );
  }
  const used = new Set<string>();
  // Explicit breakpoints replace the request's own markers; a marker already there keeps its ttl.
  const markerFor = (path: string, cache: ContentBlock["cache"]): JsonObject | undefined => {
    if (!explicit) return cacheControlOf(cache);
    if (!ttls.has(path)) return undefined;
    used.add(path);
    const ttl = ttls.get(path) ?? cache?.ttl;
    return ttl ? { type: "ephemeral", ttl } : { type: "ephemeral" };
  };

  const tools: JsonObject[] = [];
  request.tools.forEach((t, i) => {
    const hosted = ctx.hostedTool(t);
    const cacheControl = markerFor(`tools[${i}]`, t.cache);
    if (hosted) return ctx.warn("tool_dropped", `tools[${i}]`, `${hosted} has no Anthropic equivalent: not written.`);
    const extras = fieldsFor(t, KEY);
    const head: Record<string, JsonValue | undefined> = typeof extras.type === "string" ? { type: extras.type } : {};
    let schema = t.inputSchema;
    if (schema !== undefined) schema = ctx.schema(schema);
    if (ctx.crossing && schema === undefined && head.type === undefined) {
      schema = { type: "object", properties: {} };
      ctx.warn(
        "field_filled",
        `tools[${i}]`,
        "Anthropic needs an input_schema for every tool: written as an object with no properties.",
      );
    }
    tools.push(
      compact({
        ...head,
        name: t.name,
        description: t.description,
        input_schema: schema,
        ...omitKeys(extras, ["type"]),
        cache_control: cacheControl,
      }),
    );
  });

  const marker = systemMarkerOption(options.systemMarker);
  const leading = leadingSystemCount(request.messages);
  const system: JsonObject[] = [];
  const turns: { role: string; content: JsonObject[]; plain: string | undefined; extras: JsonObject; tool: boolean }[] =
    [];
  request.messages.forEach((m, i) => {
    const inSlot = m.role === "system" && i < leading;
    const blocks = m.content.flatMap((b, j) => {
      const path = `messages[${i}].content[${j}]`;
      if (inSlot && b.type !== "text" && (b.type !== "opaque" || b.format === KEY))
        throw new InvalidInputError(
          path,
          "Anthropic system prompts take text blocks only: move this block into a user message",
        );
      const block = m.role === "system" && !inSlot ? markedSystemBlock(b, marker) : b;
      const cacheControl = markerFor(path, b.cache);
      if (b.type === "thinking" && ctx.crossing) {
        ctx.thinkingDropped(path, b);
        return [];
      }
      const out = blockTo(block, path, cacheControl);
      if (!out) ctx.opaqueDropped(path, b);
      return out ? [out] : [];
    });
    if (blocks.length === 0) return;
    if (inSlot) {
      system.push(...blocks);
      return;
    }
    const single =
      m.content.length === 1 && isPlainTextFor(m.content[0]!, KEY, true) && blocks[0]!.cache_control === undefined
        ? (blocks[0]!.text as string)
        : undefined;
    const prev = turns[turns.length - 1];
    if (m.role === "tool" && prev && prev.tool) {
      prev.content.push(...blocks);
      prev.plain = undefined;
      return;
    }
    turns.push({
      role: m.role === "assistant" ? "assistant" : "user",
      content: blocks,
      plain: single,
      extras: fieldsFor(m, KEY),
      tool: m.role === "tool",
    });
  });
  if (explicit) {
    const missing = explicit.filter((p) => !used.has(p));
    if (missing.length > 0)
      throw new InvalidInputError(
        "breakpoints",
        `no tool or content block at ${missing.map((p) => `"${p}"`).join(", ")} (use paths like tools[2] or messages[3].content[0])`,
      );
  }
  const singleSystem =
    system.length === 1 && Object.keys(system[0]!).length === 2 && typeof system[0]!.text === "string"
      ? (system[0]!.text as string)
      : undefined;
  const model = options.model ?? request.model.model;
  if (ctx.crossing || model === "") ctx.checkModel(model, true);
  const out = ctx.head(model, request.providerOptions, ["model", "tools", "system", "messages"]);
  if (out.max_tokens === undefined) {
    const { value, from } = defaultMaxTokens(model, request.model.model);
    const thinking = asObject(out.thinking);
    const budget = typeof thinking?.budget_tokens === "number" ? thinking.budget_tokens : 0;
    // budget_tokens must stay below max_tokens.
    out.max_tokens = Math.max(value, budget + 1024);
    ctx.warn("field_filled", "max_tokens", `Anthropic requires max_tokens: written as ${out.max_tokens} (${from}).`);
  }
  const budget = asObject(out.thinking)?.budget_tokens;
  if (ctx.crossing && typeof budget === "number" && typeof out.max_tokens === "number" && budget >= out.max_tokens) {
    ctx.warn(
      "setting_approximated",
      "max_tokens",
      `Anthropic needs max_tokens above the thinking budget (${budget}): ${out.max_tokens} written as ${budget + 1024}.`,
    );
    out.max_tokens = budget + 1024;
  }
  const reorder = { model: out.model, max_tokens: out.max_tokens };
  if (tools.length > 0) out.tools = tools;
  if (system.length > 0) out.system = singleSystem ?? system;
  out.messages = turns.map((t) => withExtras({ role: t.role, content: t.plain ?? t.content }, t.extras));
  ctx.reportForeign(request);
  const body = compact(ctx.crossing ? { ...reorder, ...out } : out);
  return ctx.result(body, checkBody(body));
}

/**
 * toAnthropic: the body plus what the export dropped, filled or approximated. A request read from
 * another format gets its settings translated (see settings.ts and the README's settings table).
 */
export function toAnthropic(
  request: ProviderRequest | NormalizedRequest,
  options: ToAnthropicOptions = {},
): ExportResult {
  return writeAnthropic(request, options, TRANSLATOR);
}
