/**
 * The structural check of a fingerprint bundle that came from someone else, run once where a
 * bundle enters `compareRequests`, `simulateCache` and `suggestCacheBreakpoints` (and after the
 * zod schema in `parseFingerprintBundle`). Hand-written and linear, so comparing requests does
 * not load zod. It fails on the first bad field with its JSON path, and checks what the
 * comparison relies on beyond types: each segment's `index` is its position, byte offsets are
 * contiguous, and `total` is the sum of the segments — so a malformed bundle can never compare
 * as identical or yield sizes that do not add up.
 */
import { RequestFormatError } from "../formats/errors.ts";
import { CONTENT_BLOCK_TYPES, ROLES } from "../messages/types.ts";
import { describeValue } from "../util/describe.ts";
import { isObject } from "../util/plain-object.ts";
import { CACHE_PROVIDERS, type FingerprintBundle } from "./types.ts";

const HEX64 = /^[0-9a-f]{64}$/;
const KINDS = ["tool", "tool_choice", "message", "block"] as const;
const REGIONS = ["tools", "system", "messages"] as const;

type Obj = Record<string, unknown>;

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const oneOf = (list: readonly string[]) => (v: unknown) => typeof v === "string" && list.includes(v);
const quoted = (list: readonly string[]) => list.map((x) => `"${x}"`).join(", ");

function fail(
  field: string,
  path: string,
  expected: string,
  got: unknown,
  code = got === undefined ? "missing_field" : "invalid_value",
): never {
  const message = `expected ${expected}, got ${describeValue(got, "brief")}`;
  throw new RequestFormatError(
    "invalid_fingerprints",
    `${field} is not a valid fingerprint bundle: ${path === "" ? "the bundle" : path}: ${message}. Make bundles with toFingerprintBundle and share them unchanged.`,
    [{ code, path, message }],
    ["fingerprints"],
  );
}

function need(field: string, o: Obj, key: string, base: string, ok: (v: unknown) => boolean, expected: string): void {
  const v = o[key];
  if (!ok(v)) fail(field, `${base}${key}`, expected, v);
}

const isHex = (v: unknown) => typeof v === "string" && HEX64.test(v);
const HEX = "a SHA-256 as 64 lowercase hex digits";
const COUNT = "a whole number ≥ 0";

/**
 * Returns `value` typed as a bundle, or throws `RequestFormatError` (code `invalid_fingerprints`)
 * naming the first bad field; `field` says which argument it was (`previous`, `turns[2]`).
 */
export function checkFingerprintBundle(value: unknown, field = "bundle"): FingerprintBundle {
  if (!isObject(value)) fail(field, "", "a fingerprint bundle object", value, "invalid_type");
  need(field, value, "kind", "", (v) => v === "strata-fingerprints", '"strata-fingerprints"');
  need(field, value, "bundleVersion", "", (v) => v === 1, "1 (the only bundle version)");
  need(field, value, "provider", "", oneOf(CACHE_PROVIDERS), `one of ${quoted(CACHE_PROVIDERS)}`);
  need(field, value, "model", "", (v) => typeof v === "string", "a string");
  need(field, value, "requestSha256", "", isHex, HEX);
  need(field, value, "automaticCaching", "", (v) => typeof v === "boolean", "true or false");
  const total = value["total"];
  if (!isObject(total)) fail(field, "total", "{ bytes, segments, tokens }", total, "invalid_type");
  for (const k of ["bytes", "segments", "tokens"]) need(field, total, k, "total.", isCount, COUNT);
  const segments = value["segments"];
  if (!Array.isArray(segments)) fail(field, "segments", "an array of segments", segments, "invalid_type");
  let bytes = 0;
  let tokens = 0;
  for (let i = 0; i < segments.length; i++) {
    const s: unknown = segments[i];
    const at = `segments[${i}].`;
    if (!isObject(s)) fail(field, `segments[${i}]`, "a segment object", s, "invalid_type");
    need(field, s, "index", at, (v) => v === i, `${i} (its position in segments)`);
    need(field, s, "path", at, (v) => typeof v === "string", "a string");
    need(field, s, "kind", at, oneOf(KINDS), `one of ${quoted(KINDS)}`);
    need(field, s, "region", at, oneOf(REGIONS), `one of ${quoted(REGIONS)}`);
    need(field, s, "role", at, (v) => v === null || oneOf(ROLES)(v), `null or one of ${quoted(ROLES)}`);
    need(field, s, "messageIndex", at, (v) => v === null || isCount(v), `null or ${COUNT}`);
    need(
      field,
      s,
      "blockType",
      at,
      (v) => v === null || oneOf(CONTENT_BLOCK_TYPES)(v),
      `null or one of ${quoted(CONTENT_BLOCK_TYPES)}`,
    );
    need(field, s, "byteOffset", at, (v) => v === bytes, `${bytes} (the previous segments' byteLength summed)`);
    need(field, s, "byteLength", at, isCount, COUNT);
    need(field, s, "tokens", at, isCount, COUNT);
    need(field, s, "sha256", at, isHex, HEX);
    need(field, s, "canonicalSha256", at, isHex, HEX);
    need(field, s, "cacheBreakpoint", at, (v) => typeof v === "boolean", "true or false");
    bytes += s["byteLength"] as number;
    tokens += s["tokens"] as number;
  }
  need(field, total, "segments", "total.", (v) => v === segments.length, `${segments.length} (the number of segments)`);
  need(field, total, "bytes", "total.", (v) => v === bytes, `${bytes} (the segments' byteLength summed)`);
  need(field, total, "tokens", "total.", (v) => v === tokens, `${tokens} (the segments' tokens summed)`);
  return value as unknown as FingerprintBundle;
}
