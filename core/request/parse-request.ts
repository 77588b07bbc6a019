/**
 * `parseRequest(text | value)`: the front door for every request Strata reads — its own
 * `AssemblyRequest` (kept as options) or any wire format (parsed into a `NormalizedRequest`).
 * Detection, limits and errors are the wire reader's (formats/parse.ts), with Strata's format
 * first in the table order.
 */
import { type FormatEvidence, type Obj, rankFormats, wireEvidence } from "../formats/detect.ts";
import type { RequestFormatIssue } from "../formats/errors.ts";
import { fromZodIssues } from "../formats/issues.ts";
import { parseAmong, type ParseRequestOptions, type ReadAttempt, readWireFormat } from "../formats/parse.ts";
import { prefixRequest } from "../formats/prefix.ts";
import { type NormalizedRequest, WIRE_FORMATS, type WireFormat } from "../formats/types.ts";
import { type AssemblyRequest, normalizeAssemblyRequest } from "./assembly-request.ts";
import { strataEvidence } from "./detect.ts";
import { assemblyRequestSchema } from "./schema.ts";

/** Request formats `parseRequest` detects, in the order it tries them when the evidence ties. */
export const REQUEST_FORMATS = ["strata", ...WIRE_FORMATS] as const;
export type RequestFormat = (typeof REQUEST_FORMATS)[number];

export type ParsedRequest =
  | { readonly format: "strata"; readonly request: AssemblyRequest }
  | {
      readonly format: WireFormat;
      readonly request: NormalizedRequest;
      /** Blocks kept verbatim because Strata does not know their type (see `WireRequest`). */
      readonly warnings: readonly RequestFormatIssue[];
    };

function attempt(format: RequestFormat, value: unknown): ReadAttempt<ParsedRequest> {
  if (format !== "strata") return readWireFormat(format, value);
  const r = assemblyRequestSchema.safeParse(value);
  if (!r.success) return { ok: false, issues: fromZodIssues(r.error.issues, value) };
  return { ok: true, parsed: { format, request: normalizeAssemblyRequest(value as Record<string, unknown>) } };
}

const evidence = (o: Obj): Record<RequestFormat, FormatEvidence> => ({ strata: strataEvidence(o), ...wireEvidence(o) });

/**
 * Detects the format of `input` (JSON text or an already-parsed value) and parses it.
 * Strata's `AssemblyRequest` stays as options; wire formats become a `NormalizedRequest`.
 */
export function parseRequest(input: unknown, options: ParseRequestOptions<RequestFormat> = {}): ParsedRequest {
  return parseAmong(input, options, REQUEST_FORMATS, evidence, attempt);
}

/**
 * `previous` (a parsed JSON value) read exactly as `parseRequest(previous)` reads it, derived from
 * `next` (read from `nextValue`) when `previous` is the same request with a shorter conversation
 * (see `prefixRequest`) and that shorter conversation is still detected as `next`'s format; null
 * otherwise (then parse it). Its messages are `next.request`'s own objects.
 */
export function parsePrefixRequest(previous: unknown, nextValue: unknown, next: ParsedRequest): ParsedRequest | null {
  if (next.format === "strata") return null;
  const derived = prefixRequest(previous, nextValue, next);
  if (derived === null) return null;
  // The first format tried accepts it, so it is the one parseRequest gives.
  return rankFormats(REQUEST_FORMATS, evidence(previous as Obj))[0] === next.format ? derived : null;
}
