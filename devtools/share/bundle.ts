import * as z from "zod";
import {
  CACHE_PROVIDERS,
  type FingerprintBundle,
  type SegmentKind,
  type SegmentRegion,
} from "../../core/cache/index.ts";
import { CONTENT_BLOCK_TYPES, ROLES } from "../../core/messages/index.ts";
import { allOf } from "../components/closedSets.ts";
import { compressText, decompressText, ShareDecodeError } from "./codec.ts";
import { describeZodIssues } from "./state.ts";

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase SHA-256 hex digest");
const count = z.number().int().min(0);
const PrefixSize = z.strictObject({ bytes: count, segments: count, tokens: count });

const Segment = z.strictObject({
  index: count,
  path: z.string().max(500),
  kind: z.enum(allOf<SegmentKind>()(["tool", "tool_choice", "message", "block"])),
  region: z.enum(allOf<SegmentRegion>()(["tools", "system", "messages"])),
  role: z.enum(ROLES).nullable(),
  messageIndex: count.nullable(),
  blockType: z.enum(CONTENT_BLOCK_TYPES).nullable(),
  byteOffset: count,
  byteLength: count,
  tokens: count,
  sha256: hex64,
  canonicalSha256: hex64,
  cacheBreakpoint: z.boolean(),
});

/**
 * core's `FingerprintBundle`: segment paths, sizes and hashes, no prompt text. Strict, so a
 * bundle that smuggles extra fields (text) is refused rather than silently passed along.
 */
export const FingerprintBundleSchema = z.strictObject({
  kind: z.literal("strata-fingerprints"),
  bundleVersion: z.literal(1),
  provider: z.enum(CACHE_PROVIDERS),
  model: z.string().max(200),
  requestSha256: hex64,
  total: PrefixSize,
  automaticCaching: z.boolean(),
  segments: z.array(Segment).max(1_000_000),
});
export type FingerprintBundleValue = z.infer<typeof FingerprintBundleSchema>;

// Compile-time check, both ways: what the schema accepts is a core bundle, and every core bundle
// (a new field, segment kind, role or block type included) has the schema's type.
type Fits<From, To> = [From] extends [To] ? true : false;
const schemaMatchesCore: [
  Fits<FingerprintBundleValue, FingerprintBundle>,
  Fits<FingerprintBundle["segments"][number], FingerprintBundleValue["segments"][number]>,
  Fits<Omit<FingerprintBundle, "segments">, Omit<FingerprintBundleValue, "segments">>,
] = [true, true, true];
void schemaMatchesCore;

/** True when a pasted value claims to be a bundle (then it is validated as one). */
export const looksLikeBundle = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "strata-fingerprints";

export function parseBundle(value: unknown): FingerprintBundleValue {
  const result = FingerprintBundleSchema.safeParse(value);
  if (!result.success) throw new ShareDecodeError(`Not a valid fingerprint bundle: ${describeZodIssues(result.error)}`);
  return result.data;
}

export const encodeBundle = (bundle: FingerprintBundle): Promise<string> => compressText(JSON.stringify(bundle));

export async function decodeBundle(encoded: string): Promise<FingerprintBundleValue> {
  const text = await decompressText(encoded);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ShareDecodeError("The bundle link's data is not JSON.", { cause });
  }
  return parseBundle(value);
}
