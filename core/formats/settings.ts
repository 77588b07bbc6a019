/**
 * Request settings across formats: read in any format's spelling into one neutral form, written in
 * the target's. Used by the `to*` converters when a request crosses formats (same format: the
 * options are written verbatim). Every setting the target has no equivalent for is dropped with a
 * warning naming it; a field no format knows is dropped too, never copied. The README's settings
 * table lists each mapping. Shapes follow the official SDK types (anthropic-sdk-typescript
 * MessageCreateParams, openai-node ChatCompletionCreateParams and ResponseCreateParams, js-genai
 * GenerationConfig / ToolConfig), read 2026-08.
 */
import type { JsonValue } from "../messages/types.ts";
import { type JsonObject, requestHead } from "./convert-util.ts";
import { asObject, type ExportContext, type Translator } from "./export-context.ts";
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { ProviderFields } from "../messages/types.ts";
import type { NormalizedRequest } from "./types.ts";
import type { WireFormat } from "./types.ts";

type Effort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
const EFFORTS: readonly Effort[] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/**
 * Thinking budget written for an OpenAI effort (Anthropic `budget_tokens`, Gemini `thinkingBudget`):
 * Strata's own table, no provider publishes one. `low` is Anthropic's minimum (1,024), `high`
 * Gemini 2.5 Flash's maximum (24,576); an effort read back from a budget takes the nearest row.
 */
export const EFFORT_BUDGETS: Readonly<Record<Exclude<Effort, "none">, number>> = {
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24_576,
  xhigh: 32_768,
  max: 65_536,
};
const effortOf = (budget: number): Effort => (budget < 4096 ? "low" : budget < 16_384 ? "medium" : "high");

type Thinking =
  | { readonly kind: "off" }
  | { readonly kind: "budget"; readonly tokens: number }
  | { readonly kind: "effort"; readonly effort: Effort }
  | { readonly kind: "dynamic" };

type ResponseFormat =
  | { readonly type: "json_object" }
  | {
      readonly type: "json_schema";
      readonly schema: JsonValue;
      readonly name?: string;
      readonly description?: string;
      readonly strict?: boolean;
    };

type ToolChoice =
  | { readonly mode: "auto" | "none" | "required" }
  | { readonly mode: "tool"; readonly name: string }
  | { readonly mode: "allowed"; readonly names: readonly string[]; readonly required: boolean };

/** Settings in one neutral form; `path` of each is where it was read, for warnings. */
interface Settings {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: readonly string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  candidates?: number;
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  thinking?: Thinking;
  includeThoughts?: boolean;
  reasoningSummary?: JsonValue;
  responseFormat?: ResponseFormat;
  verbosity?: JsonValue;
  /** An end user's id (Anthropic `metadata.user_id`, OpenAI `safety_identifier` / `user`). */
  user?: { readonly value: string; readonly key: "user" | "safety_identifier" };
  metadata?: JsonObject;
  stream?: boolean;
  /** Fields OpenAI Chat and Responses share under one name and meaning. */
  openai: Record<string, JsonValue>;
  paths: Record<string, string>;
}

/** OpenAI fields that mean the same in Chat Completions and Responses. */
const OPENAI_SHARED = ["store", "service_tier", "prompt_cache_retention", "top_logprobs", "prompt_cache_options"];

const num = (v: JsonValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset: upper-case `type`, `nullable`) as JSON Schema, which
 * every other format takes: types lower-cased, `nullable: true` as a `"null"` type.
 */
export function jsonSchemaFromGemini(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(jsonSchemaFromGemini);
  const o = asObject(schema);
  if (!o) return schema;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === "nullable") continue;
    if (k === "type" && typeof v === "string")
      out[k] = o.nullable === true ? [v.toLowerCase(), "null"] : v.toLowerCase();
    else if (k === "properties" && asObject(v))
      out[k] = Object.fromEntries(Object.entries(asObject(v)!).map(([p, s]) => [p, jsonSchemaFromGemini(s)]));
    else if (k === "items" || k === "anyOf" || k === "prefixItems") out[k] = jsonSchemaFromGemini(v);
    else out[k] = v;
  }
  return out;
}

function readToolChoice(v: JsonValue, path: string, ctx: ExportContext, s: Settings): ToolChoice | undefined {
  if (v === "auto" || v === "none" || v === "required") return { mode: v };
  const o = asObject(v);
  const type = str(o?.type);
  if (!o || !type) return undefined;
  // Anthropic: { type: auto | any | tool | none, name?, disable_parallel_tool_use? }
  if (o.disable_parallel_tool_use === true) s.parallelToolCalls = false;
  if (type === "auto" || type === "none") return { mode: type };
  if (type === "any") return { mode: "required" };
  if (type === "tool" && typeof o.name === "string") return { mode: "tool", name: o.name };
  // OpenAI Chat { type: function, function: { name } }, Responses { type: function, name }
  if (type === "function") {
    const name = str(asObject(o.function)?.name) ?? str(o.name);
    if (name !== undefined) return { mode: "tool", name };
  }
  if (type === "allowed_tools") {
    const a = asObject(o.allowed_tools) ?? o;
    const tools = Array.isArray(a.tools) ? a.tools : [];
    const names = tools.map((t) => str(asObject(asObject(t)?.function)?.name) ?? str(asObject(t)?.name) ?? "");
    return { mode: "allowed", names: names.filter((n) => n !== ""), required: a.mode === "required" };
  }
  ctx.dropped(path, `tool_choice ${JSON.stringify(v)} (a built-in tool)`);
  return undefined;
}

function readGeminiToolConfig(v: JsonValue, path: string, ctx: ExportContext): ToolChoice | undefined {
  const o = asObject(v);
  // Bedrock Converse: toolConfig.toolChoice { auto: {} } | { any: {} } | { tool: { name } }
  const bc = asObject(o?.toolChoice);
  if (bc) {
    for (const k of Object.keys(o!)) if (k !== "toolChoice") ctx.dropped(`${path}.${k}`, `toolConfig.${k}`);
    const name = str(asObject(bc.tool)?.name);
    return name !== undefined ? { mode: "tool", name } : bc.any ? { mode: "required" } : { mode: "auto" };
  }
  const f = asObject(o?.functionCallingConfig ?? o?.function_calling_config);
  for (const k of Object.keys(o ?? {}))
    if (k !== "functionCallingConfig" && k !== "function_calling_config")
      ctx.dropped(`${path}.${k}`, `toolConfig.${k}`);
  if (!f) return undefined;
  const mode = str(f.mode)?.toUpperCase();
  const names = f.allowedFunctionNames ?? f.allowed_function_names;
  const list = Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
  if (mode === "NONE") return { mode: "none" };
  if (mode === "ANY" || mode === "VALIDATED") {
    if (mode === "VALIDATED")
      ctx.warn("setting_approximated", path, "Gemini's VALIDATED mode is written as a required tool call.");
    return list.length === 1
      ? { mode: "tool", name: list[0]! }
      : list.length > 1
        ? { mode: "allowed", names: list, required: true }
        : { mode: "required" };
  }
  return list.length > 0 ? { mode: "allowed", names: list, required: false } : { mode: "auto" };
}

function readFormat(v: JsonValue, path: string, ctx: ExportContext): ResponseFormat | undefined {
  const o = asObject(v);
  const type = str(o?.type);
  if (type === "text") return undefined;
  if (type === "json_object") return { type: "json_object" };
  if (type === "json_schema" && o) {
    const inner = asObject(o.json_schema) ?? o; // Chat nests it under json_schema; Responses and Anthropic do not
    const out: { -readonly [K in keyof ResponseFormat & string]?: unknown } & Record<string, unknown> = {
      type: "json_schema",
      schema: inner.schema ?? {},
    };
    if (typeof inner.name === "string") out.name = inner.name;
    if (typeof inner.description === "string") out.description = inner.description;
    if (typeof inner.strict === "boolean") out.strict = inner.strict;
    return out as ResponseFormat;
  }
  ctx.dropped(path, `response format ${JSON.stringify(v)}`);
  return undefined;
}

function readThinking(v: JsonValue, path: string, ctx: ExportContext): Thinking | undefined {
  const o = asObject(v);
  const type = str(o?.type);
  if (type === "disabled") return { kind: "off" };
  if (type === "adaptive") return { kind: "dynamic" };
  if (type === "enabled" && typeof o?.budget_tokens === "number") return { kind: "budget", tokens: o.budget_tokens };
  ctx.dropped(path, `thinking ${JSON.stringify(v)}`);
  return undefined;
}

const effort = (v: JsonValue | undefined): Effort | undefined =>
  typeof v === "string" && EFFORTS.includes(v.toLowerCase() as Effort) ? (v.toLowerCase() as Effort) : undefined;

/** Reads every setting of `opts`, whatever format spells it; what no format maps is dropped with a warning. */
export function readSettings(opts: JsonObject, ctx: ExportContext): Settings {
  const s: Settings = { openai: {}, paths: {} };
  const at = (k: string) => `providerOptions.${k}`;
  const set = <K extends keyof Settings>(key: K, value: Settings[K] | undefined, path: string) => {
    if (value === undefined) return;
    s[key] = value;
    s.paths[key] = path;
  };
  const readGeneration = (g: JsonObject, base: string) => {
    for (const [k, v] of Object.entries(g)) {
      const p = `${base}.${k}`;
      if (k === "maxOutputTokens" || k === "max_output_tokens") set("maxTokens", num(v), p);
      else if (k === "temperature") set("temperature", num(v), p);
      else if (k === "topP" || k === "top_p") set("topP", num(v), p);
      else if (k === "topK" || k === "top_k") set("topK", num(v), p);
      else if (k === "stopSequences" || k === "stop_sequences")
        set("stop", Array.isArray(v) ? (v as string[]) : undefined, p);
      else if (k === "seed") set("seed", num(v), p);
      else if (k === "presencePenalty" || k === "presence_penalty") set("presencePenalty", num(v), p);
      else if (k === "frequencyPenalty" || k === "frequency_penalty") set("frequencyPenalty", num(v), p);
      else if (k === "candidateCount" || k === "candidate_count") set("candidates", num(v), p);
      else if (k === "responseMimeType" || k === "response_mime_type") {
        if (v === "application/json" && !s.responseFormat) set("responseFormat", { type: "json_object" }, p);
        else if (v !== "text/plain" && v !== "application/json")
          ctx.dropped(p, `responseMimeType ${JSON.stringify(v)}`);
      } else if (["responseSchema", "response_schema", "responseJsonSchema", "response_json_schema"].includes(k)) {
        const schema = k.toLowerCase().includes("json") ? v : jsonSchemaFromGemini(v);
        set("responseFormat", { type: "json_schema", schema }, p);
      } else if (k === "thinkingConfig" || k === "thinking_config") {
        const t = asObject(v) ?? {};
        const budget = num(t.thinkingBudget ?? t.thinking_budget);
        const level = effort(t.thinkingLevel ?? t.thinking_level);
        if (budget !== undefined)
          set(
            "thinking",
            budget === 0 ? { kind: "off" } : budget < 0 ? { kind: "dynamic" } : { kind: "budget", tokens: budget },
            p,
          );
        else if (level !== undefined) set("thinking", { kind: "effort", effort: level }, p);
        const inc = t.includeThoughts ?? t.include_thoughts;
        if (typeof inc === "boolean") set("includeThoughts", inc, p);
      } else ctx.dropped(p, `generationConfig.${k}`);
    }
  };
  for (const [k, v] of Object.entries(opts)) {
    const p = at(k);
    switch (k) {
      case "max_tokens":
      case "max_completion_tokens":
      case "max_output_tokens":
        set("maxTokens", num(v), p);
        break;
      case "temperature":
        set("temperature", num(v), p);
        break;
      case "top_p":
        set("topP", num(v), p);
        break;
      case "top_k":
        set("topK", num(v), p);
        break;
      case "stop":
      case "stop_sequences":
        set("stop", typeof v === "string" ? [v] : Array.isArray(v) ? (v as string[]) : undefined, p);
        break;
      case "seed":
        set("seed", num(v), p);
        break;
      case "presence_penalty":
        set("presencePenalty", num(v), p);
        break;
      case "frequency_penalty":
        set("frequencyPenalty", num(v), p);
        break;
      case "n":
        set("candidates", num(v), p);
        break;
      case "tool_choice":
        set("toolChoice", readToolChoice(v, p, ctx, s), p);
        break;
      case "toolConfig":
      case "tool_config":
        set("toolChoice", readGeminiToolConfig(v, p, ctx), p);
        break;
      case "parallel_tool_calls":
        if (typeof v === "boolean") set("parallelToolCalls", v, p);
        break;
      case "thinking":
        set("thinking", readThinking(v, p, ctx), p);
        break;
      case "reasoning_effort": {
        const e = effort(v);
        set("thinking", e && (e === "none" ? { kind: "off" } : { kind: "effort", effort: e }), p);
        break;
      }
      case "reasoning": {
        const r = asObject(v) ?? {};
        const e = effort(r.effort);
        if (e) set("thinking", e === "none" ? { kind: "off" } : { kind: "effort", effort: e }, `${p}.effort`);
        if (r.summary !== undefined && r.summary !== null) set("reasoningSummary", r.summary, `${p}.summary`);
        for (const x of Object.keys(r))
          if (x !== "effort" && x !== "summary") ctx.dropped(`${p}.${x}`, `reasoning.${x}`);
        break;
      }
      case "output_config": {
        const c = asObject(v) ?? {};
        const e = effort(c.effort);
        // Anthropic's effort spends tokens on thinking and answer alike: the nearest OpenAI setting is the reasoning effort.
        if (e && !s.thinking) set("thinking", { kind: "effort", effort: e }, `${p}.effort`);
        if (c.format) set("responseFormat", readFormat(c.format, `${p}.format`, ctx), `${p}.format`);
        break;
      }
      case "response_format":
      case "output_format":
        set("responseFormat", readFormat(v, p, ctx), p);
        break;
      case "text": {
        const t = asObject(v) ?? {};
        if (t.format !== undefined) set("responseFormat", readFormat(t.format, `${p}.format`, ctx), `${p}.format`);
        if (t.verbosity !== undefined && t.verbosity !== null) set("verbosity", t.verbosity, `${p}.verbosity`);
        break;
      }
      case "verbosity":
        if (v !== null) set("verbosity", v, p);
        break;
      case "user":
      case "safety_identifier":
        if (typeof v === "string") set("user", { value: v, key: k }, p);
        break;
      case "metadata": {
        const m = asObject(v) ?? {};
        // Anthropic's metadata holds only the end user's id; OpenAI's is free-form tags.
        if (typeof m.user_id === "string" && Object.keys(m).length === 1 && ctx.source === "anthropic")
          set("user", { value: m.user_id, key: "safety_identifier" }, `${p}.user_id`);
        else set("metadata", m, p);
        break;
      }
      case "stream":
        if (typeof v === "boolean") set("stream", v, p);
        break;
      case "generationConfig":
      case "generation_config":
        readGeneration(asObject(v) ?? {}, p);
        break;
      case "inferenceConfig":
        for (const [x, y] of Object.entries(asObject(v) ?? {})) {
          const q = `${p}.${x}`;
          if (x === "maxTokens") set("maxTokens", num(y), q);
          else if (x === "temperature") set("temperature", num(y), q);
          else if (x === "topP") set("topP", num(y), q);
          else if (x === "stopSequences") set("stop", Array.isArray(y) ? (y as string[]) : undefined, q);
          else ctx.dropped(q, `inferenceConfig.${x}`);
        }
        break;
      case "additionalModelRequestFields":
        // Model-specific fields; Claude's thinking and top_k are the ones with equivalents elsewhere.
        for (const [x, y] of Object.entries(asObject(v) ?? {})) {
          const q = `${p}.${x}`;
          if (x === "thinking") set("thinking", readThinking(y, q, ctx), q);
          else if (x === "top_k") set("topK", num(y), q);
          else ctx.dropped(q, `additionalModelRequestFields.${x}`);
        }
        break;
      default:
        if (OPENAI_SHARED.includes(k) && (ctx.source === "openai-chat" || ctx.source === "openai-responses"))
          s.openai[k] = v;
        else ctx.dropped(p, k);
    }
  }
  return s;
}

type Out = Record<string, JsonValue>;

/** Writes `s` in `target`'s spelling; each setting the target lacks is dropped with a warning. */
export function writeSettings(s: Settings, target: WireFormat, ctx: ExportContext, model = ""): Out {
  const out: Out = {};
  const claudeOnBedrock = /claude|anthropic/i.test(model);
  const drop = (key: keyof Settings, what: string) => {
    if (s[key] !== undefined) ctx.dropped(s.paths[key] ?? String(key), what);
  };
  const approx = (key: keyof Settings, message: string) =>
    ctx.warn("setting_approximated", s.paths[key] ?? String(key), message);
  const budgetOf = (t: Thinking): number | undefined =>
    t.kind === "budget" ? t.tokens : t.kind === "effort" && t.effort !== "none" ? EFFORT_BUDGETS[t.effort] : undefined;
  const effortFor = (t: Thinking): Effort | undefined =>
    t.kind === "effort" ? t.effort : t.kind === "budget" ? effortOf(t.tokens) : undefined;

  if (target === "anthropic") {
    if (s.maxTokens !== undefined) out.max_tokens = s.maxTokens;
    if (s.temperature !== undefined) {
      out.temperature = Math.min(1, s.temperature);
      if (s.temperature > 1)
        approx("temperature", `temperature ${s.temperature} is above Anthropic's maximum of 1: written as 1.`);
    }
    if (s.topP !== undefined) out.top_p = s.topP;
    if (s.topK !== undefined) out.top_k = s.topK;
    if (s.stop !== undefined) out.stop_sequences = [...s.stop];
    const tc = s.toolChoice;
    const choice: Out | undefined =
      tc === undefined
        ? s.parallelToolCalls === false
          ? { type: "auto" }
          : undefined
        : tc.mode === "required"
          ? { type: "any" }
          : tc.mode === "tool"
            ? { type: "tool", name: tc.name }
            : tc.mode === "allowed"
              ? { type: tc.required ? "any" : "auto" }
              : { type: tc.mode };
    if (tc?.mode === "allowed") approx("toolChoice", "Anthropic has no list of allowed tools: written as any tool.");
    if (choice && s.parallelToolCalls === false && choice.type !== "none") choice.disable_parallel_tool_use = true;
    if (choice) out.tool_choice = choice;
    const t = s.thinking;
    if (t) {
      if (t.kind === "off") out.thinking = { type: "disabled" };
      else if (t.kind === "dynamic") out.thinking = { type: "adaptive" };
      else {
        const budget = Math.max(1024, budgetOf(t) ?? 1024);
        out.thinking = { type: "enabled", budget_tokens: budget };
        if (t.kind === "effort")
          approx("thinking", `reasoning effort "${t.effort}" is written as a thinking budget of ${budget} tokens.`);
        else if (budget !== t.tokens)
          approx("thinking", `a thinking budget of ${t.tokens} is below Anthropic's minimum: written as 1024.`);
      }
    }
    drop("includeThoughts", "includeThoughts");
    drop("reasoningSummary", "a reasoning summary setting");
    const f = s.responseFormat;
    if (f?.type === "json_schema") {
      out.output_config = { format: { type: "json_schema", schema: f.schema } };
      if (f.name !== undefined || f.strict !== undefined)
        approx(
          "responseFormat",
          "Anthropic's output format takes the schema only: its name and strict flag are not written.",
        );
    } else drop("responseFormat", "a JSON-object response format (Anthropic takes a JSON schema only)");
    if (s.user) out.metadata = { user_id: s.user.value };
    drop("metadata", "free-form metadata (Anthropic's metadata holds only user_id)");
    if (s.stream !== undefined) out.stream = s.stream;
    for (const k of ["seed", "presencePenalty", "frequencyPenalty", "candidates", "verbosity"] as const) drop(k, k);
  }
  if (target !== "openai-chat" && target !== "openai-responses")
    for (const k of Object.keys(s.openai)) ctx.dropped(`providerOptions.${k}`, k);
  if (target === "openai-chat" || target === "openai-responses") {
    const chat = target === "openai-chat";
    if (s.maxTokens !== undefined) out[chat ? "max_completion_tokens" : "max_output_tokens"] = s.maxTokens;
    if (s.temperature !== undefined) out.temperature = s.temperature;
    if (s.topP !== undefined) out.top_p = s.topP;
    drop("topK", "top_k");
    if (chat) {
      if (s.stop !== undefined) out.stop = [...s.stop];
      if (s.seed !== undefined) out.seed = s.seed;
      if (s.presencePenalty !== undefined) out.presence_penalty = s.presencePenalty;
      if (s.frequencyPenalty !== undefined) out.frequency_penalty = s.frequencyPenalty;
      if (s.candidates !== undefined) out.n = s.candidates;
    } else for (const k of ["stop", "seed", "presencePenalty", "frequencyPenalty", "candidates"] as const) drop(k, k);
    const tc = s.toolChoice;
    if (tc) {
      if (tc.mode === "tool")
        out.tool_choice = chat
          ? { type: "function", function: { name: tc.name } }
          : { type: "function", name: tc.name };
      else if (tc.mode === "allowed") {
        const tools = tc.names.map((name) =>
          chat ? { type: "function", function: { name } } : { type: "function", name },
        );
        const mode = tc.required ? "required" : "auto";
        out.tool_choice = chat
          ? { type: "allowed_tools", allowed_tools: { mode, tools } }
          : { type: "allowed_tools", mode, tools };
      } else out.tool_choice = tc.mode;
    }
    if (s.parallelToolCalls !== undefined) out.parallel_tool_calls = s.parallelToolCalls;
    const t = s.thinking;
    const e = t === undefined ? undefined : effortFor(t);
    if (t?.kind === "budget")
      approx("thinking", `a thinking budget of ${t.tokens} tokens is written as reasoning effort "${e}".`);
    if (t?.kind === "off" || t?.kind === "dynamic")
      ctx.dropped(
        s.paths.thinking ?? "thinking",
        t.kind === "off" ? "turning reasoning off" : "adaptive (model-chosen) thinking",
      );
    if (chat) {
      if (e) out.reasoning_effort = e;
      drop("reasoningSummary", "a reasoning summary setting");
    } else {
      const r: Out = {};
      if (e) r.effort = e;
      if (s.reasoningSummary !== undefined) r.summary = s.reasoningSummary;
      if (Object.keys(r).length > 0) out.reasoning = r;
    }
    drop("includeThoughts", "includeThoughts");
    const f = s.responseFormat;
    let format: Out | undefined;
    if (f?.type === "json_object") format = { type: "json_object" };
    else if (f?.type === "json_schema") {
      const name = f.name ?? "response";
      if (f.name === undefined)
        ctx.warn(
          "field_filled",
          s.paths.responseFormat ?? "responseFormat",
          'OpenAI needs a name for a JSON schema response format: written as "response".',
        );
      const js: Out = { name };
      if (f.description !== undefined) js.description = f.description;
      js.schema = f.schema;
      if (f.strict !== undefined) js.strict = f.strict;
      format = chat ? { type: "json_schema", json_schema: js } : { type: "json_schema", ...js };
    }
    if (chat) {
      if (format) out.response_format = format;
      if (s.verbosity !== undefined) out.verbosity = s.verbosity;
    } else if (format || s.verbosity !== undefined) {
      const text: Out = {};
      if (format) text.format = format;
      if (s.verbosity !== undefined) text.verbosity = s.verbosity;
      out.text = text;
    }
    if (s.user) out[s.user.key] = s.user.value;
    if (s.metadata) out.metadata = s.metadata;
    if (s.stream !== undefined) out.stream = s.stream;
    Object.assign(out, s.openai);
  } else if (target === "gemini") {
    // Gemini: sampling, output and thinking live in generationConfig; tool choice in toolConfig.
    const g: Out = {};
    if (s.maxTokens !== undefined) g.maxOutputTokens = s.maxTokens;
    if (s.temperature !== undefined) g.temperature = s.temperature;
    if (s.topP !== undefined) g.topP = s.topP;
    if (s.topK !== undefined) g.topK = s.topK;
    if (s.stop !== undefined) g.stopSequences = [...s.stop];
    if (s.seed !== undefined) g.seed = s.seed;
    if (s.presencePenalty !== undefined) g.presencePenalty = s.presencePenalty;
    if (s.frequencyPenalty !== undefined) g.frequencyPenalty = s.frequencyPenalty;
    if (s.candidates !== undefined) g.candidateCount = s.candidates;
    const f = s.responseFormat;
    if (f) {
      g.responseMimeType = "application/json";
      if (f.type === "json_schema") g.responseJsonSchema = f.schema;
    }
    const t = s.thinking;
    if (t || s.includeThoughts !== undefined) {
      const tc: Out = {};
      if (t?.kind === "off") tc.thinkingBudget = 0;
      else if (t?.kind === "dynamic") tc.thinkingBudget = -1;
      else if (t?.kind === "budget") tc.thinkingBudget = t.tokens;
      else if (t?.kind === "effort") {
        if (t.effort === "none") tc.thinkingBudget = 0;
        else if (t.effort === "low" || t.effort === "medium" || t.effort === "high" || t.effort === "minimal")
          tc.thinkingLevel = t.effort.toUpperCase();
        else {
          tc.thinkingLevel = "HIGH";
          approx(
            "thinking",
            `reasoning effort "${t.effort}" is above Gemini's highest thinking level: written as HIGH.`,
          );
        }
      }
      if (s.includeThoughts !== undefined) tc.includeThoughts = s.includeThoughts;
      g.thinkingConfig = tc;
    }
    drop("reasoningSummary", "a reasoning summary setting");
    if (Object.keys(g).length > 0) out.generationConfig = g;
    const tc = s.toolChoice;
    if (tc) {
      const fc: Out =
        tc.mode === "tool"
          ? { mode: "ANY", allowedFunctionNames: [tc.name] }
          : tc.mode === "allowed"
            ? { mode: tc.required ? "ANY" : "AUTO", allowedFunctionNames: [...tc.names] }
            : { mode: tc.mode === "required" ? "ANY" : tc.mode.toUpperCase() };
      out.toolConfig = { functionCallingConfig: fc };
    }
    drop("parallelToolCalls", "parallel_tool_calls");
    drop("verbosity", "verbosity");
    drop("user", "an end-user id");
    drop("metadata", "request metadata");
    drop("stream", "stream (Gemini streams through the streamGenerateContent method, not a body field)");
  }
  if (target === "bedrock-converse") {
    const inf: Out = {};
    if (s.maxTokens !== undefined) inf.maxTokens = s.maxTokens;
    if (s.temperature !== undefined) inf.temperature = s.temperature;
    if (s.topP !== undefined) inf.topP = s.topP;
    if (s.stop !== undefined) inf.stopSequences = [...s.stop];
    if (Object.keys(inf).length > 0) out.inferenceConfig = inf;
    // Claude on Bedrock takes Anthropic's own thinking and top_k as additional model fields.
    const extra: Out = {};
    const t = s.thinking;
    if (t && claudeOnBedrock) {
      const budget = budgetOf(t);
      extra.thinking =
        t.kind === "off"
          ? { type: "disabled" }
          : t.kind === "dynamic"
            ? { type: "adaptive" }
            : { type: "enabled", budget_tokens: Math.max(1024, budget ?? 1024) };
      if (t.kind === "effort") approx("thinking", `reasoning effort "${t.effort}" is written as a thinking budget.`);
    } else drop("thinking", "a thinking setting (for a model other than Claude)");
    if (s.topK !== undefined && claudeOnBedrock) extra.top_k = s.topK;
    else drop("topK", "top_k");
    if (Object.keys(extra).length > 0) out.additionalModelRequestFields = extra;
    const tc = s.toolChoice;
    if (tc?.mode === "none") ctx.dropped(s.paths.toolChoice ?? "toolChoice", 'tool_choice "none"');
    else if (tc) {
      const choice =
        tc.mode === "tool"
          ? { tool: { name: tc.name } }
          : tc.mode === "auto" || (tc.mode === "allowed" && !tc.required)
            ? { auto: {} }
            : { any: {} };
      if (tc.mode === "allowed")
        approx("toolChoice", "Bedrock has no list of allowed tools: written as any (or auto) tool.");
      out.toolConfig = { toolChoice: choice };
    }
    const none = [
      "seed",
      "presencePenalty",
      "frequencyPenalty",
      "candidates",
      "parallelToolCalls",
      "includeThoughts",
    ] as const;
    for (const k of [...none, "reasoningSummary", "responseFormat", "verbosity", "user", "metadata", "stream"] as const)
      drop(k, k);
  }
  return out;
}

/**
 * Top-level request fields of each format (official SDK types, 2026-08): a cross-format export
 * writes nothing else, and the export matrix test checks every body against these lists.
 */
export const REQUEST_FIELDS: Readonly<Record<WireFormat, readonly string[]>> = {
  anthropic: [
    "model",
    "messages",
    "max_tokens",
    "cache_control",
    "container",
    "context_management",
    "inference_geo",
    "mcp_servers",
    "metadata",
    "output_config",
    "service_tier",
    "stop_sequences",
    "stream",
    "system",
    "temperature",
    "thinking",
    "tool_choice",
    "tools",
    "top_k",
    "top_p",
  ],
  "openai-chat": [
    "model",
    "messages",
    "audio",
    "frequency_penalty",
    "logit_bias",
    "logprobs",
    "max_completion_tokens",
    "max_tokens",
    "metadata",
    "modalities",
    "n",
    "parallel_tool_calls",
    "prediction",
    "presence_penalty",
    "prompt_cache_key",
    "prompt_cache_options",
    "prompt_cache_retention",
    "reasoning_effort",
    "response_format",
    "safety_identifier",
    "seed",
    "service_tier",
    "stop",
    "store",
    "stream",
    "stream_options",
    "temperature",
    "tool_choice",
    "tools",
    "top_logprobs",
    "top_p",
    "user",
    "verbosity",
    "web_search_options",
  ],
  "openai-responses": [
    "model",
    "input",
    "instructions",
    "background",
    "conversation",
    "include",
    "max_output_tokens",
    "metadata",
    "parallel_tool_calls",
    "previous_response_id",
    "prompt",
    "prompt_cache_key",
    "prompt_cache_options",
    "prompt_cache_retention",
    "reasoning",
    "safety_identifier",
    "service_tier",
    "store",
    "stream",
    "stream_options",
    "temperature",
    "text",
    "tool_choice",
    "tools",
    "top_logprobs",
    "top_p",
    "truncation",
    "user",
  ],
  gemini: [
    "model",
    "contents",
    "systemInstruction",
    "tools",
    "toolConfig",
    "safetySettings",
    "generationConfig",
    "cachedContent",
    "labels",
  ],
  "bedrock-converse": [
    "modelId",
    "model",
    "messages",
    "system",
    "inferenceConfig",
    "toolConfig",
    "guardrailConfig",
    "additionalModelRequestFields",
    "additionalModelResponseFieldPaths",
    "promptVariables",
    "requestMetadata",
    "performanceConfig",
  ],
};

/**
 * The head of a body (`model`, then the settings) for `ctx.target`: the request's options verbatim
 * when it was read from the target format, else translated (reserved fields are the converter's).
 */
export function exportHead(
  model: string,
  options: JsonObject | undefined,
  ctx: ExportContext,
  reserved: readonly string[],
): Record<string, JsonValue | undefined> {
  if (!ctx.crossing) return requestHead(model, options, reserved);
  const head: Record<string, JsonValue | undefined> = { model };
  const own = REQUEST_FIELDS[ctx.target];
  const written = writeSettings(readSettings(options ?? {}, ctx), ctx.target, ctx, model);
  for (const k of Object.keys(written)) if (own.includes(k)) head[k] = written[k];
  return head;
}

/** `providerFields` keys a target writes: its own, and `openai` for both OpenAI formats. */
const OWN_KEYS: Readonly<Record<WireFormat, readonly string[]>> = {
  anthropic: ["anthropic"],
  "openai-chat": ["openai-chat", "openai"],
  "openai-responses": ["openai-responses", "openai"],
  gemini: ["gemini"],
  "bedrock-converse": ["bedrock-converse"],
};

/** Converter bookkeeping kept in `providerFields` (how a value was spelled), not wire fields of their own. */
const BOOKKEEPING = new Set([
  "contentBlocks",
  "noContent",
  "contentParts",
  "instructions",
  "item",
  "itemStart",
  "part",
  "role",
  "noId",
  "noArgs",
  "noRole",
  "schemaKey",
  "tool",
]);

/** A built-in tool of another format (it has no definition the target could run), described; else undefined. */
export function foreignHostedTool(tool: ToolDefinition, target: WireFormat): string | undefined {
  const pf = tool.providerFields ?? {};
  const own = OWN_KEYS[target];
  const type = (key: string) => str(pf[key]?.type);
  if (!own.includes("anthropic") && type("anthropic") !== undefined && type("anthropic") !== "custom")
    return `Anthropic's ${type("anthropic")} tool`;
  if (!own.includes("openai-chat") && type("openai-chat") === "custom") return "an OpenAI Chat custom tool";
  if (
    !own.includes("openai-responses") &&
    type("openai-responses") !== undefined &&
    type("openai-responses") !== "function"
  )
    return `OpenAI Responses' ${type("openai-responses")} tool`;
  if (!own.includes("gemini") && pf.gemini?.tool !== undefined) return `Gemini's ${tool.name} tool`;
  if (!own.includes("bedrock-converse") && pf["bedrock-converse"]?.tool !== undefined)
    return `a Bedrock Converse ${tool.name} tool entry`;
  return undefined;
}

/**
 * Warns once per field for the wire fields other formats kept on tools, messages and blocks
 * (`providerFields`), which the target does not write: Anthropic `citations`, Gemini
 * `thoughtSignature` (signed), OpenAI item ids. Thinking blocks and built-in tools warn on their own.
 */
export function reportForeignFields(request: ProviderRequest | NormalizedRequest, ctx: ExportContext): void {
  const own = OWN_KEYS[ctx.target];
  const seen = new Map<string, { path: string; count: number; signed: boolean }>();
  const scan = (fields: ProviderFields | undefined, path: string) => {
    if (!fields) return;
    for (const key of Object.keys(fields)) {
      if (own.includes(key)) continue;
      const f = fields[key]!;
      const names = Object.keys(f).flatMap((k) =>
        k === "itemStart" ? Object.keys(asObject(f[k]) ?? {}) : BOOKKEEPING.has(k) ? [] : [k],
      );
      for (const name of names) {
        const id = `${key}.${name}`;
        const s = seen.get(id);
        if (s) s.count++;
        else seen.set(id, { path, count: 1, signed: name === "thoughtSignature" });
      }
    }
  };
  request.tools.forEach((t, i) => {
    if (foreignHostedTool(t, ctx.target) === undefined) scan(t.providerFields, `tools[${i}]`);
  });
  request.messages.forEach((m, i) => {
    scan(m.providerFields, `messages[${i}]`);
    m.content.forEach((b, j) => {
      if (b.type !== "thinking") scan(b.providerFields, `messages[${i}].content[${j}]`);
    });
  });
  for (const [id, s] of seen) {
    const where = s.count === 1 ? s.path : `${s.count} places, first ${s.path}`;
    ctx.warn(
      s.signed ? "signed_content_dropped" : "field_dropped",
      s.path,
      `The ${id.replace(".", " field ")} (${where}) has no place in ${ctx.targetName}: not written.`,
    );
  }
}

/** The translator the public `to*` converters pass to their writers. */
export const TRANSLATOR: Translator = {
  head: exportHead,
  hostedTool: foreignHostedTool,
  geminiSchema: jsonSchemaFromGemini,
  foreignFields: reportForeignFields,
};
