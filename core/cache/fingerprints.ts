/**
 * Hash-only share bundles: segment paths, sizes and hashes, no text. Two people can compare
 * turns (`compareRequests` accepts a bundle on either side) without sharing prompts.
 * Caveat: a short segment's hash can be confirmed by guessing its text (e.g. `{"role":"user"}`).
 * A received bundle is checked by fingerprint-check.ts (hand-written, no zod) wherever it enters;
 * the zod schema that lists every issue of a pasted bundle is in fingerprint-schema.ts, so
 * comparing requests does not pull zod into a bundle.
 */
import { InvalidInputError } from "../util/errors.ts";
import { checkFingerprintBundle } from "./fingerprint-check.ts";
import { sha256Hex } from "../util/hash.ts";
import { plainSegment } from "./segment-record.ts";
import type { SegmentedRequest } from "./segments.ts";
import type { FingerprintBundle } from "./types.ts";

/** True when `value` says it is a bundle (`kind: "strata-fingerprints"`); its shape is checked where it is used. */
export function isFingerprintBundle(value: unknown): value is FingerprintBundle {
  return value !== null && typeof value === "object" && (value as { kind?: unknown }).kind === "strata-fingerprints";
}

/** A copy of a (checked) bundle with only the known keys, at the top and in every segment. */
export const stripBundle = (b: FingerprintBundle): FingerprintBundle => ({
  kind: b.kind,
  bundleVersion: b.bundleVersion,
  provider: b.provider,
  model: b.model,
  requestSha256: b.requestSha256,
  total: { bytes: b.total.bytes, segments: b.total.segments, tokens: b.total.tokens },
  automaticCaching: b.automaticCaching,
  segments: b.segments.map(plainSegment),
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
    segments: seg.segments.map(plainSegment),
  };
}

/** What `toFingerprintBundle` reads of an inspection report (inspect/ builds the full one). */
export interface ReportWithFingerprints {
  readonly reportVersion: number;
  readonly fingerprints: FingerprintBundle | null;
}

/**
 * The shareable bundle of an inspection report (or of a segmented request). No prompt text.
 * A bundle is checked and copied with only its known keys (unknown keys could carry prompt text).
 */
export function toFingerprintBundle(
  source: ReportWithFingerprints | SegmentedRequest | FingerprintBundle,
): FingerprintBundle {
  if (source === null || typeof source !== "object")
    throw new InvalidInputError("source", "must be an inspection report, a segmented request or a fingerprint bundle.");
  if (isFingerprintBundle(source)) return stripBundle(checkFingerprintBundle(source, "source"));
  if ("reportVersion" in source) {
    if (!source.fingerprints)
      throw new InvalidInputError(
        "report.fingerprints",
        "the report has no request to fingerprint (see report.problems)",
      );
    return source.fingerprints;
  }
  return bundleFromSegments(source);
}
