/** Small helpers shared by the wire converters. */
import { InvalidInputError } from "../util/errors.ts";
import { putOwn } from "../util/plain-object.ts";
import type { CacheMarker, ContentBlock, JsonValue, ProviderFields, ToolResultBlock } from "../messages/types.ts";
import type { RequestFormatIssue } from "./errors.ts";

export type JsonObject = { readonly [key: string]: JsonValue };
type Mutable = Record<string, JsonValue>;

// Wire objects come from JSON.parse, where "__proto__" is an ordinary own key: every copy below
// goes through `putOwn` so such a key survives (plain assignment would set the prototype).

/** Fields of `obj` not in `known`, in their original order; undefined when there are none. */
export function extraFields(obj: object, known: readonly string[]): JsonObject | undefined {
  let out: Mutable | undefined;
  // for…in with an own check: Object.keys's keys in its order, without a new array per object.
  for (const key in obj) {
    if (!Object.hasOwn(obj, key) || known.includes(key)) continue;
    const v = (obj as Record<string, unknown>)[key];
    if (v === undefined) continue;
    putOwn((out ??= {}), key, v);
  }
  return out;
}

/** `{ [key]: fields }` when `fields` has entries, else undefined. */
export function providerFieldsOf(key: string, fields: JsonObject | undefined): ProviderFields | undefined {
  return fields && Object.keys(fields).length > 0 ? { [key]: fields } : undefined;
}

/** The fields stored under `key` (one wire format's extras), or an empty object. */
export function fieldsFor(target: { readonly providerFields?: ProviderFields }, key: string): JsonObject {
  return target.providerFields?.[key] ?? {};
}

/** `fields` without `keys`. */
export function omitKeys(fields: JsonObject, keys: readonly string[]): JsonObject {
  const out: Mutable = {};
  for (const k of Object.keys(fields)) if (!keys.includes(k)) putOwn(out, k, fields[k]);
  return out;
}

/** Copies `o` dropping undefined values; key order is kept, so callers control the wire order. */
export function compact(o: Record<string, JsonValue | undefined>): JsonObject {
  const out: Mutable = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== undefined) putOwn(out, k, v);
  }
  return out;
}

/** Appends extras after the known fields (known fields win on a clash). */
export function withExtras(known: JsonObject, extras: JsonObject | undefined): JsonObject {
  if (!extras) return known;
  const out: Mutable = { ...known };
  for (const k of Object.keys(extras)) if (!Object.hasOwn(out, k)) putOwn(out, k, extras[k]);
  return out;
}

/**
 * The head of a wire request: `model` first, then the provider options in their order, minus
 * `reserved` (the fields the converter writes itself). An undefined `model` is dropped by `compact`.
 */
export function requestHead(
  model: string | undefined,
  options: JsonObject | undefined,
  reserved: readonly string[],
): Record<string, JsonValue | undefined> {
  const out: Record<string, JsonValue | undefined> = { model };
  if (options) for (const k of Object.keys(options)) if (!reserved.includes(k)) putOwn(out, k, options[k]);
  return out;
}

/** Sets optional properties only when defined (exactOptionalPropertyTypes). */
export function withOptional<T extends object>(base: T, extra: { readonly [K in keyof T]?: T[K] | undefined }): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const k of Object.keys(extra)) {
    const v = (extra as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}

export function cacheMarkerFrom(cc: unknown): CacheMarker | undefined {
  if (!cc || typeof cc !== "object") return undefined;
  const ttl = (cc as { ttl?: unknown }).ttl;
  return ttl === "5m" || ttl === "1h" ? { type: "ephemeral", ttl } : { type: "ephemeral" };
}

export function cacheControlOf(marker: CacheMarker | undefined): JsonObject | undefined {
  if (!marker) return undefined;
  return marker.ttl ? { type: "ephemeral", ttl: marker.ttl } : { type: "ephemeral" };
}

/**
 * Tool-call arguments arrive as JSON text on OpenAI wires. Compact JSON (what models emit) is
 * parsed; anything else (spaces, invalid JSON) stays the raw string so its bytes survive.
 */
export function parseArguments(text: string): JsonValue {
  // Compact JSON of an object or array starts with its bracket: anything else stays text unparsed.
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return text;
  try {
    const value = JSON.parse(text) as JsonValue;
    if (value !== null && typeof value === "object" && JSON.stringify(value) === text) return value;
  } catch {
    // not JSON: keep the text
  }
  return text;
}

/** Inverse of `parseArguments`: a string is raw argument text, anything else is serialized. */
export function stringifyArguments(args: JsonValue): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** Arguments as an object, for wires that need one (Anthropic `input`, Gemini `args`). */
export function argumentsObject(args: JsonValue, field: string): JsonObject {
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch {
      throw new InvalidInputError(field, "tool-call arguments are not valid JSON and this wire format needs an object");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidInputError(field, "tool-call arguments must be a JSON object for this wire format");
  }
  return value as JsonObject;
}

/** A tool result as text: strings verbatim, wire content parts joined by their text, anything else as JSON. */
export function resultText(block: ToolResultBlock): string {
  const r = block.result;
  if (typeof r === "string") return r;
  if (
    Array.isArray(r) &&
    r.length > 0 &&
    r.every(
      (p) => p !== null && typeof p === "object" && !Array.isArray(p) && typeof (p as JsonObject).text === "string",
    )
  ) {
    return r.map((p) => (p as JsonObject).text as string).join("\n");
  }
  return JSON.stringify(r);
}

/**
 * A text block that format `key` writes as bare text: no wire extras of that format (other
 * formats' extras never reach this wire) and, when the format has cache markers, no marker.
 * `ignore` lists bookkeeping fields that are not wire fields (e.g. Responses item boundaries).
 */
export function isPlainTextFor(
  block: ContentBlock,
  key: string,
  cacheOnWire: boolean,
  ignore: readonly string[] = [],
): block is ContentBlock & { type: "text"; text: string } {
  if (block.type !== "text" || (cacheOnWire && block.cache !== undefined)) return false;
  const own = block.providerFields?.[key];
  return own === undefined || Object.keys(own).every((k) => ignore.includes(k));
}

const DATA_URL = /^data:([^;,]+)(;base64)?,/;

/** Where a media block's bytes are: inline (`mimeType` + base64 `data`) or a URL (data URLs are unpacked). */
export function mediaSource(block: {
  readonly mimeType?: string;
  readonly data?: string;
  readonly url?: string;
}):
  | { readonly kind: "data"; readonly mimeType: string; readonly data: string }
  | { readonly kind: "url"; readonly url: string; readonly mimeType?: string }
  | undefined {
  if (block.data !== undefined) {
    const m = DATA_URL.exec(block.data);
    if (m && m[2]) return { kind: "data", mimeType: m[1]!, data: block.data.slice(m[0].length) };
    return { kind: "data", mimeType: block.mimeType ?? "application/octet-stream", data: block.data };
  }
  if (block.url !== undefined) {
    const m = DATA_URL.exec(block.url);
    if (m && m[2]) return { kind: "data", mimeType: m[1]!, data: block.url.slice(m[0].length) };
    return block.mimeType !== undefined
      ? { kind: "url", url: block.url, mimeType: block.mimeType }
      : { kind: "url", url: block.url };
  }
  return undefined;
}

/** Remembers tool-call names by id so results (which carry only the id on some wires) get their name. */
export class ToolNames {
  private readonly names = new Map<string, string>();
  add(id: string, name: string): void {
    this.names.set(id, name);
  }
  get(id: string): string {
    return this.names.get(id) ?? "";
  }
}

/** Warnings a reader collects: blocks of a type Strata does not know, kept verbatim (`unknown_block_type`). */
export type Warnings = RequestFormatIssue[];

/** A block kept verbatim (see `OpaqueBlock`); `cache` when it carries its format's cache marker. */
export function opaqueBlock(format: string, wireType: string, value: unknown, cache?: CacheMarker): ContentBlock {
  const b = { type: "opaque", format, wireType, value: value as JsonValue } as const;
  return cache ? { ...b, cache } : b;
}

/** Records that the block at `path` has a type Strata does not know (it is kept as an opaque block). */
export function warnUnknown(warnings: Warnings, path: string, format: string, wireType: string): void {
  warnings.push({
    code: "unknown_block_type",
    path,
    message: `${JSON.stringify(wireType)} is not a ${format} type Strata knows: kept verbatim (segmented, counted, and written back unchanged as ${format}; other formats cannot write it)`,
  });
}

/** The value of an opaque block when `key` is its format, else undefined (another format's block). */
export function ownOpaque(b: ContentBlock, key: string): JsonObject | undefined {
  return b.type === "opaque" && b.format === key ? (b.value as JsonObject) : undefined;
}

/** Missing or non-string required fields of `obj`, as located issues (`path.field`). */
export function missingStrings(obj: Record<string, unknown>, fields: readonly string[], path: string): Warnings {
  const out: Warnings = [];
  for (const f of fields)
    if (typeof obj[f] !== "string")
      out.push({
        code: obj[f] === undefined ? "missing_field" : "invalid_type",
        path: `${path}.${f}`,
        message: obj[f] === undefined ? `${path}.${f} is required (expected a string)` : "expected a string",
      });
  return out;
}
