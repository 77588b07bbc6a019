/**
 * Hash-only share bundles: segment paths, sizes and hashes, no text. Two people can compare
 * turns (`compareRequests` accepts a bundle on either side) without sharing prompts.
 * Caveat: a short segment's hash can be confirmed by guessing its text (e.g. `{"role":"user"}`).
 */
import * as z from "zod/mini";
import { InvalidInputError, RequestFormatError } from "../errors.ts";
import { fromZodIssues, summarizeIssues } from "../formats/issues.ts";
import type { InspectionReport } from "../inspect/types.ts";
import { sha256Hex } from "./hash.ts";
import type { SegmentedRequest } from "./segments.ts";
import { CACHE_PROVIDERS, type FingerprintBundle, type Segment } from "./types.ts";

const hex = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const count = z.number().check(z.int(), z.nonnegative());
const segmentSchema = z.object({
  index: count,
  path: z.string(),
  kind: z.enum(["tool", "tool_choice", "message", "block"]),
  region: z.enum(["tools", "system", "messages"]),
  role: z.nullable(z.enum(["system", "user", "assistant", "tool"])),
  messageIndex: z.nullable(count),
  blockType: z.nullable(z.enum(["text", "image", "audio", "file", "document", "thinking", "tool_call", "tool_result"])),
  byteOffset: count,
  byteLength: count,
  tokens: count,
  sha256: hex,
  canonicalSha256: hex,
  cacheBreakpoint: z.boolean(),
});
const size = z.object({ bytes: count, segments: count, tokens: count });
export const fingerprintBundleSchema = z.object({
  kind: z.literal("strata-fingerprints"),
  bundleVersion: z.literal(1),
  provider: z.enum(CACHE_PROVIDERS),
  model: z.string(),
  requestSha256: hex,
  total: size,
  automaticCaching: z.boolean(),
  segments: z.array(segmentSchema),
});

export function isFingerprintBundle(value: unknown): value is FingerprintBundle {
  return value !== null && typeof value === "object" && (value as { kind?: unknown }).kind === "strata-fingerprints";
}

/** Validates a bundle received from someone else; throws `RequestFormatError` with paths. */
export function parseFingerprintBundle(value: unknown): FingerprintBundle {
  const r = fingerprintBundleSchema.safeParse(value);
  if (!r.success) {
    const issues = fromZodIssues(r.error.issues, value);
    throw new RequestFormatError("invalid_fingerprints", `Not a valid fingerprint bundle: ${summarizeIssues(issues)}.`, issues, ["fingerprints"]);
  }
  return value as FingerprintBundle;
}

const stripSegment = (s: Segment): Segment => ({
  index: s.index,
  path: s.path,
  kind: s.kind,
  region: s.region,
  role: s.role,
  messageIndex: s.messageIndex,
  blockType: s.blockType,
  byteOffset: s.byteOffset,
  byteLength: s.byteLength,
  tokens: s.tokens,
  sha256: s.sha256,
  canonicalSha256: s.canonicalSha256,
  cacheBreakpoint: s.cacheBreakpoint,
});

/** A segmented request → its bundle. */
export function bundleFromSegments(seg: SegmentedRequest): FingerprintBundle {
  return {
    kind: "strata-fingerprints",
    bundleVersion: 1,
    provider: seg.provider,
    model: seg.model,
    requestSha256: sha256Hex(seg.segments.map((s) => s.sha256).join("")),
    total: { bytes: seg.totalBytes, segments: seg.segments.length, tokens: seg.totalTokens },
    automaticCaching: seg.automaticCaching,
    segments: seg.segments.map(stripSegment),
  };
}

/** The shareable bundle of an inspection report (or of a segmented request). No prompt text. */
export function toFingerprintBundle(source: InspectionReport | SegmentedRequest | FingerprintBundle): FingerprintBundle {
  if (isFingerprintBundle(source)) return { ...source, segments: source.segments.map(stripSegment) };
  if ("reportVersion" in source) {
    if (!source.fingerprints) throw new InvalidInputError("report.fingerprints", "the report has no request to fingerprint (see report.problems)");
    return source.fingerprints;
  }
  return bundleFromSegments(source);
}
