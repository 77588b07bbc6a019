/**
 * The schema of a hash-only share bundle (see fingerprints.ts), for bundles received from
 * someone else. Kept apart so code that only builds or compares bundles does not load zod.
 */
import * as z from "zod/mini";
import { RequestFormatError } from "../formats/errors.ts";
import { fromZodIssues, summarizeIssues } from "../formats/issues.ts";
import { checkFingerprintBundle } from "../cache/fingerprint-check.ts";
import { stripBundle } from "../cache/fingerprints.ts";
import { CACHE_PROVIDERS, type FingerprintBundle } from "../cache/types.ts";

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

/**
 * Validates a bundle received from someone else and returns a copy holding only the known keys
 * (unknown keys, which could carry prompt text, are never passed through). Throws
 * `RequestFormatError` (code `invalid_fingerprints`): every shape issue with its path, then the
 * consistency checks `compareRequests` applies (positions, offsets, totals).
 */
export function parseFingerprintBundle(value: unknown): FingerprintBundle {
  const r = fingerprintBundleSchema.safeParse(value);
  if (!r.success) {
    const issues = fromZodIssues(r.error.issues, value);
    throw new RequestFormatError(
      "invalid_fingerprints",
      `Not a valid fingerprint bundle: ${summarizeIssues(issues)}.`,
      issues,
      ["fingerprints"],
    );
  }
  return stripBundle(checkFingerprintBundle(value));
}
