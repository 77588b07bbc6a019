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
  opaqueBlock,
  ownOpaque,
  providerFieldsOf,
  type Warnings,
  warnUnknown,
  withExtras,
  withOptional,
} from "./convert-util.ts";
import {
  GEMINI_PART_KINDS,
  GEMINI_PART_META,
  GEMINI_PASSTHROUGH_KINDS,
  GEMINI_SNAKE,
  type GeminiPartIn,
  type GeminiRequestIn,
  geminiRequest,
} from "./gemini-schema.ts";
import { putOwn } from "../util/plain-object.ts";
import {
  leadingSystemCount,
  markedSystemBlock,
  type SystemPlacementOptions,
  systemMarkerOption,
} from "./system-placement.ts";
import type { NormalizedRequest } from "./types.ts";
import { ExportContext, type ExportOptions, type ExportResult, type Translator } from "./export-context.ts";
import { fromZodIssues } from "./issues.ts";
import { TRANSLATOR } from "./settings.ts";

const KEY = "gemini";

const CAMEL: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(GEMINI_SNAKE).map(([camel, snake]) => [snake, camel]),
);

/** `o` with its snake_case field names (those Strata reads) in camelCase, order kept; `snake` when any was renamed. */
function camelView(o: Record<string, unknown>): { view: Record<string, unknown>; snake: boolean } {
  let snake = false;
  const view: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const camel = Object.hasOwn(CAMEL, k) ? CAMEL[k]! : k;
    if (camel !== k) snake = true;
    putOwn(view, camel, o[k]);
  }
  return { view, snake };
}

/** The inverse of `camelView` for a part Strata writes back in the spelling it came in. */
function snakeView(o: JsonObject): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(o)) putOwn(out, Object.hasOwn(GEMINI_SNAKE, k) ? GEMINI_SNAKE[k]! : k, o[k]);
  return out;
}

const DATA_KINDS: readonly string[] = [...GEMINI_PART_KINDS, ...GEMINI_PASSTHROUGH_KINDS];
const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A part in camelCase with nested `inlineData` / `fileData` fields too. */
function partView(p: GeminiPartIn): { view: Record<string, unknown>; snake: boolean } {
  const top = camelView(p);
  let snake = top.snake;
  for (const k of ["inlineData", "fileData"]) {
    const inner = top.view[k];
    if (!isObj(inner)) continue;
    const v = camelView(inner);
    snake ||= v.snake;
    top.view[k] = v.view;
  }
  return { view: top.view, snake };
}

/** What one part's data must look like (either spelling); issues at `path`. */
function checkPart(p: GeminiPartIn, path: string, issues: RequestFormatIssue[]): void {
  const { view } = partView(p);
  const kinds = DATA_KINDS.filter((k) => view[k] !== undefined);
  const others = Object.keys(view).filter((k) => !DATA_KINDS.includes(k) && !GEMINI_PART_META.includes(k));
  if (kinds.length > 1) {
    issues.push({
      code: "invalid_value",
      path,
      message: `a part holds exactly one of ${kinds.join(", ")}: split it into ${kinds.length} parts`,
    });
    return;
  }
  if (kinds.length === 0) {
    // An unknown data field is kept verbatim (with a warning); a part with no data at all is rejected.
    if (others.length === 0)
      issues.push({ code: "missing_field", path, message: `a part needs one of ${GEMINI_PART_KINDS.join(", ")}` });
    return;
  }
  const bad = (field: string, expected: string) =>
    issues.push({ code: "invalid_type", path: `${path}.${field}`, message: `expected ${expected}` });
  const kind = kinds[0]!;
  const v = view[kind];
  if (kind === "text") {
    if (typeof v !== "string") bad("text", "a string");
  } else if (!isObj(v)) bad(kind, "an object");
  else if (kind === "inlineData") {
    if (typeof v.mimeType !== "string") bad(`${kind}.mimeType`, "a string");
    if (typeof v.data !== "string") bad(`${kind}.data`, "a base64 string");
  } else if (kind === "fileData") {
    if (typeof v.fileUri !== "string") bad(`${kind}.fileUri`, "a string");
  } else if (kind === "functionCall" || kind === "functionResponse") {
    if (typeof v.name !== "string") bad(`${kind}.name`, "a string");
    if (v.id !== undefined && typeof v.id !== "string") bad(`${kind}.id`, "a string");
    if (kind === "functionCall" && v.args !== undefined && !isObj(v.args)) bad(`${kind}.args`, "an object");
    if (kind === "functionResponse" && !isObj(v.response)) bad(`${kind}.response`, "an object");
  }
  if (view.thought !== undefined && typeof view.thought !== "boolean") bad("thought", "true or false");
  if (view.thoughtSignature !== undefined && typeof view.thoughtSignature !== "string")
    bad("thoughtSignature", "a string");
}

/** The request's system instruction, in either spelling. */
const systemOf = (raw: GeminiRequestIn) => raw.systemInstruction ?? raw.system_instruction;

/** Every part needs exactly one data field of the right shape; returns issues with `contents[i].parts[j]` paths. */
export function checkGeminiParts(raw: GeminiRequestIn): RequestFormatIssue[] {
  const issues: RequestFormatIssue[] = [];
  if (typeof raw.contents !== "string")
    raw.contents.forEach((c, i) => c.parts.forEach((p, j) => checkPart(p, `contents[${i}].parts[${j}]`, issues)));
  const sys = systemOf(raw);
  const sysKey = raw.systemInstruction ? "systemInstruction" : "system_instruction";
  sys?.parts.forEach((p, j) => checkPart(p, `${sysKey}.parts[${j}]`, issues));
  (raw.tools ?? []).forEach((t, i) => {
    const decls = t.functionDeclarations ?? t.function_declarations;
    if (decls === undefined) return;
    const key = t.functionDeclarations !== undefined ? "functionDeclarations" : "function_declarations";
    if (!Array.isArray(decls)) {
      issues.push({ code: "invalid_type", path: `tools[${i}].${key}`, message: "expected an array" });
      return;
    }
    decls.forEach((d: unknown, j) => {
      if (!isObj(d) || typeof d.name !== "string")
        issues.push({
          code: "missing_field",
          path: `tools[${i}].${key}[${j}].name`,
          message: "a function declaration needs a name (a string)",
        });
    });
  });
  return issues;
}

function mediaType(mime: string): "image" | "audio" | "document" | "file" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime === "application/pdf" || mime.startsWith("text/")) return "document";
  return "file";
}

type View = Record<string, unknown> & {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
};

function partFrom(raw: GeminiPartIn, path: string, warnings: Warnings): ContentBlock {
  const { view, snake } = partView(raw);
  const p = view as View;
  const kind = DATA_KINDS.find((k) => p[k] !== undefined);
  if (kind === undefined || GEMINI_PASSTHROUGH_KINDS.includes(kind)) {
    const wireType =
      kind ?? Object.keys(view).find((k) => !GEMINI_PART_META.includes(k)) ?? Object.keys(view)[0] ?? "part";
    if (kind === undefined) warnUnknown(warnings, path, KEY, wireType);
    return opaqueBlock(KEY, wireType, raw);
  }
  const base = ["text", "thought", "thoughtSignature", "inlineData", "fileData", "functionCall", "functionResponse"];
  const extras: Record<string, JsonValue> = { ...extraFields(p, base) };
  if (snake) extras.snake = true;
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

/** Parsed (schema-checked) Gemini request → normalized request (either spelling; see `GEMINI_SNAKE`). */
export function fromGemini(raw: GeminiRequestIn, warnings: Warnings = []): NormalizedRequest {
  const messages: Message[] = [];
  const sys = systemOf(raw);
  if (sys) {
    const sysKey = raw.systemInstruction ? "systemInstruction" : "system_instruction";
    const extras: Record<string, JsonValue> = { ...extraFields(sys, ["parts"]) };
    if (sysKey === "system_instruction") extras.snake = true;
    messages.push(
      withOptional(
        {
          role: "system",
          content: sys.parts.map((p, j) => partFrom(p, `${sysKey}.parts[${j}]`, warnings)),
        } as Message,
        { providerFields: providerFieldsOf(KEY, extras) },
      ),
    );
  }
  if (typeof raw.contents === "string")
    messages.push({
      role: "user",
      content: [{ type: "text", text: raw.contents }],
      providerFields: { [KEY]: { contentsString: true } },
    });
  else
    raw.contents.forEach((c, i) => {
      const content = c.parts.map((p, j) => partFrom(p, `contents[${i}].parts[${j}]`, warnings));
      const extras: Record<string, JsonValue> = { ...extraFields(c, ["role", "parts"]) };
      if (c.role === undefined) extras.noRole = true;
      else if (c.role === "function" || c.role === "tool") extras.role = c.role;
      const results = content.length > 0 && content.every((b) => b.type === "tool_result");
      const role = c.role === "model" ? "assistant" : results ? "tool" : "user";
      messages.push(withOptional({ role, content } as Message, { providerFields: providerFieldsOf(KEY, extras) }));
    });
  const tools: ToolDefinition[] = [];
  for (const t of raw.tools ?? []) {
    const decls = (t.functionDeclarations ?? t.function_declarations) as Record<string, unknown>[] | undefined;
    if (decls && Object.keys(t).length === 1) {
      const snakeGroup = t.functionDeclarations === undefined;
      for (const d of decls) {
        const schemaKey = ["parameters", "parametersJsonSchema", "parameters_json_schema"].find(
          (k) => d[k] !== undefined,
        );
        const extras: Record<string, JsonValue> = {
          ...extraFields(d, ["name", "description", "parameters", "parametersJsonSchema", "parameters_json_schema"]),
        };
        if (schemaKey !== undefined && schemaKey !== "parameters") extras.schemaKey = schemaKey;
        if (snakeGroup) extras.snake = true;
        tools.push(
          withOptional({ name: d.name as string } as ToolDefinition, {
            description: d.description as string | undefined,
            inputSchema: (schemaKey === undefined ? undefined : d[schemaKey]) as JsonValue | undefined,
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
  return withOptional(req, {
    providerOptions: extraFields(raw, ["model", "contents", "systemInstruction", "system_instruction", "tools"]),
  });
}

/** A block → a part, in the spelling its part came in (`snake` marks snake_case). Another format's opaque block: none. */
function partTo(b: ContentBlock, path: string): JsonObject | undefined {
  if (b.type === "opaque") return ownOpaque(b, KEY);
  const { snake, ...x } = fieldsFor(b, KEY);
  if (snake !== true) return camelPartTo(b, path, x);
  const part = snakeView(camelPartTo(b, path, x));
  for (const k of ["inline_data", "file_data"])
    if (part[k] !== undefined) (part as Record<string, JsonValue>)[k] = snakeView(part[k] as JsonObject);
  return part;
}

function camelPartTo(b: Exclude<ContentBlock, { type: "opaque" }>, path: string, x: JsonObject): JsonObject {
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

export interface ToGeminiOptions extends ExportOptions, SystemPlacementOptions {}

/** Normalized request → Gemini `generateContent` body (deterministic key order; a snake_case request stays snake_case). */
export function writeGemini(
  request: ProviderRequest | NormalizedRequest,
  options: ToGeminiOptions = {},
  translator?: Translator,
): ExportResult {
  assertProviderRequest(request);
  const ctx = new ExportContext("gemini", request, options ?? {}, translator);
  const marker = systemMarkerOption(options?.systemMarker);
  const leading = leadingSystemCount(request.messages);
  const systemParts: JsonObject[] = [];
  let systemExtras: JsonObject | undefined;
  const contents: JsonObject[] = [];
  let contentsString: string | undefined;
  request.messages.forEach((m, i) => {
    const later = m.role === "system" && i >= leading;
    const parts: JsonObject[] = [];
    m.content.forEach((b, j) => {
      const path = `messages[${i}].content[${j}]`;
      if (b.type === "thinking" && ctx.crossing) return ctx.thinkingDropped(path, b);
      const part = partTo(later ? markedSystemBlock(b, marker) : b, path);
      if (part) parts.push(part);
      else ctx.opaqueDropped(path, b);
    });
    if (parts.length === 0 && m.content.length > 0) return;
    const x = fieldsFor(m, KEY);
    if (m.role === "system" && !later) {
      systemParts.push(...parts);
      systemExtras ??= x;
      return;
    }
    const only = m.content[0];
    if (x.contentsString === true && m.content.length === 1 && only?.type === "text" && !only.providerFields)
      contentsString = only.text;
    const role = typeof x.role === "string" ? x.role : m.role === "assistant" ? "model" : "user";
    contents.push(
      withExtras(
        compact({ role: x.noRole === true ? undefined : role, parts }),
        omitKeys(x, ["noRole", "role", "contentsString"]),
      ),
    );
  });
  const tools: JsonObject[] = [];
  let decls: JsonObject[] | undefined;
  for (const [i, t] of request.tools.entries()) {
    const hosted = ctx.hostedTool(t);
    if (hosted) {
      ctx.warn("tool_dropped", `tools[${i}]`, `${hosted} has no Gemini equivalent: not written.`);
      continue;
    }
    const { snake, schemaKey: key, ...x } = fieldsFor(t, KEY);
    if (x.tool !== undefined) {
      decls = undefined;
      tools.push(x.tool as JsonObject);
      continue;
    }
    // A JSON Schema from another format goes where Gemini takes full JSON Schema.
    const schemaKey = typeof key === "string" ? key : ctx.crossing ? "parametersJsonSchema" : "parameters";
    const decl = compact({ name: t.name, description: t.description, [schemaKey]: t.inputSchema, ...x });
    if (!decls) {
      decls = [];
      tools.push({ [snake === true ? "function_declarations" : "functionDeclarations"]: decls });
    }
    decls.push(decl);
  }
  const model = options?.model ?? request.model.model;
  if (ctx.crossing) ctx.checkModel(model, false);
  const out = ctx.head(model, request.providerOptions, [
    "model",
    "contents",
    "systemInstruction",
    "system_instruction",
    "tools",
  ]);
  if (model === "") out.model = undefined;
  if (tools.length > 0) out.tools = tools;
  if (systemParts.length > 0) {
    const { snake, ...sx } = systemExtras ?? {};
    out[snake === true ? "system_instruction" : "systemInstruction"] = withExtras({ parts: systemParts }, sx);
  }
  out.contents = contentsString !== undefined && contents.length === 1 ? contentsString : contents;
  ctx.reportForeign(request);
  const body = compact(out);
  const r = geminiRequest.safeParse(body);
  const issues = r.success ? checkGeminiParts(body as unknown as GeminiRequestIn) : fromZodIssues(r.error.issues, body);
  return ctx.result(body, issues);
}

/**
 * toGemini: the body plus what the export dropped, filled or approximated. A request read from
 * another format gets its settings translated (see settings.ts and the README's settings table).
 */
export function toGemini(request: ProviderRequest | NormalizedRequest, options: ToGeminiOptions = {}): ExportResult {
  return writeGemini(request, options, TRANSLATOR);
}
