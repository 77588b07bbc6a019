/**
 * Reading a provider request body: JSON text (or an already-parsed value) → one of the wire
 * formats, detected (see detect.ts) and parsed into Strata's normalized form. Every failure is a
 * `RequestFormatError` whose issues carry a JSON path; when nothing matches, the error names every
 * format tried and lists the closest one's issues. `parseRequest` (request/) adds Strata's own
 * `AssemblyRequest` to the formats tried.
 */
import { type AnthropicRequestIn, anthropicRequest } from "./anthropic-schema.ts";
import { checkAnthropicBlocks, fromAnthropic } from "./anthropic.ts";
import { type BedrockRequestIn, bedrockRequest, checkBedrockBlocks, fromBedrock } from "./bedrock.ts";
import { byEvidence, type FormatEvidence, type Obj, rankFormats, wireEvidence } from "./detect.ts";
import { RequestFormatError, type RequestFormatErrorCode, type RequestFormatIssue } from "./errors.ts";
import { type GeminiRequestIn, geminiRequest } from "./gemini-schema.ts";
import { checkGeminiParts, fromGemini } from "./gemini.ts";
import { checkJsonValue, type ValueLimits } from "./guard.ts";
import { fromZodIssues, summarizeIssues } from "./issues.ts";
import { type ChatRequestIn, chatRequest } from "./openai-chat-schema.ts";
import { fromOpenAIChat } from "./openai-chat.ts";
import { type ResponsesRequestIn, responsesRequest } from "./openai-responses-schema.ts";
import { checkResponsesItems, checkResponsesTools, fromOpenAIResponses } from "./openai-responses.ts";
import { schemaIssues } from "./schema-accepts.ts";
import { type NormalizedRequest, WIRE_FORMATS, type WireFormat } from "./types.ts";
import { parseJson } from "../util/json.ts";
import { jsonPathAt } from "../util/json-path.ts";
import { describeValue } from "../util/describe.ts";

/** Longest request text accepted, in UTF-16 code units (64 Mi). */
export const DEFAULT_MAX_REQUEST_LENGTH = 64 * 1024 * 1024;

export interface ParseRequestOptions<F extends string = WireFormat> extends ValueLimits {
  /** Skip detection and parse as this format. */
  readonly format?: F;
  /** Longest accepted text input; default `DEFAULT_MAX_REQUEST_LENGTH`. */
  readonly maxLength?: number;
}

// zod validates; converters read the original value (zod's output puts known keys first,
// which would reorder verbatim objects and change their bytes). No schema transforms values, so
// a valid value skips zod's copy altogether (`schemaIssues`: zod runs only to report issues).
export type ReadAttempt<T> =
  | { readonly ok: true; readonly parsed: T }
  | { readonly ok: false; readonly issues: readonly RequestFormatIssue[] };

/** Reads `value` as one wire format: the parsed request, or every issue found. */
export function readWireFormat(format: WireFormat, value: unknown): ReadAttempt<WireRequest> {
  switch (format) {
    case "openai-chat": {
      const bad = schemaIssues(chatRequest, value);
      if (bad) return { ok: false, issues: fromZodIssues(bad, value) };
      return { ok: true, parsed: { format, request: fromOpenAIChat(value as ChatRequestIn), warnings: [] } };
    }
    case "openai-responses": {
      const bad = schemaIssues(responsesRequest, value);
      if (bad) return { ok: false, issues: fromZodIssues(bad, value) };
      const raw = value as ResponsesRequestIn;
      const { items, issues } =
        typeof raw.input === "string" || raw.input === undefined
          ? { items: [], issues: [] }
          : checkResponsesItems(raw.input, value);
      const all = [...issues, ...checkResponsesTools(raw.tools, value)];
      if (raw.input === undefined && !raw.prompt)
        all.push({
          code: "missing_field",
          path: "input",
          message: "input is required (or a stored prompt: prompt.id)",
        });
      if (all.length > 0) return { ok: false, issues: all };
      const warnings: RequestFormatIssue[] = [];
      return {
        ok: true,
        parsed: { format, request: fromOpenAIResponses(raw, items, warnings), warnings },
      };
    }
    case "anthropic": {
      const bad = schemaIssues(anthropicRequest, value);
      if (bad) return { ok: false, issues: fromZodIssues(bad, value) };
      const issues = checkAnthropicBlocks(value as AnthropicRequestIn, value);
      if (issues.length > 0) return { ok: false, issues };
      const warnings: RequestFormatIssue[] = [];
      return { ok: true, parsed: { format, request: fromAnthropic(value as AnthropicRequestIn, warnings), warnings } };
    }
    case "bedrock-converse": {
      const bad = schemaIssues(bedrockRequest, value);
      if (bad) return { ok: false, issues: fromZodIssues(bad, value) };
      const issues = checkBedrockBlocks(value as BedrockRequestIn);
      if (issues.length > 0) return { ok: false, issues };
      const warnings: RequestFormatIssue[] = [];
      return { ok: true, parsed: { format, request: fromBedrock(value as BedrockRequestIn, warnings), warnings } };
    }
    case "gemini": {
      const bad = schemaIssues(geminiRequest, value);
      if (bad) return { ok: false, issues: fromZodIssues(bad, value) };
      const issues = checkGeminiParts(value as GeminiRequestIn);
      if (issues.length > 0) return { ok: false, issues };
      const warnings: RequestFormatIssue[] = [];
      return { ok: true, parsed: { format, request: fromGemini(value as GeminiRequestIn, warnings), warnings } };
    }
  }
}

function fail(
  code: RequestFormatErrorCode,
  message: string,
  issues: readonly RequestFormatIssue[],
  tried: readonly string[] = [],
): never {
  throw new RequestFormatError(code, message, issues, tried);
}

/** Throws the located JSON error of `text` (syntax, depth or emptiness), with line, column and path. */
function failJson(text: string, options: ValueLimits): never {
  const parsed = parseJson(text, options.maxDepth);
  const issue = parsed.ok
    ? { code: "json_syntax" as const, message: "invalid JSON", line: 1, column: 1, offset: 0 }
    : parsed.issue;
  const { code, message, line, column, offset } = issue;
  const path = jsonPathAt(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, offset);
  return fail(code, `The request is not valid JSON: ${message}${path ? ` (in ${path})` : ""}.`, [
    { code, path, message, line, column },
  ]);
}

/** Parses JSON text (or takes a value) and checks it is clean JSON data; throws `RequestFormatError`. */
export function parseRequestValue(input: unknown, options: ParseRequestOptions<string> = {}): unknown {
  let value = input;
  if (typeof input === "string") {
    const max = options.maxLength ?? DEFAULT_MAX_REQUEST_LENGTH;
    if (input.length > max) {
      fail(
        "request_too_large",
        `The request is ${input.length} characters long; the limit is ${max} (raise maxLength or send a smaller request).`,
        [{ code: "request_too_large", path: "", message: `${input.length} characters > ${max}` }],
      );
    }
    // Fast path: the engine's parser (V8's is iterative). Depth is checked by the value guard
    // below; on any failure the located scanner (parseJson) says where and what.
    const body = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    let parsedOk = false;
    try {
      value = JSON.parse(body);
      parsedOk = true;
    } catch {
      // located below
    }
    if (!parsedOk) failJson(input, options);
  }
  const problems = checkJsonValue(value, options);
  if (typeof input === "string" && problems.some((p) => p.code === "json_too_deep")) failJson(input, options);
  if (problems.length > 0)
    fail(
      "invalid_json_data",
      `The request holds data Strata cannot hash or send: ${summarizeIssues(problems)}.`,
      problems,
    );
  return value;
}

/**
 * `input` (JSON text or an already-parsed value) read as the first of `formats` that accepts it,
 * tried in the order of their `evidence` (see detect.ts).
 */
export function parseAmong<F extends string, T>(
  input: unknown,
  options: ParseRequestOptions<F>,
  formats: readonly F[],
  evidenceOf: (value: Obj) => Record<F, FormatEvidence>,
  attempt: (format: F, value: unknown) => ReadAttempt<T>,
): T {
  const value = parseRequestValue(input, options);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    fail(
      "invalid_request",
      `A request is a JSON object; got ${describeValue(value)}.`,
      [{ code: "invalid_type", path: "", message: `expected an object, got ${describeValue(value)}` }],
      [...formats],
    );
  }
  if (options.format) {
    const r = attempt(options.format, value);
    if (r.ok) return r.parsed;
    fail(
      "invalid_request",
      `The request is not a valid ${options.format} request: ${summarizeIssues(r.issues)}.`,
      r.issues,
      [options.format],
    );
  }
  // The ranking is the tie-break rule for values valid under several formats (see detect.ts).
  const evidence = evidenceOf(value as Obj);
  const order = rankFormats(formats, evidence);
  const failures: { format: F; issues: readonly RequestFormatIssue[] }[] = [];
  for (const format of order) {
    const r = attempt(format, value);
    if (r.ok) return r.parsed;
    failures.push({ format, issues: r.issues });
  }
  // Closest: the strongest evidence, then fewest issues (stable, so table order breaks ties).
  const rank = byEvidence(evidence);
  const ranked = failures
    .map((f, i) => ({ ...f, i }))
    .sort((a, b) => rank(a.format, b.format) || a.issues.length - b.issues.length || a.i - b.i);
  const closest = ranked[0]!;
  return fail(
    "no_format_matched",
    `The request matches none of the supported formats (tried ${ranked.map((r) => r.format).join(", ")}). Closest: ${closest.format}, with ${closest.issues.length} issue${closest.issues.length === 1 ? "" : "s"}: ${summarizeIssues(closest.issues)}.`,
    closest.issues,
    ranked.map((r) => r.format),
  );
}

export type WireRequest = {
  readonly format: WireFormat;
  readonly request: NormalizedRequest;
  /** Blocks of a type Strata does not know, kept verbatim as opaque blocks (`unknown_block_type`, with the wire path). */
  readonly warnings: readonly RequestFormatIssue[];
};

/** Detects which wire format `input` (JSON text or a parsed value) is in and parses it. */
export function parseWireRequest(input: unknown, options: ParseRequestOptions = {}): WireRequest {
  return parseAmong(input, options, WIRE_FORMATS, wireEvidence, readWireFormat);
}
