/**
 * `readUsage(format, responseBody)`: the token usage a provider reported in its response, in one
 * normalized shape, from a JSON response, an SSE stream (text) or an AWS event stream (bytes).
 *
 * Each provider counts differently; the normalized `input` is always every input token billed,
 * cached ones included (read 2026-12-01):
 *
 * | format             | input                                                    | cache read                    | cache write                                  | source |
 * | ------------------ | -------------------------------------------------------- | ----------------------------- | -------------------------------------------- | ------ |
 * | `openai-chat`      | `prompt_tokens` (includes cached)                         | `prompt_tokens_details.cached_tokens` | `…details.cache_write_tokens` (GPT-5.6+) | OpenAI API reference, Chat completion object; streams: the last chunk with `stream_options.include_usage` |
 * | `openai-responses` | `input_tokens` (includes cached)                          | `input_tokens_details.cached_tokens`  | `input_tokens_details.cache_write_tokens`    | OpenAI API reference, Response object; streams: `response.completed` |
 * | `anthropic`        | `input_tokens` + cache read + cache creation (it excludes both) | `cache_read_input_tokens` | `cache_creation_input_tokens` (`cache_creation.ephemeral_1h_input_tokens` for 1 h) | Anthropic docs, Prompt caching and Streaming messages (message_start, then cumulative message_delta) |
 * | `gemini`           | `promptTokenCount` (includes cached)                      | `cachedContentTokenCount`     | — (implicit caching writes for free)         | Gemini API reference, UsageMetadata; streams: the last chunk's `usageMetadata` |
 * | `bedrock-converse` | `inputTokens` + cache read + cache write (it excludes both) | `cacheReadInputTokens` (or `…Count`) | `cacheWriteInputTokens` (or `…Count`)    | AWS Bedrock Runtime API reference, TokenUsage; ConverseStream `metadata` event |
 *
 * Output counts include reasoning / thinking tokens (Gemini: `candidatesTokenCount + thoughtsTokenCount`).
 */
import type { WireFormat } from "../formats/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { isObject } from "../util/plain-object.ts";

/** Response formats `readUsage` reads: the wire formats plus AWS Bedrock Converse. */
export const USAGE_FORMATS = [
  "openai-chat",
  "openai-responses",
  "anthropic",
  "gemini",
  "bedrock-converse",
] as const satisfies readonly (WireFormat | "bedrock-converse")[];
export type UsageFormat = (typeof USAGE_FORMATS)[number];

/** Token usage as a provider reported it, normalized (see the table above). Whole, non-negative numbers. */
export interface Usage {
  /** Every input token billed for the request, cached ones (read and written) included. */
  readonly input: number;
  /** Of `input`, tokens read from the prompt cache. */
  readonly cacheRead: number;
  /** Of `input`, tokens written to the prompt cache (0 where the provider does not report writes). */
  readonly cacheWrite: number;
  /** Of `cacheWrite`, tokens written with a 1-hour lifetime (Anthropic); 0 when not reported. */
  readonly cacheWrite1h: number;
  /** Output tokens, reasoning and thinking included. */
  readonly output: number;
}

type Obj = Record<string, unknown>;

/** A count field: a finite number ≥ 0, rounded down; anything else is absent. */
function count(o: unknown, key: string): number | undefined {
  if (!isObject(o)) return undefined;
  const v = o[key];
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

const isBytes = (v: unknown): v is Uint8Array => Object.prototype.toString.call(v) === "[object Uint8Array]";

/**
 * Server-sent events → the JSON value of each event's `data` (multi-line data joined with "\n";
 * `[DONE]` and data that is not JSON are left out). Linear in the text.
 */
export function sseEvents(text: string): unknown[] {
  const out: unknown[] = [];
  let data: string[] = [];
  const flush = () => {
    if (data.length === 0) return;
    const payload = data.join("\n");
    data = [];
    if (payload === "[DONE]") return;
    try {
      out.push(JSON.parse(payload));
    } catch {
      // a keep-alive comment or a truncated last event: nothing to read
    }
  };
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line === "") flush();
    else if (line.startsWith("data:")) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5));
    start = end + 1;
  }
  flush();
  return out;
}

/**
 * AWS event-stream frames (application/vnd.amazon.eventstream, as Bedrock's ConverseStream sends
 * them) → each JSON payload, wrapped as `{ [eventType]: payload }` when the frame names its event
 * type. Frame layout: total length (u32), headers length (u32), prelude CRC, headers, payload,
 * message CRC; checksums are not verified (the bytes come from a recording, not the network).
 * Returns null when the bytes are not an event stream.
 */
export function eventStreamEvents(bytes: Uint8Array): unknown[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  const out: unknown[] = [];
  let at = 0;
  while (at + 16 <= bytes.byteLength) {
    const total = view.getUint32(at);
    const headersLength = view.getUint32(at + 4);
    if (total < 16 || at + total > bytes.byteLength || headersLength > total - 16) return out.length > 0 ? out : null;
    let h = at + 12;
    const headersEnd = h + headersLength;
    let eventType: string | null = null;
    while (h < headersEnd) {
      const nameLength = bytes[h]!;
      const name = decoder.decode(bytes.subarray(h + 1, h + 1 + nameLength));
      h += 1 + nameLength;
      const type = bytes[h]!;
      h += 1;
      // Value sizes by header type: bool true/false, byte, short, int, long, bytes, string, timestamp, uuid.
      if (type === 0 || type === 1) continue;
      if (type === 6 || type === 7) {
        const length = view.getUint16(h);
        if (type === 7 && name === ":event-type") eventType = decoder.decode(bytes.subarray(h + 2, h + 2 + length));
        h += 2 + length;
      } else h += ({ 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 } as Record<number, number>)[type] ?? headersEnd - h;
    }
    const payload = decoder.decode(bytes.subarray(headersEnd, at + total - 4));
    try {
      const value: unknown = JSON.parse(payload);
      out.push(eventType !== null ? { [eventType]: value } : value);
    } catch {
      // an empty or binary payload carries no usage
    }
    at += total;
  }
  return out.length > 0 || bytes.byteLength === 0 ? out : null;
}

/** Newline-delimited JSON (some proxies record streams so): each line that parses. */
function jsonLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!/\S/.test(line)) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a cut-off last line
    }
  }
  return out;
}

/** A response body in any accepted form → the JSON values to read usage from, in order. */
function events(body: unknown): unknown[] {
  let value = body;
  if (isBytes(value)) {
    const frames = eventStreamEvents(value);
    if (frames) return frames;
    value = new TextDecoder().decode(value);
  }
  if (typeof value === "string") {
    const text = value.charCodeAt(0) === 0xfeff ? value.slice(1) : value;
    const first = text.trimStart()[0];
    if (first === "{" || first === "[") {
      try {
        value = JSON.parse(text);
      } catch {
        return jsonLines(text);
      }
    } else return sseEvents(text);
  }
  return Array.isArray(value) ? value : [value];
}

const usage = (input: number, cacheRead: number, cacheWrite: number, output: number, cacheWrite1h = 0): Usage => ({
  input,
  cacheRead,
  cacheWrite,
  cacheWrite1h,
  output,
});

function openAIChat(u: unknown): Usage | null {
  const input = count(u, "prompt_tokens");
  if (input === undefined) return null;
  const details = (u as Obj)["prompt_tokens_details"];
  return usage(
    input,
    count(details, "cached_tokens") ?? 0,
    count(details, "cache_write_tokens") ?? 0,
    count(u, "completion_tokens") ?? 0,
  );
}

function openAIResponses(u: unknown): Usage | null {
  const input = count(u, "input_tokens");
  if (input === undefined) return null;
  const details = (u as Obj)["input_tokens_details"];
  return usage(
    input,
    count(details, "cached_tokens") ?? 0,
    count(details, "cache_write_tokens") ?? 0,
    count(u, "output_tokens") ?? 0,
  );
}

/** Anthropic usage fields seen so far (message_start, then each cumulative message_delta). */
type AnthropicFields = Partial<Record<"input" | "read" | "write" | "write1h" | "output", number>>;

function anthropicFields(u: unknown, into: AnthropicFields): void {
  const set = (k: keyof AnthropicFields, v: number | undefined) => {
    if (v !== undefined) into[k] = v;
  };
  set("input", count(u, "input_tokens"));
  set("read", count(u, "cache_read_input_tokens"));
  set("write", count(u, "cache_creation_input_tokens"));
  set("output", count(u, "output_tokens"));
  if (isObject(u)) set("write1h", count(u["cache_creation"], "ephemeral_1h_input_tokens"));
}

function anthropic(list: readonly unknown[]): Usage | null {
  const f: AnthropicFields = {};
  let seen = false;
  for (const e of list) {
    if (!isObject(e)) continue;
    const u = e["type"] === "message_start" && isObject(e["message"]) ? e["message"]["usage"] : e["usage"];
    if (!isObject(u)) continue;
    anthropicFields(u, f);
    seen = true;
  }
  if (!seen || f.input === undefined) return null;
  const read = f.read ?? 0;
  const write = f.write ?? 0;
  return usage(f.input + read + write, read, write, f.output ?? 0, Math.min(f.write1h ?? 0, write));
}

function gemini(u: unknown): Usage | null {
  const input = count(u, "promptTokenCount");
  if (input === undefined) return null;
  return usage(
    input,
    count(u, "cachedContentTokenCount") ?? 0,
    0,
    (count(u, "candidatesTokenCount") ?? 0) + (count(u, "thoughtsTokenCount") ?? 0),
  );
}

function bedrock(u: unknown): Usage | null {
  const input = count(u, "inputTokens");
  if (input === undefined) return null;
  const read = count(u, "cacheReadInputTokens") ?? count(u, "cacheReadInputTokenCount") ?? 0;
  const write = count(u, "cacheWriteInputTokens") ?? count(u, "cacheWriteInputTokenCount") ?? 0;
  return usage(input + read + write, read, write, count(u, "outputTokens") ?? 0);
}

/** The last event that yields a usage reading wins (streams repeat or complete it at the end). */
function lastOf(list: readonly unknown[], pick: (e: Obj) => unknown, read: (u: unknown) => Usage | null) {
  let found: Usage | null = null;
  for (const e of list) {
    if (!isObject(e)) continue;
    const u = pick(e);
    const r = u === undefined ? null : read(u);
    if (r) found = r;
  }
  return found;
}

/**
 * The usage a response reports, normalized; null when the body holds none (an error response, a
 * stream cut before its last event, a chat stream sent without `stream_options.include_usage`).
 * `body`: the parsed JSON response, its text (JSON, a JSON array of stream chunks, or SSE), the
 * bare `usage` object, or the raw bytes of a Bedrock event stream.
 */
export function readUsage(format: UsageFormat, body: unknown): Usage | null {
  if (!(USAGE_FORMATS as readonly string[]).includes(format))
    throw new InvalidInputError("format", `must be one of ${USAGE_FORMATS.join(", ")}, got ${String(format)}`);
  const list = events(body);
  switch (format) {
    case "openai-chat":
      return lastOf(list, (e) => ("usage" in e ? e["usage"] : "prompt_tokens" in e ? e : undefined), openAIChat);
    case "openai-responses":
      return lastOf(
        list,
        (e) =>
          isObject(e["response"])
            ? e["response"]["usage"]
            : "usage" in e
              ? e["usage"]
              : "input_tokens" in e
                ? e
                : undefined,
        openAIResponses,
      );
    case "anthropic":
      return anthropic(list.map((e) => (isObject(e) && "input_tokens" in e && !("usage" in e) ? { usage: e } : e)));
    case "gemini":
      return lastOf(
        list,
        (e) =>
          isObject(e["response"])
            ? e["response"]["usageMetadata"]
            : "usageMetadata" in e
              ? e["usageMetadata"]
              : "promptTokenCount" in e
                ? e
                : undefined,
        gemini,
      );
    case "bedrock-converse":
      return lastOf(
        list,
        (e) =>
          isObject(e["metadata"])
            ? e["metadata"]["usage"]
            : "usage" in e
              ? e["usage"]
              : "inputTokens" in e
                ? e
                : undefined,
        bedrock,
      );
  }
}
