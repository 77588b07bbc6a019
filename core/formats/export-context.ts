/**
 * What every `to*` converter shares when it writes a request: the target and source formats, and
 * the warnings it returns with the body. A request read from one format and written to another
 * keeps what translates (settings.ts) and drops what has no equivalent in the target, naming each
 * dropped thing in a warning — nothing is copied across verbatim, nothing is lost silently.
 * Provider-signed content (thinking signatures, encrypted reasoning, redacted thinking) never
 * crosses providers: the target could not verify it and would reject the request.
 */
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { JsonValue, ProviderFields } from "../messages/types.ts";
import type { JsonObject } from "./convert-util.ts";
import { RequestFormatError, type RequestFormatIssue } from "./errors.ts";
import { findModel } from "./models.ts";
import type { NormalizedRequest, WireFormat } from "./types.ts";

export const EXPORT_WARNING_CODES = [
  /** A setting or request field with no equivalent in the target: not written. */
  "setting_dropped",
  /** A setting written with a nearby value (a thinking budget as an effort, a clamped temperature). */
  "setting_approximated",
  /** A field the target requires, filled in (Anthropic `max_tokens` from the model table). */
  "field_filled",
  /** A field the target requires that Strata cannot fill (a model id): the body needs it before sending. */
  "field_missing",
  /** Thinking signatures, encrypted reasoning or redacted thinking from another provider: not written. */
  "signed_content_dropped",
  /** Content the target cannot take back (thinking text of another provider). */
  "content_dropped",
  /** A provider's built-in tool (web search, code execution …) that the target does not have. */
  "tool_dropped",
  /** A wire field another format kept on a tool, message or block (e.g. Anthropic `citations`). */
  "field_dropped",
] as const;
export type ExportWarningCode = (typeof EXPORT_WARNING_CODES)[number];

/** One thing the export changed or left out, located by its path in the normalized request. */
export interface ExportWarning {
  readonly code: ExportWarningCode;
  /** `providerOptions.thinking`, `messages[2].content[0]`, `tools[3]`, or `model`. */
  readonly path: string;
  readonly message: string;
}

/** What a `to*` converter returns: the body (checked against the target's schema) and what it dropped or filled. */
export interface ExportResult {
  readonly body: JsonObject;
  readonly warnings: readonly ExportWarning[];
}

/** Options every converter takes. */
export interface ExportOptions {
  /** The model id to write instead of the request's own (e.g. a Claude model for a request read from OpenAI). */
  readonly model?: string;
  /** The wire format the request was read from; default inferred (see `sourceFormatOf`). */
  readonly from?: WireFormat | null;
}

const RESPONSES_ONLY = [
  "max_output_tokens",
  "reasoning",
  "text",
  "previous_response_id",
  "include",
  "truncation",
  "background",
  "conversation",
  "prompt",
];

/**
 * The format whose spelling `request.providerOptions` and provider-signed content are in: from
 * `model.provider` (`anthropic`; `gemini`/`google`/`vertex`; `openai`, Responses when a field only
 * Responses has is present or a message came from Responses, else Chat Completions). Null for any
 * other provider (a gateway): then every setting is translated and nothing is kept verbatim.
 */
export function sourceFormatOf(request: ProviderRequest | NormalizedRequest): WireFormat | null {
  const provider = request.model.provider.toLowerCase();
  if (provider === "anthropic") return "anthropic";
  if (provider === "gemini" || provider === "google" || provider === "vertex") return "gemini";
  if (provider !== "openai") return null;
  const opts = request.providerOptions ?? {};
  if (RESPONSES_ONLY.some((k) => opts[k] !== undefined)) return "openai-responses";
  const fromResponses = request.messages.some(
    (m) =>
      m.providerFields?.["openai-responses"] !== undefined ||
      m.content.some((b) => b.providerFields?.["openai-responses"] !== undefined),
  );
  return fromResponses ? "openai-responses" : "openai-chat";
}

const NAMES: Readonly<Record<WireFormat, string>> = {
  anthropic: "Anthropic Messages",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  gemini: "Gemini generateContent",
};

/** The warnings of one export, and whether it crosses formats. */
export class ExportContext {
  readonly warnings: ExportWarning[] = [];
  readonly source: WireFormat | null;
  /** True when the request was read from another format (or from none): settings are translated. */
  readonly crossing: boolean;
  readonly targetName: string;

  constructor(
    readonly target: WireFormat,
    request: ProviderRequest | NormalizedRequest,
    options: ExportOptions,
  ) {
    this.source = options.from === undefined ? sourceFormatOf(request) : options.from;
    this.crossing = this.source !== target;
    this.targetName = NAMES[target];
  }

  warn(code: ExportWarningCode, path: string, message: string): void {
    this.warnings.push({ code, path, message });
  }

  /** Warns when `model` is empty or is another provider's model (the target would reject it). */
  checkModel(model: string, required: boolean): void {
    const wanted = this.target === "anthropic" ? "anthropic" : this.target === "gemini" ? "gemini" : "openai";
    const row = model === "" ? null : findModel(model).row;
    if (model === "" && required)
      this.warn("field_missing", "model", `${this.targetName} needs a model id: pass { model }.`);
    else if (row && row.provider !== wanted)
      this.warn(
        "field_missing",
        "model",
        `${model} is not a model ${this.targetName} serves: pass { model } with one of its ids.`,
      );
  }

  dropped(path: string, what: string): void {
    this.warn("setting_dropped", path, `${what} has no equivalent in ${this.targetName}: not written.`);
  }

  /** A thinking block of another provider: its signature or opaque data cannot cross, its text is not taken back. */
  thinkingDropped(path: string, block: { readonly signature?: string; readonly redacted?: boolean }): void {
    if (block.redacted || block.signature !== undefined)
      this.warn(
        "signed_content_dropped",
        path,
        `${block.redacted ? "Redacted thinking" : "A thinking block with a provider signature"} from ${this.source ? NAMES[this.source] : "another provider"} cannot be verified by ${this.targetName}: not written.`,
      );
    else
      this.warn(
        "content_dropped",
        path,
        `Thinking text of another provider is not sent to ${this.targetName}: not written.`,
      );
  }

  /** A block the target wrote nothing for: another format's opaque block (kept verbatim only for its own format). */
  opaqueDropped(
    path: string,
    block: { readonly type: string; readonly format?: string; readonly wireType?: string },
  ): void {
    if (block.type === "opaque")
      this.warn(
        "content_dropped",
        path,
        `A ${block.format} ${JSON.stringify(block.wireType)} block has no ${this.targetName} equivalent: not written.`,
      );
  }

  /** The body checked against the target's own schema; a failure is a bug or an input the target cannot express. */
  result(body: JsonObject, issues: readonly RequestFormatIssue[]): ExportResult {
    if (issues.length > 0)
      throw new RequestFormatError(
        "export_invalid",
        `The ${this.targetName} body Strata wrote would be rejected: ${issues
          .slice(0, 3)
          .map((i) => `${i.path || "(root)"}: ${i.message}`)
          .join("; ")}.`,
        issues,
        [this.target],
      );
    return { body, warnings: this.warnings };
  }
}

/** `value` as a plain JSON object, or undefined. */
export const asObject = (value: JsonValue | undefined): JsonObject | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;

/** `providerFields` keys a target writes: its own, and `openai` for both OpenAI formats. */
const OWN_KEYS: Readonly<Record<WireFormat, readonly string[]>> = {
  anthropic: ["anthropic"],
  "openai-chat": ["openai-chat", "openai"],
  "openai-responses": ["openai-responses", "openai"],
  gemini: ["gemini"],
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
  return undefined;
}

const str = (v: JsonValue | undefined) => (typeof v === "string" ? v : undefined);

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
