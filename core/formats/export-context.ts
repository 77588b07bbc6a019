/**
 * What every `to*` converter shares when it writes a request: the target and source formats, and
 * the warnings it returns with the body. A request read from one format and written to another
 * keeps what translates (settings.ts) and drops what has no equivalent in the target, naming each
 * dropped thing in a warning — nothing is copied across verbatim, nothing is lost silently.
 * Provider-signed content (thinking signatures, encrypted reasoning, redacted thinking) never
 * crosses providers: the target could not verify it and would reject the request.
 */
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { JsonValue } from "../messages/types.ts";
import { type JsonObject, requestHead } from "./convert-util.ts";
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
  if (provider === "bedrock" || provider === "bedrock-converse") return "bedrock-converse";
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
  "bedrock-converse": "AWS Bedrock Converse",
};

/** The warnings of one export, and whether it crosses formats. */
export class ExportContext {
  readonly warnings: ExportWarning[] = [];
  readonly source: WireFormat | null;
  /** True when the request was read from another format (or from none): settings are translated. */
  readonly crossing: boolean;
  readonly targetName: string;

  /**
   * Without a `translator` (the lean writers inspect uses to write a turn back in its own format)
   * nothing is translated: the options are written verbatim, as for a same-format export.
   */
  constructor(
    readonly target: WireFormat,
    request: ProviderRequest | NormalizedRequest,
    options: ExportOptions,
    private readonly translator?: Translator,
  ) {
    this.source = options.from === undefined ? sourceFormatOf(request) : options.from;
    this.crossing = translator !== undefined && this.source !== target;
    this.targetName = NAMES[target];
  }

  /** The body's head: `model`, then the options verbatim (same format) or translated. */
  head(
    model: string,
    options: JsonObject | undefined,
    reserved: readonly string[],
  ): Record<string, JsonValue | undefined> {
    return this.crossing
      ? this.translator!.head(model, options, this, reserved)
      : requestHead(model, options, reserved);
  }

  /** When crossing: a built-in tool of another format, described (it is dropped); else undefined. */
  hostedTool(tool: ToolDefinition): string | undefined {
    return this.crossing ? this.translator!.hostedTool(tool, this.target) : undefined;
  }

  /** A tool schema in the target's dialect (Gemini's OpenAPI-style schemas become JSON Schema). */
  schema(schema: JsonValue): JsonValue {
    return this.crossing && this.source === "gemini" ? this.translator!.geminiSchema(schema) : schema;
  }

  /** When crossing: warns for the wire fields of other formats that the target does not write. */
  reportForeign(request: ProviderRequest | NormalizedRequest): void {
    if (this.crossing) this.translator!.foreignFields(request, this);
  }

  warn(code: ExportWarningCode, path: string, message: string): void {
    this.warnings.push({ code, path, message });
  }

  /** Warns when `model` is empty or is another provider's model (the target would reject it). */
  checkModel(model: string, required: boolean): void {
    const wanted = this.target === "anthropic" ? "anthropic" : this.target === "gemini" ? "gemini" : "openai";
    // Bedrock serves models of several providers: only a missing id is reported.
    const row = model === "" || this.target === "bedrock-converse" ? null : findModel(model).row;
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
    if (block.type === "opaque" && block.format !== this.target)
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

/** What a cross-format export adds to a writer (settings.ts): kept apart so a same-format writer stays small. */
export interface Translator {
  head(
    model: string,
    options: JsonObject | undefined,
    ctx: ExportContext,
    reserved: readonly string[],
  ): Record<string, JsonValue | undefined>;
  hostedTool(tool: ToolDefinition, target: WireFormat): string | undefined;
  geminiSchema(schema: JsonValue): JsonValue;
  foreignFields(request: ProviderRequest | NormalizedRequest, ctx: ExportContext): void;
}

/** `value` as a plain JSON object, or undefined. */
export const asObject = (value: JsonValue | undefined): JsonObject | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;
