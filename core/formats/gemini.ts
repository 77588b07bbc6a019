/**
 * Gemini `generateContent` ⇄ normalized request.
 *
 * Canonical wire form: `model` (when known; REST also takes it in the URL), provider options
 * (`generationConfig`, `toolConfig`, …), `tools` (one `functionDeclarations` entry, then built-in
 * tools), `systemInstruction` (`{ parts }`), `contents` (every turn with its `role`).
 * `model` turns are assistant messages; a user turn of only `functionResponse` parts is a tool
 * message. `thoughtSignature`s are kept on the part they came with. The leading system messages
 * form `systemInstruction`; a later one is written in place as a user turn wrapped in
 * `systemMarker` (see system-placement.ts).
 */
import type { RequestFormatIssue } from "./errors.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import {
  argumentsObject,
  compact,
  extraFields,
  fieldsFor,
  type JsonObject,
  mediaSource,
  omitKeys,
  providerFieldsOf,
  withExtras,
  withOptional,
} from "./convert-util.ts";
import { GEMINI_PART_KINDS, type GeminiPartIn, type GeminiRequestIn, geminiRequest } from "./gemini-schema.ts";
import { leadingSystemCount, markedSystemBlock, type SystemMarker, systemMarkerOption } from "./system-placement.ts";
import type { NormalizedRequest } from "./types.ts";
import {
  ExportContext,
  type ExportOptions,
  type ExportResult,
  foreignHostedTool,
  reportForeignFields,
} from "./export-context.ts";
import { fromZodIssues } from "./issues.ts";
import { exportHead } from "./settings.ts";

const KEY = "gemini";

/** Every part needs exactly one data field; returns issues with `contents[i].parts[j]` paths. */
export function checkGeminiParts(raw: GeminiRequestIn): RequestFormatIssue[] {
  const issues: RequestFormatIssue[] = [];
  const check = (parts: readonly GeminiPartIn[], base: string) =>
    parts.forEach((p, j) => {
      const kinds = GEMINI_PART_KINDS.filter((k) => p[k] !== undefined);
      if (kinds.length !== 1) {
        issues.push({
          code: kinds.length === 0 ? "missing_field" : "invalid_value",
          path: `${base}.parts[${j}]`,
          message:
            kinds.length === 0
              ? `a part needs one of ${GEMINI_PART_KINDS.join(", ")}`
              : `a part holds exactly one of ${kinds.join(", ")}: split it into ${kinds.length} parts`,
        });
      }
    });
  raw.contents.forEach((c, i) => check(c.parts, `contents[${i}]`));
  if (raw.systemInstruction) check(raw.systemInstruction.parts, "systemInstruction");
  return issues;
}

function mediaType(mime: string): "image" | "audio" | "document" | "file" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime === "application/pdf" || mime.startsWith("text/")) return "document";
  return "file";
}

function partFrom(p: GeminiPartIn): ContentBlock {
  const base = ["text", "thought", "thoughtSignature", "inlineData", "fileData", "functionCall", "functionResponse"];
  const extras: Record<string, JsonValue> = { ...extraFields(p, base) };
  if (p.text !== undefined) {
    if (p.thought === true)
      return withOptional(
        { type: "thinking", text: p.text } as ContentBlock,
        { signature: p.thoughtSignature, providerFields: providerFieldsOf(KEY, extras) } as object,
      );
    if (p.thought !== undefined) extras.thought = p.thought;
    if (p.thoughtSignature !== undefined) extras.thoughtSignature = p.thoughtSignature;
    return withOptional({ type: "text", text: p.text } as ContentBlock, {
      providerFields: providerFieldsOf(KEY, extras),
    });
  }
  if (p.thoughtSignature !== undefined) extras.thoughtSignature = p.thoughtSignature;
  if (p.thought !== undefined) extras.thought = p.thought;
  if (p.inlineData) {
    const x = extraFields(p.inlineData, ["mimeType", "data"]);
    if (x) extras.inlineData = x;
    return withOptional(
      {
        type: mediaType(p.inlineData.mimeType),
        mimeType: p.inlineData.mimeType,
        data: p.inlineData.data,
      } as ContentBlock,
      { providerFields: providerFieldsOf(KEY, extras) },
    );
  }
  if (p.fileData) {
    const x = extraFields(p.fileData, ["mimeType", "fileUri"]);
    if (x) extras.fileData = x;
    return withOptional(
      { type: mediaType(p.fileData.mimeType ?? ""), url: p.fileData.fileUri } as ContentBlock,
      { mimeType: p.fileData.mimeType, providerFields: providerFieldsOf(KEY, extras) } as object,
    );
  }
  if (p.functionCall) {
    const c = p.functionCall;
    const x = extraFields(c, ["id", "name", "args"]);
    if (x) extras.functionCall = x;
    if (c.id === undefined) extras.noId = true;
    if (c.args === undefined) extras.noArgs = true;
    return withOptional(
      { type: "tool_call", id: c.id ?? "", name: c.name, arguments: (c.args ?? {}) as JsonValue } as ContentBlock,
      { providerFields: providerFieldsOf(KEY, extras) },
    );
  }
  const r = p.functionResponse!;
  const x = extraFields(r, ["id", "name", "response"]);
  if (x) extras.functionResponse = x;
  if (r.id === undefined) extras.noId = true;
  return withOptional(
    { type: "tool_result", toolCallId: r.id ?? "", name: r.name, result: r.response as JsonValue } as ContentBlock,
    { providerFields: providerFieldsOf(KEY, extras) },
  );
}

/** Parsed (schema-checked) Gemini request → normalized request. */
export function fromGemini(raw: GeminiRequestIn): NormalizedRequest {
  const messages: Message[] = [];
  if (raw.systemInstruction) {
    const extras = extraFields(raw.systemInstruction, ["parts"]);
    messages.push(
      withOptional({ role: "system", content: raw.systemInstruction.parts.map(partFrom) } as Message, {
        providerFields: providerFieldsOf(KEY, extras),
      }),
    );
  }
  for (const c of raw.contents) {
    const content = c.parts.map(partFrom);
    const extras: Record<string, JsonValue> = { ...extraFields(c, ["role", "parts"]) };
    if (c.role === undefined) extras.noRole = true;
    else if (c.role === "function" || c.role === "tool") extras.role = c.role;
    const results = content.length > 0 && content.every((b) => b.type === "tool_result");
    const role = c.role === "model" ? "assistant" : results ? "tool" : "user";
    messages.push(withOptional({ role, content } as Message, { providerFields: providerFieldsOf(KEY, extras) }));
  }
  const tools: ToolDefinition[] = [];
  for (const t of raw.tools ?? []) {
    if (t.functionDeclarations && Object.keys(t).length === 1) {
      for (const d of t.functionDeclarations) {
        const extras: Record<string, JsonValue> = {
          ...extraFields(d, ["name", "description", "parameters", "parametersJsonSchema"]),
        };
        if (d.parametersJsonSchema !== undefined) extras.schemaKey = "parametersJsonSchema";
        tools.push(
          withOptional({ name: d.name } as ToolDefinition, {
            description: d.description,
            inputSchema: (d.parameters ?? d.parametersJsonSchema) as JsonValue | undefined,
            providerFields: providerFieldsOf(KEY, extras),
          }),
        );
      }
    } else {
      tools.push({
        name: Object.keys(t)[0] ?? "tool",
        providerFields: { [KEY]: { tool: t as unknown as JsonObject } },
      });
    }
  }
  const req = { model: { provider: "gemini", model: raw.model ?? "" }, messages, tools } as NormalizedRequest;
  return withOptional(req, { providerOptions: extraFields(raw, ["model", "contents", "systemInstruction", "tools"]) });
}

function partTo(b: ContentBlock, path: string): JsonObject {
  const x = fieldsFor(b, KEY);
  switch (b.type) {
    case "text":
      return withExtras({ text: b.text }, x);
    case "thinking":
      return compact({ text: b.text, thought: true, thoughtSignature: b.signature, ...x });
    case "tool_call": {
      const call = compact({
        id: x.noId === true || b.id === "" ? undefined : b.id,
        name: b.name,
        args: x.noArgs === true ? undefined : argumentsObject(b.arguments, `${path}.arguments`),
        ...(x.functionCall as JsonObject | undefined),
      });
      return withExtras({ functionCall: call }, omitKeys(x, ["noId", "noArgs", "functionCall"]));
    }
    case "tool_result": {
      const r = b.result;
      const response =
        r !== null && typeof r === "object" && !Array.isArray(r) ? r : b.isError ? { error: r } : { output: r };
      const resp = compact({
        id: x.noId === true || b.toolCallId === "" ? undefined : b.toolCallId,
        name: b.name,
        response,
        ...(x.functionResponse as JsonObject | undefined),
      });
      return withExtras({ functionResponse: resp }, omitKeys(x, ["noId", "functionResponse"]));
    }
    default: {
      if (b.type === "document" && b.text !== undefined && b.data === undefined && b.url === undefined)
        return { text: b.text };
      const m = mediaSource(b);
      if (!m) throw new InvalidInputError(path, `a ${b.type} block needs data or a url`);
      if (m.kind === "data")
        return withExtras(
          { inlineData: withExtras({ mimeType: m.mimeType, data: m.data }, x.inlineData as JsonObject | undefined) },
          omitKeys(x, ["inlineData"]),
        );
      return withExtras(
        {
          fileData: withExtras(compact({ mimeType: m.mimeType, fileUri: m.url }), x.fileData as JsonObject | undefined),
        },
        omitKeys(x, ["fileData"]),
      );
    }
  }
}

export interface ToGeminiOptions extends ExportOptions {
  /** Text around a system message that comes after the conversation started; default `DEFAULT_SYSTEM_MARKER`. */
  readonly systemMarker?: SystemMarker;
}

/** Normalized request → Gemini `generateContent` body (deterministic key order). */
export function toGemini(request: ProviderRequest | NormalizedRequest, options: ToGeminiOptions = {}): ExportResult {
  assertProviderRequest(request);
  const ctx = new ExportContext("gemini", request, options ?? {});
  const marker = systemMarkerOption(options?.systemMarker);
  const leading = leadingSystemCount(request.messages);
  const systemParts: JsonObject[] = [];
  let systemExtras: JsonObject | undefined;
  const contents: JsonObject[] = [];
  request.messages.forEach((m, i) => {
    const later = m.role === "system" && i >= leading;
    const parts: JsonObject[] = [];
    m.content.forEach((b, j) => {
      const path = `messages[${i}].content[${j}]`;
      if (b.type === "thinking" && ctx.crossing) return ctx.thinkingDropped(path, b);
      parts.push(partTo(later ? markedSystemBlock(b, marker) : b, path));
    });
    if (parts.length === 0) return;
    const x = fieldsFor(m, KEY);
    if (m.role === "system" && !later) {
      systemParts.push(...parts);
      systemExtras ??= x;
      return;
    }
    const role = typeof x.role === "string" ? x.role : m.role === "assistant" ? "model" : "user";
    contents.push(
      withExtras(compact({ role: x.noRole === true ? undefined : role, parts }), omitKeys(x, ["noRole", "role"])),
    );
  });
  const tools: JsonObject[] = [];
  let decls: JsonObject[] | undefined;
  for (const [i, t] of request.tools.entries()) {
    const hosted = foreignHostedTool(t, "gemini");
    if (hosted) {
      ctx.warn("tool_dropped", `tools[${i}]`, `${hosted} has no Gemini equivalent: not written.`);
      continue;
    }
    const x = fieldsFor(t, KEY);
    if (x.tool !== undefined) {
      decls = undefined;
      tools.push(x.tool as JsonObject);
      continue;
    }
    // A JSON Schema from another format goes where Gemini takes full JSON Schema.
    const schemaKey = x.schemaKey === "parametersJsonSchema" || ctx.crossing ? "parametersJsonSchema" : "parameters";
    const decl = compact({
      name: t.name,
      description: t.description,
      [schemaKey]: t.inputSchema,
      ...omitKeys(x, ["schemaKey"]),
    });
    if (!decls) {
      decls = [];
      tools.push({ functionDeclarations: decls });
    }
    decls.push(decl);
  }
  const model = options?.model ?? request.model.model;
  if (ctx.crossing) ctx.checkModel(model, false);
  const out = exportHead(model, request.providerOptions, ctx, ["model", "contents", "systemInstruction", "tools"]);
  if (model === "") out.model = undefined;
  if (tools.length > 0) out.tools = tools;
  if (systemParts.length > 0) out.systemInstruction = withExtras({ parts: systemParts }, systemExtras);
  out.contents = contents;
  if (ctx.crossing) reportForeignFields(request, ctx);
  const body = compact(out);
  const r = geminiRequest.safeParse(body);
  const issues = r.success ? checkGeminiParts(body as unknown as GeminiRequestIn) : fromZodIssues(r.error.issues, body);
  return ctx.result(body, issues);
}
