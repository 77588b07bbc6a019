/**
 * AWS Bedrock Converse ⇄ normalized request (`bedrock-converse`).
 *
 * Shapes from aws/aws-sdk-js-v3 clients/client-bedrock-runtime (`ConverseRequest`, `ContentBlock`,
 * `SystemContentBlock`, `Tool`, `CachePointBlock { type: "default", ttl?: "5m" | "1h" }`, read
 * 2026-12-01): every block is an object with exactly one member (`{ text }`, `{ image }`,
 * `{ toolUse }`, …) and no `type` field, which is what tells it from an Anthropic body.
 *
 * Canonical wire form (what `toBedrock` writes and round-trips byte for byte): `modelId` (the SDK's
 * field; the HTTP body has the model in the URL instead), the provider options in their order
 * (`inferenceConfig`, `additionalModelRequestFields`, …), then `toolConfig` (`tools`, then
 * `toolChoice`), `system`, `messages` — prompt order, as Anthropic's.
 * A `cachePoint` block marks the block before it (tools, system and messages alike): it becomes that
 * block's cache marker, as Anthropic's `cache_control`, and is written back after it. Images and
 * documents given as `bytes` are media blocks; video, audio, guard content, citations, search
 * results and S3 sources are kept verbatim; an unknown member is kept verbatim with a warning.
 */
import * as z from "zod/mini";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { CacheMarker, ContentBlock, JsonValue, Message, ProviderFields } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { ExportContext, type ExportOptions, type ExportResult, type Translator } from "./export-context.ts";
import { fromZodIssues } from "./issues.ts";
import { TRANSLATOR } from "./settings.ts";
import {
  leadingSystemCount,
  markedSystemBlock,
  type SystemPlacementOptions,
  systemMarkerOption,
} from "./system-placement.ts";
import { InvalidInputError } from "../util/errors.ts";
import {
  argumentsObject,
  compact,
  extraFields,
  fieldsFor,
  type JsonObject,
  mediaSource,
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
import type { RequestFormatIssue } from "./errors.ts";
import type { NormalizedRequest } from "./types.ts";
import {
  BEDROCK_MESSAGE_MEMBERS as MESSAGE_MEMBERS,
  BEDROCK_SYSTEM_MEMBERS as SYSTEM_MEMBERS,
} from "./bedrock-members.ts";

const KEY = "bedrock-converse";

const block = z.record(z.string(), z.unknown());
export const bedrockRequest = z.looseObject({
  modelId: z.optional(z.string()),
  model: z.optional(z.string()),
  messages: z.array(z.looseObject({ role: z.enum(["user", "assistant"]), content: z.array(block) })),
  system: z.optional(z.array(block)),
  toolConfig: z.optional(z.looseObject({ tools: z.optional(z.array(block)) })),
});
export type BedrockRequestIn = z.infer<typeof bedrockRequest>;
type Block = Record<string, unknown>;

const TOOL_MEMBERS = ["toolSpec", "cachePoint", "systemTool"];

const isObj = (v: unknown): v is Block => v !== null && typeof v === "object" && !Array.isArray(v);

/** Checks one union block: one member, no `type`, the member's required fields. */
function checkBlock(b: Block, path: string, members: readonly string[], issues: RequestFormatIssue[]): void {
  const keys = Object.keys(b);
  if (keys.includes("type")) {
    issues.push({
      code: "unknown_field",
      path: `${path}.type`,
      message:
        'a Converse block has no "type": it is one member such as { text } or { toolUse } (this looks like an Anthropic block)',
    });
    return;
  }
  const known = keys.filter((k) => members.includes(k));
  if (keys.length !== 1) {
    issues.push({
      code: keys.length === 0 ? "missing_field" : "invalid_value",
      path,
      message:
        keys.length === 0
          ? `a block needs one member (${members.join(", ")})`
          : `a block holds exactly one member, got ${keys.join(", ")}: split it`,
    });
    return;
  }
  if (known.length === 0) return; // unknown member: kept verbatim with a warning
  const m = keys[0]!;
  const v = b[m];
  const need = (field: string, ok: boolean, expected: string) => {
    if (!ok) issues.push({ code: "invalid_type", path: `${path}.${field}`, message: `expected ${expected}` });
  };
  if (m === "text") return need("text", typeof v === "string", "a string");
  if (!isObj(v)) return need(m, false, "an object");
  if (m === "toolUse") {
    need("toolUse.toolUseId", typeof v.toolUseId === "string", "a string");
    need("toolUse.name", typeof v.name === "string", "a string");
  } else if (m === "toolResult") {
    need("toolResult.toolUseId", typeof v.toolUseId === "string", "a string");
    need("toolResult.content", Array.isArray(v.content), "an array of result blocks");
  } else if (m === "cachePoint") need("cachePoint.type", typeof v.type === "string", 'a string ("default")');
  else if (m === "image" || m === "document") {
    need(`${m}.format`, typeof v.format === "string", "a string");
    need(`${m}.source`, isObj(v.source), "an object");
  } else if (m === "toolSpec") {
    need("toolSpec.name", typeof v.name === "string", "a string");
    need("toolSpec.inputSchema", isObj(v.inputSchema), "an object ({ json })");
  }
}

/** Every block of the request checked (`messages[i].content[j]`, `system[j]`, `toolConfig.tools[j]`). */
export function checkBedrockBlocks(raw: BedrockRequestIn): RequestFormatIssue[] {
  const issues: RequestFormatIssue[] = [];
  raw.messages.forEach((m, i) =>
    m.content.forEach((b, j) => checkBlock(b, `messages[${i}].content[${j}]`, MESSAGE_MEMBERS, issues)),
  );
  raw.system?.forEach((b, j) => checkBlock(b, `system[${j}]`, SYSTEM_MEMBERS, issues));
  raw.toolConfig?.tools?.forEach((b, j) => checkBlock(b, `toolConfig.tools[${j}]`, TOOL_MEMBERS, issues));
  return issues;
}

/** `{ type: "default", ttl? }` → a cache marker (Bedrock writes the same ttl values as Anthropic). */
function markerOf(cp: Block): CacheMarker {
  return cp.ttl === "5m" || cp.ttl === "1h" ? { type: "ephemeral", ttl: cp.ttl } : { type: "ephemeral" };
}

/** Puts a `cachePoint` on the block before it; false when there is none (or it has one already). */
type Markable = { readonly cache?: CacheMarker; readonly providerFields?: ProviderFields };

function markPrevious<T extends Markable>(list: T[], cp: Block): boolean {
  const prev = list[list.length - 1];
  if (!prev || prev.cache || fieldsFor(prev, KEY).cachePoint !== undefined) return false;
  list[list.length - 1] = {
    ...prev,
    cache: markerOf(cp),
    providerFields: { ...prev.providerFields, [KEY]: { ...fieldsFor(prev, KEY), cachePoint: cp as JsonObject } },
  };
  return true;
}

const DOC_MIME: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  html: "text/html",
  csv: "text/csv",
};

/** Only `{ format, source: { bytes } }` (and a document's `name`) is a media block; the rest stays verbatim. */
function mediaFrom(m: "image" | "document", v: Block): ContentBlock | undefined {
  const src = v.source as Block;
  const keys = Object.keys(v).join();
  if (Object.keys(src).join() !== "bytes" || typeof src.bytes !== "string") return undefined;
  const format = v.format as string;
  if (m === "image" && keys === "format,source")
    return { type: "image", mimeType: `image/${format}`, data: src.bytes, providerFields: { [KEY]: { format } } };
  if (m === "document" && keys === "format,name,source" && typeof v.name === "string")
    return {
      type: "document",
      name: v.name,
      mimeType: DOC_MIME[format] ?? `application/${format}`,
      data: src.bytes,
      providerFields: { [KEY]: { format } },
    };
  return undefined;
}

function blockFrom(b: Block, names: ToolNames, path: string, warnings: Warnings): ContentBlock {
  const m = Object.keys(b)[0]!;
  const v = b[m] as Block;
  switch (m) {
    case "text":
      return { type: "text", text: b.text as string };
    case "image":
    case "document":
      return mediaFrom(m, v) ?? opaqueBlock(KEY, m, b);
    case "toolUse":
      names.add(v.toolUseId as string, v.name as string);
      return withOptional(
        {
          type: "tool_call",
          id: v.toolUseId as string,
          name: v.name as string,
          arguments: (v.input ?? {}) as JsonValue,
        } as ContentBlock,
        { providerFields: providerFieldsOf(KEY, extraFields(v, ["toolUseId", "name", "input"])) },
      );
    case "toolResult":
      return withOptional(
        {
          type: "tool_result",
          toolCallId: v.toolUseId as string,
          name: names.get(v.toolUseId as string),
          result: v.content as JsonValue,
        } as ContentBlock,
        {
          isError: v.status === "error" ? true : undefined,
          providerFields: providerFieldsOf(KEY, extraFields(v, ["toolUseId", "content"])),
        } as object,
      );
    case "reasoningContent": {
      const r = v.reasoningText;
      if (Object.keys(v).length === 1 && isObj(r) && typeof r.text === "string")
        return withOptional(
          { type: "thinking", text: r.text } as ContentBlock,
          {
            signature: typeof r.signature === "string" ? r.signature : undefined,
            providerFields: providerFieldsOf(KEY, extraFields(r, ["text", "signature"])),
          } as object,
        );
      if (Object.keys(v).length === 1 && typeof v.redactedContent === "string")
        return { type: "thinking", text: v.redactedContent, redacted: true };
      return opaqueBlock(KEY, m, b);
    }
    default:
      if (!MESSAGE_MEMBERS.includes(m)) warnUnknown(warnings, path, KEY, m);
      return opaqueBlock(KEY, m, b);
  }
}

/** A list of blocks with their `cachePoint`s folded onto the block before each. */
function blocksFrom(list: readonly Block[], names: ToolNames, base: string, warnings: Warnings): ContentBlock[] {
  const out: ContentBlock[] = [];
  list.forEach((b, j) => {
    if (isObj(b.cachePoint) && markPrevious(out, b.cachePoint)) return;
    out.push(blockFrom(b, names, `${base}[${j}]`, warnings));
  });
  return out;
}

/** Parsed (schema- and block-checked) Converse request → normalized request. */
export function fromBedrock(raw: BedrockRequestIn, warnings: Warnings = []): NormalizedRequest {
  const names = new ToolNames();
  const messages: Message[] = [];
  if (raw.system) messages.push({ role: "system", content: blocksFrom(raw.system, names, "system", warnings) });
  raw.messages.forEach((m, i) => {
    const content = blocksFrom(m.content, names, `messages[${i}].content`, warnings);
    const results = content.length > 0 && content.every((b) => b.type === "tool_result");
    messages.push(
      withOptional({ role: m.role === "user" && results ? "tool" : m.role, content } as Message, {
        providerFields: providerFieldsOf(KEY, extraFields(m, ["role", "content"])),
      }),
    );
  });
  const tools: ToolDefinition[] = [];
  for (const t of raw.toolConfig?.tools ?? []) {
    if (isObj(t.cachePoint) && markPrevious(tools, t.cachePoint)) continue;
    const spec = t.toolSpec;
    if (!isObj(spec)) {
      tools.push({ name: Object.keys(t)[0] ?? "tool", providerFields: { [KEY]: { tool: t as JsonObject } } });
      continue;
    }
    const schema = spec.inputSchema as Block;
    const extras: Record<string, JsonValue> = { ...extraFields(spec, ["name", "description", "inputSchema"]) };
    if (Object.keys(schema).join() !== "json") extras.inputSchema = schema as JsonObject;
    tools.push(
      withOptional({ name: spec.name as string } as ToolDefinition, {
        description: typeof spec.description === "string" ? spec.description : undefined,
        inputSchema: extras.inputSchema === undefined ? (schema.json as JsonValue) : undefined,
        providerFields: providerFieldsOf(KEY, extras),
      }),
    );
  }
  const options: Record<string, JsonValue> = {
    ...extraFields(raw, ["modelId", "model", "messages", "system", "toolConfig"]),
  };
  const toolRest = raw.toolConfig ? extraFields(raw.toolConfig, ["tools"]) : undefined;
  if (toolRest) options.toolConfig = toolRest;
  return withOptional(
    { model: { provider: "bedrock", model: raw.modelId ?? raw.model ?? "" }, messages, tools } as NormalizedRequest,
    { providerOptions: Object.keys(options).length > 0 ? options : undefined },
  );
}

const EXT = (mime: string | undefined) => (mime ?? "").replace(/^[^/]*\//, "");

/** A block → its Converse member object; another format's opaque block is not written (undefined). */
function blockTo(b: ContentBlock, path: string): JsonObject | undefined {
  const { cachePoint: _, format, ...x } = fieldsFor(b, KEY);
  switch (b.type) {
    case "opaque":
      return ownOpaque(b, KEY);
    case "text":
      return { text: b.text };
    case "image":
    case "document": {
      if (b.type === "document" && b.text !== undefined && b.data === undefined)
        return { document: { format: "txt", name: b.name ?? "document", source: { text: b.text } } };
      const m = mediaSource(b);
      if (!m || m.kind !== "data")
        throw new InvalidInputError(path, `Bedrock Converse takes a ${b.type} as bytes (or an s3Location block)`);
      const fmt = typeof format === "string" ? format : EXT(m.mimeType);
      if (b.type === "image") return { image: { format: fmt, source: { bytes: m.data } } };
      return { document: { format: fmt, name: b.name ?? "document", source: { bytes: m.data } } };
    }
    case "tool_call":
      return {
        toolUse: withExtras(
          { toolUseId: b.id, name: b.name, input: argumentsObject(b.arguments, `${path}.arguments`) },
          x,
        ),
      };
    case "tool_result": {
      const content = Array.isArray(b.result) ? b.result : [{ text: resultText(b) }];
      const status = b.isError && x.status === undefined ? "error" : undefined;
      return { toolResult: withExtras(compact({ toolUseId: b.toolCallId, content, status }), x) };
    }
    case "thinking":
      if (b.redacted) return { reasoningContent: { redactedContent: b.text } };
      return { reasoningContent: { reasoningText: compact({ text: b.text, signature: b.signature, ...x }) } };
    default:
      throw new InvalidInputError(path, `Bedrock Converse has no ${b.type} blocks in this position`);
  }
}

/** The `cachePoint` that follows a marked block: the one it came with, else `{ type: "default", ttl? }`. */
function cachePointAfter(target: Markable) {
  if (!target.cache) return [];
  const own = fieldsFor(target, KEY).cachePoint;
  return [{ cachePoint: own ?? compact({ type: "default", ttl: target.cache.ttl }) }];
}

export interface ToBedrockOptions extends ExportOptions, SystemPlacementOptions {}

/** Normalized request → Converse request body (deterministic key order; see the canonical form above). */
export function writeBedrock(
  request: ProviderRequest | NormalizedRequest,
  options: ToBedrockOptions = {},
  translator?: Translator,
): ExportResult {
  assertProviderRequest(request);
  const ctx = new ExportContext("bedrock-converse", request, options ?? {}, translator);
  const marker = systemMarkerOption(options?.systemMarker);
  const leading = leadingSystemCount(request.messages);
  const system: JsonObject[] = [];
  const turns: { role: string; content: JsonObject[]; extras: JsonObject; tool: boolean }[] = [];
  request.messages.forEach((m, i) => {
    const inSlot = m.role === "system" && i < leading;
    const blocks: JsonObject[] = [];
    m.content.forEach((b, j) => {
      const path = `messages[${i}].content[${j}]`;
      if (inSlot && b.type !== "text" && b.type !== "opaque")
        throw new InvalidInputError(
          path,
          "Bedrock Converse system prompts take text blocks: move this block into a user message",
        );
      if (b.type === "thinking" && ctx.crossing) return ctx.thinkingDropped(path, b);
      if ((b.type === "image" || b.type === "document") && ctx.crossing && mediaSource(b)?.kind === "url")
        return ctx.warn(
          "content_dropped",
          path,
          `Bedrock Converse takes a ${b.type} as bytes or from S3, not by URL: not written.`,
        );
      const out = blockTo(m.role === "system" && !inSlot ? markedSystemBlock(b, marker) : b, path);
      if (out) blocks.push(out, ...cachePointAfter(b));
      else ctx.opaqueDropped(path, b);
    });
    if (blocks.length === 0 && m.content.length > 0) return;
    if (inSlot) {
      system.push(...blocks);
      return;
    }
    const prev = turns[turns.length - 1];
    if (m.role === "tool" && prev?.tool) {
      prev.content.push(...blocks);
      return;
    }
    turns.push({
      role: m.role === "assistant" ? "assistant" : "user",
      content: blocks,
      extras: fieldsFor(m, KEY),
      tool: m.role === "tool",
    });
  });
  const tools: JsonObject[] = [];
  for (const [i, t] of request.tools.entries()) {
    const hosted = ctx.hostedTool(t);
    if (hosted) {
      ctx.warn("tool_dropped", `tools[${i}]`, `${hosted} has no Bedrock Converse equivalent: not written.`);
      continue;
    }
    const { tool, cachePoint: _, inputSchema, ...x } = fieldsFor(t, KEY);
    const schema = t.inputSchema === undefined ? undefined : ctx.schema(t.inputSchema);
    if (tool !== undefined) tools.push(tool as JsonObject);
    else
      tools.push({
        toolSpec: compact({
          name: t.name,
          description: t.description,
          inputSchema: inputSchema ?? { json: schema ?? { type: "object", properties: {} } },
          ...x,
        }),
      });
    tools.push(...cachePointAfter(t));
  }
  const model = options?.model ?? request.model.model;
  if (ctx.crossing) ctx.checkModel(model, false);
  // toolConfig holds the tools and the tool choice: the options' part (verbatim or translated) joins the tools.
  const { toolConfig: rest, ...out } = ctx.head(model, request.providerOptions, [
    "modelId",
    "model",
    "messages",
    "system",
  ]);
  const head: Record<string, JsonValue | undefined> = { modelId: model === "" ? undefined : model };
  for (const k of Object.keys(out)) if (k !== "model") head[k] = out[k];
  const restObj = rest as JsonObject | undefined;
  if (tools.length > 0 || restObj)
    head.toolConfig = compact({ tools: tools.length > 0 ? tools : undefined, ...restObj });
  if (system.length > 0) head.system = system;
  head.messages = turns.map((t) => withExtras({ role: t.role, content: t.content }, t.extras));
  ctx.reportForeign(request);
  const body = compact(head);
  const r = bedrockRequest.safeParse(body);
  const issues = r.success
    ? checkBedrockBlocks(body as unknown as BedrockRequestIn)
    : fromZodIssues(r.error.issues, body);
  return ctx.result(body, issues);
}

/**
 * toBedrock: the body plus what the export dropped, filled or approximated. A request read from
 * another format gets its settings translated (see settings.ts and the README's settings table).
 */
export function toBedrock(request: ProviderRequest | NormalizedRequest, options: ToBedrockOptions = {}): ExportResult {
  return writeBedrock(request, options, TRANSLATOR);
}
