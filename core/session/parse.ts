/**
 * `parseSession(input)` and `createSessionReader()`: a recorded session → its model requests.
 *
 * Accepted inputs (detected from the first characters):
 * - a HAR 1.2 file (`{"log": {"entries": [...]}}`): each entry whose request goes to a provider
 *   endpoint (endpoints.ts), with its `postData` (plain or base64) and the response body (JSON, SSE
 *   or a Bedrock event stream) for the usage the provider reported;
 * - JSONL: one request body, or one `{ request, response?, time?, url? }` record, per line;
 * - a JSON array of either (or a single one).
 *
 * The reader takes the text in chunks and hands back each entry as soon as it is complete; a HAR's
 * entries are read one at a time by a streaming scanner (json-stream.ts), so memory holds one entry
 * (plus what the caller keeps). Nothing is fatal: a record that is not a model request is skipped
 * with its reason, a broken JSONL line is reported with its line number and the rest still load,
 * and a cut-off file keeps the entries before the cut.
 */
import { RequestFormatError } from "../formats/errors.ts";
import { parseWireRequest } from "../formats/parse.ts";
import { type NormalizedRequest, WIRE_FORMATS, type WireFormat } from "../formats/types.ts";
import { readUsage, type UsageFormat } from "../tokens/usage.ts";
import { InvalidInputError } from "../util/errors.ts";
import { parseJson } from "../util/json.ts";
import { isObject } from "../util/plain-object.ts";
import { type Endpoint, KNOWN_ENDPOINTS, matchEndpoint } from "./endpoints.ts";
import { entryFromMonitorEvent, isMonitorEvent } from "./fingerprints.ts";
import { JsonArrayScanner, type ScanProblem } from "./json-stream.ts";
import type { Session, SessionEntry, SessionInputKind, SessionProblem, SkipCode, SkippedRecord } from "./types.ts";

/** One record read: an entry of the session, or a record left out with its reason. */
export type SessionItem =
  | { readonly kind: "entry"; readonly entry: SessionEntry }
  | { readonly kind: "skipped"; readonly skipped: SkippedRecord };

export interface SessionReader {
  /** Reads the next chunk of the input; returns the records it completed. */
  push(chunk: string): SessionItem[];
  /** The end of the input: the last records, and every problem of the input as a whole. */
  end(): SessionItem[];
  /** What the input is, once the first characters tell (null before). */
  readonly kind: SessionInputKind | null;
  /** Problems of the input as a whole (a cut-off file, a syntax error between records). */
  readonly problems: readonly SessionProblem[];
  /** Records read so far. */
  readonly records: number;
}

const MAX_MESSAGE = 400;
const clip = (s: string) => (s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE - 1)}…` : s);

const isWireFormat = (f: string): f is WireFormat => (WIRE_FORMATS as readonly string[]).includes(f);

/** ISO 8601 date-times only: `Date.parse` of anything else differs between engines. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** A time as ms since 1970: ISO 8601 text, or a number of ms (values below 1e11 are taken as seconds). */
export function readTime(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value < 1e11 ? value * 1000 : value;
  if (typeof value !== "string" || !ISO_TIME.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** base64 → bytes with the web-standard `atob`; null when it is not base64. */
function fromBase64(text: string): Uint8Array | null {
  try {
    const binary = atob(text.replace(/\s+/g, ""));
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** A HAR body (`postData` or `response.content`): its text, decoded when `encoding` is base64. */
function harBody(body: unknown): { text: string | null; bytes: Uint8Array | null } {
  if (!isObject(body) || typeof body["text"] !== "string") return { text: null, bytes: null };
  const text = body["text"];
  if (body["encoding"] !== "base64") return { text, bytes: null };
  const bytes = fromBase64(text);
  if (!bytes) return { text: null, bytes: null };
  return { text: null, bytes };
}

const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

interface RecordParts {
  readonly body: unknown;
  /** The body's text, when the caller asked to keep it (`SessionReaderOptions.bodies`). */
  readonly keepText: boolean;
  readonly url: string | null;
  readonly response: unknown;
  readonly time: number | null;
  readonly formatHint: string | null;
}

/** The body as text, with the URL's model added when the body names none (Gemini, Vertex, Bedrock). */
function bodyText(body: unknown, endpoint: Endpoint | null): string {
  const text = typeof body === "string" ? body : JSON.stringify(body, null, 2);
  if (!endpoint?.model) return text;
  const value: unknown =
    typeof body === "string" ? JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) : body;
  if (!isObject(value) || "model" in value) return text;
  return JSON.stringify({ model: endpoint.model, ...value }, null, 2);
}

/** A record's request → a session entry, or the reason it is skipped. */
function toEntry(index: number, at: string, parts: RecordParts, endpoint: Endpoint | null): SessionItem {
  const skip = (code: SkipCode, message: string): SessionItem => ({
    kind: "skipped",
    skipped: { index, at, code, message: clip(`${at}: ${message}`) },
  });
  const hint = endpoint?.format ?? parts.formatHint;
  if (hint !== null && !isWireFormat(hint))
    return skip(
      "unsupported_format",
      `${hint} request bodies are not read yet${parts.url ? ` (${parts.url.slice(0, 120)})` : ""}.`,
    );
  let parsed: { format: WireFormat; request: NormalizedRequest };
  try {
    parsed = parseWireRequest(parts.body, hint !== null ? { format: hint } : {});
  } catch (e) {
    if (e instanceof RequestFormatError) {
      const code = e.code === "json_syntax" || e.code === "json_too_deep" ? "invalid_json" : "invalid_request";
      return skip(
        code,
        `the request body ${code === "invalid_json" ? "is not JSON" : "is not a model request"}: ${e.message}`,
      );
    }
    throw e;
  }
  let request = parsed.request;
  if (endpoint?.model) request = { ...request, model: { ...request.model, model: endpoint.model } };
  const usageFormat: UsageFormat = parsed.format;
  return {
    kind: "entry",
    entry: {
      index,
      at,
      format: parsed.format,
      request,
      time: parts.time,
      usage: parts.response === undefined || parts.response === null ? null : readUsage(usageFormat, parts.response),
      ...(parts.keepText ? { body: bodyText(parts.body, endpoint) } : {}),
    },
  };
}

/** One HAR entry (a value) → an item. */
export function harEntryItem(index: number, at: string, entry: unknown, keepText = false): SessionItem {
  const skip = (code: SkipCode, message: string): SessionItem => ({
    kind: "skipped",
    skipped: { index, at, code, message: clip(`${at}: ${message}`) },
  });
  if (!isObject(entry) || !isObject(entry["request"]))
    return skip("not_a_record", "a HAR entry is an object with a request.");
  const req = entry["request"];
  const url = typeof req["url"] === "string" ? req["url"] : "";
  const method = typeof req["method"] === "string" ? req["method"].toUpperCase() : "";
  const endpoint = matchEndpoint(url);
  const shown = `${method || "?"} ${url.slice(0, 160)}`;
  if (!endpoint) return skip("not_a_provider_endpoint", `${shown} is not a model endpoint (${KNOWN_ENDPOINTS}).`);
  if (method !== "POST") return skip("not_a_post", `${shown}: only POST requests send a prompt.`);
  const post = harBody(req["postData"]);
  const text = post.text ?? (post.bytes ? utf8(post.bytes) : null);
  if (text === null) return skip("no_request_body", `${shown} has no postData text (the recorder left the body out).`);
  const response = isObject(entry["response"]) ? entry["response"] : null;
  const status = response && typeof response["status"] === "number" ? response["status"] : 0;
  if (status >= 400)
    return skip("error_response", `${shown} failed with HTTP ${status}: the provider did not answer it.`);
  const content = harBody(response?.["content"]);
  return toEntry(
    index,
    at,
    {
      body: text,
      keepText,
      url,
      response: content.bytes ?? content.text ?? undefined,
      time: readTime(entry["startedDateTime"]),
      formatHint: null,
    },
    endpoint,
  );
}

/** A monitor event (`createMonitoredFetch`) → an item: its hash-only turn, or why it cannot be one. */
function monitorEventItem(index: number, at: string, value: unknown): SessionItem {
  const skip = (code: SkipCode, message: string): SessionItem => ({
    kind: "skipped",
    skipped: { index, at, code, message: clip(`${at}: ${message}`) },
  });
  try {
    const entry = entryFromMonitorEvent(value, index, at);
    if (entry) return { kind: "entry", entry };
    return skip("no_request_body", "this monitor event carries no fingerprint (the monitor was set to leave it out).");
  } catch (e) {
    if (e instanceof InvalidInputError) return skip("invalid_request", e.message);
    throw e;
  }
}

/** One JSONL line or array element (a value) → an item: a request body, a `{ request, … }` record or a HAR entry. */
export function recordItem(index: number, at: string, value: unknown, keepText = false): SessionItem {
  if (!isObject(value))
    return {
      kind: "skipped",
      skipped: {
        index,
        at,
        code: "not_a_record",
        message: `${at}: expected a request body or a { request, response?, time? } record, got ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}.`,
      },
    };
  if (isMonitorEvent(value)) return monitorEventItem(index, at, value);
  const inner = value["request"];
  if (isObject(inner) && ("postData" in inner || ("url" in inner && "method" in inner)))
    return harEntryItem(index, at, value, keepText);
  if (!isObject(inner))
    return toEntry(
      index,
      at,
      { body: value, keepText, url: null, response: undefined, time: null, formatHint: null },
      null,
    );
  const url = typeof value["url"] === "string" ? value["url"] : null;
  const endpoint = url ? matchEndpoint(url) : null;
  return toEntry(
    index,
    at,
    {
      body: inner,
      keepText,
      url,
      response: value["response"],
      time: readTime(value["time"] ?? value["timestamp"] ?? value["startedDateTime"]),
      formatHint: typeof value["format"] === "string" ? value["format"] : null,
    },
    endpoint,
  );
}

/** An element's JSON text → its value, or the located error (line and column in the whole input). */
function parseElement(
  text: string,
  line: number,
  column: number,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const r = parseJson(text);
    if (r.ok) return { ok: true, value: r.value };
    const l = line + r.issue.line - 1;
    const c = r.issue.line === 1 ? column + r.issue.column - 1 : r.issue.column;
    return {
      ok: false,
      message: `invalid JSON at line ${l}, column ${c}: ${r.issue.message.replace(/ at line \d+, column \d+$/, "")}`,
    };
  }
}

const problemOf = (p: ScanProblem): SessionProblem => ({
  code: p.code,
  message: p.message,
  line: p.line,
  column: p.column,
});

export interface SessionReaderOptions {
  /** Keep the request body's text (`SessionEntry.body`) of the records this returns true for (by index). */
  readonly bodies?: (index: number) => boolean;
}

/** Creates a reader for a session given in chunks (see the module comment). */
export function createSessionReader(options: SessionReaderOptions = {}): SessionReader {
  const keep = (index: number) => options.bodies?.(index) === true;
  let kind: SessionInputKind | null = null;
  let head = "";
  let records = 0;
  const problems: SessionProblem[] = [];
  let scanner: JsonArrayScanner | null = null;
  // JSONL: the unfinished last line and the number of the next one.
  let carry = "";
  let line = 1;
  // A single JSON document that is neither a HAR nor an array (or JSONL): kept whole.
  let whole: string[] | null = null;

  const fromScanner = (chunk: string): SessionItem[] => {
    const items: SessionItem[] = [];
    for (const el of scanner!.push(chunk)) {
      const at = kind === "har" ? `log.entries[${el.index}]` : `[${el.index}]`;
      const parsed = parseElement(el.text, el.line, el.column);
      records++;
      if (!parsed.ok) {
        items.push({
          kind: "skipped",
          skipped: { index: el.index, at, code: "invalid_json", message: `${at}: ${parsed.message}` },
        });
      } else
        items.push(
          kind === "har"
            ? harEntryItem(el.index, at, parsed.value, keep(el.index))
            : recordItem(el.index, at, parsed.value, keep(el.index)),
        );
    }
    return items;
  };

  const jsonlLine = (text: string, n: number, items: SessionItem[]) => {
    const body = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (!/\S/.test(body)) return;
    const index = records++;
    const at = `line ${n}`;
    const parsed = parseElement(body, n, 1);
    if (!parsed.ok)
      items.push({
        kind: "skipped",
        skipped: { index, at, code: "invalid_json", message: `${at}: ${parsed.message}` },
      });
    else items.push(recordItem(index, at, parsed.value, keep(index)));
  };

  const fromLines = (chunk: string, final: boolean): SessionItem[] => {
    const items: SessionItem[] = [];
    let text = carry + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl === -1) break;
      jsonlLine(text.slice(start, nl), line++, items);
      start = nl + 1;
    }
    text = text.slice(start);
    if (final) {
      jsonlLine(text, line, items);
      carry = "";
    } else carry = text;
    return items;
  };

  /** Decides what the input is from its first characters; null while they do not tell yet. */
  const detect = (final: boolean): SessionInputKind | "document" | "unreadable" | null => {
    const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
    const start = text.search(/\S/);
    if (start === -1) return final ? "unreadable" : null;
    const first = text[start];
    if (first === "[") return "json";
    if (first !== "{") return "unreadable";
    const key = /^\{\s*"((?:[^"\\]|\\.)*)"/.exec(text.slice(start));
    if (key?.[1] === "log") return "har";
    const nl = text.indexOf("\n", start);
    if (nl === -1) return final ? "jsonl" : null;
    return parseJson(text.slice(start, nl).trim()).ok ? "jsonl" : "document";
  };

  const begin = (decided: SessionInputKind | "document" | "unreadable", final: boolean): SessionItem[] => {
    const text = head;
    head = "";
    if (decided === "unreadable") {
      kind = "json";
      problems.push({
        code: "unreadable",
        message:
          text.trim() === ""
            ? "The file is empty."
            : "This is not a session: expected a HAR file, JSONL (one request or { request, response } record per line) or a JSON array of them.",
        line: 1,
        column: 1,
      });
      whole = null;
      return [];
    }
    if (decided === "document") {
      kind = "json";
      whole = [text];
      return [];
    }
    kind = decided;
    if (decided === "jsonl") return fromLines(text, final);
    scanner = new JsonArrayScanner(
      decided === "har" ? ["log", "entries"] : [],
      decided === "har" ? "HAR file" : "JSON array",
    );
    return fromScanner(text);
  };

  const wholeDocument = (): SessionItem[] => {
    const text = whole!.join("");
    whole = null;
    const r = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    if (!r.ok) {
      problems.push({
        code: "json_syntax",
        message: `The file is not valid JSON: ${r.issue.message} (line ${r.issue.line}, column ${r.issue.column}).`,
        line: r.issue.line,
        column: r.issue.column,
      });
      return [];
    }
    const v = r.value;
    if (isObject(v) && isObject(v["log"]) && Array.isArray(v["log"]["entries"])) {
      kind = "har";
      return (v["log"]["entries"] as unknown[]).map((e, i) => {
        records++;
        return harEntryItem(i, `log.entries[${i}]`, e, keep(i));
      });
    }
    records++;
    return [recordItem(0, "(document)", v, keep(0))];
  };

  let ended = false;
  return {
    get kind() {
      return kind;
    },
    get problems() {
      return problems;
    },
    get records() {
      return records;
    },
    push(chunk: string): SessionItem[] {
      if (ended) throw new InvalidInputError("chunk", "the reader has ended: create a new one for the next input.");
      if (typeof chunk !== "string") throw new InvalidInputError("chunk", "must be a string of the input's text.");
      if (whole) {
        whole.push(chunk);
        return [];
      }
      if (kind === null) {
        head += chunk;
        const decided = detect(false);
        return decided === null ? [] : begin(decided, false);
      }
      if (scanner) return fromScanner(chunk);
      if (kind === "jsonl") return fromLines(chunk, false);
      return [];
    },
    end(): SessionItem[] {
      if (ended) return [];
      ended = true;
      let items: SessionItem[] = [];
      if (kind === null) items = begin(detect(true) ?? "unreadable", true);
      if (whole) return [...items, ...wholeDocument()];
      if (kind === "jsonl") return [...items, ...fromLines("", true)];
      if (scanner) {
        const p = scanner.end();
        if (p) problems.push(problemOf(p));
      }
      return items;
    },
  };
}

/** The whole session at once: JSON text (HAR, JSONL, array), or an already-parsed HAR object or array. */
export function parseSession(input: unknown): Session {
  const entries: SessionEntry[] = [];
  const skipped: SkippedRecord[] = [];
  const take = (items: readonly SessionItem[]) => {
    for (const it of items)
      if (it.kind === "entry") entries.push(it.entry);
      else skipped.push(it.skipped);
  };
  if (typeof input === "string") {
    const reader = createSessionReader();
    take(reader.push(input));
    take(reader.end());
    return { kind: reader.kind ?? "json", records: reader.records, entries, skipped, problems: [...reader.problems] };
  }
  if (isObject(input) && isObject(input["log"]) && Array.isArray(input["log"]["entries"])) {
    const list = input["log"]["entries"] as unknown[];
    take(list.map((e, i) => harEntryItem(i, `log.entries[${i}]`, e)));
    return { kind: "har", records: list.length, entries, skipped, problems: [] };
  }
  if (Array.isArray(input)) {
    take(input.map((v, i) => recordItem(i, `[${i}]`, v)));
    return { kind: "json", records: input.length, entries, skipped, problems: [] };
  }
  if (isObject(input)) {
    take([recordItem(0, "(document)", input)]);
    return { kind: "json", records: 1, entries, skipped, problems: [] };
  }
  throw new InvalidInputError(
    "input",
    "must be the text of a HAR, JSONL or JSON session file, a parsed HAR object, or an array of requests or records.",
  );
}
