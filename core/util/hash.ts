/**
 * SHA-256 and UTF-8 helpers shared by every module that fingerprints text.
 *
 * Hashing is synchronous and pure JS (sha256.ts): WebCrypto's `crypto.subtle.digest` is
 * async-only, which would make every fingerprinting API async. The digest is the same in Node,
 * browsers, workerd, Deno and Bun (checked against WebCrypto in each). A fingerprint identifies a
 * prompt prefix; it guards no secret.
 * Strings are hashed as their UTF-8 bytes (WHATWG `TextEncoder`: a lone surrogate
 * encodes as U+FFFD, the same in every runtime).
 */
import { sha256Digest } from "./sha256.ts";
import { InvalidInputError } from "./errors.ts";
import { describeValue } from "./describe.ts";
import { countUtf8, encodesInJs, writeJsonStringUtf8, writeUtf8 } from "./utf8.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** SHA-256 digest of `bytes` (its first `length`), in a buffer the next digest overwrites (`hex` reads it at once). */
const sha256 = sha256Digest;

/** ASCII codes of "0123456789abcdef". */
const HEX_DIGITS = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0));

/** The digits of a digest (`hex`). */
const HEX_CODES = new Uint8Array(64);

/**
 * The runtime's own lowercase hex (`Uint8Array.prototype.toHex`, ES2026), where it has one: in
 * headless Chromium 300,000 digests took 16–44 ms against 200–275 ms decoding the digits below
 * (a long chat's whole report hashes ~150,000). Node 20 has none; both ways are checked against
 * WebCrypto in every runtime the tests run in.
 */
const nativeHex = (Uint8Array.prototype as { toHex?: (this: Uint8Array) => string }).toHex;

/**
 * Lowercase hex of a digest (32 bytes) as one flat string. (Appending two digits at a time, as
 * `bytesToHex` does where `Uint8Array.prototype.toHex` is missing, leaves a chain of 30-odd
 * string pieces per digest that every later comparison has to flatten.)
 */
function hex(bytes: Uint8Array): string {
  if (nativeHex !== undefined) return nativeHex.call(bytes);
  // One buffer for every digest's digits (the decoded string is a copy): a new array per digest
  // made decoding its 64 digits ~9× as slow in Node 20.
  const codes = HEX_CODES;
  for (let i = 0; i < bytes.length; i++) {
    codes[2 * i] = HEX_DIGITS[bytes[i]! >> 4]!;
    codes[2 * i + 1] = HEX_DIGITS[bytes[i]! & 15]!;
  }
  return decoder.decode(codes);
}

/** Texts up to this many UTF-16 units are encoded into one reused buffer instead of a new array each. */
const SCRATCH_CHARS = 65_536;
let scratch: Uint8Array | undefined;

/** The UTF-8 bytes of `text` (lone surrogates become U+FFFD, as `TextEncoder` does everywhere). */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Lowercase hex SHA-256 of `input`; a string is hashed as its UTF-8 bytes. Synchronous. This is
 * also the fingerprint of a composed prompt: equal prompts, equal fingerprints, in every runtime.
 */
export function sha256Hex(input: string | Uint8Array): string {
  if (typeof input === "string") return digestText(input);
  if (input instanceof Uint8Array) return hex(sha256(input));
  throw new InvalidInputError("input", `sha256Hex hashes a string or a Uint8Array, got ${describeValue(input)}.`);
}

/**
 * Writes the UTF-8 of `text` into `out` from index `at` (`out` must have room for it) and returns
 * the byte count; in Blink with the JavaScript loop (see `encodesInJs`): the same bytes.
 */
const encodeAt = (text: string, out: Uint8Array, at: number): number =>
  encodesInJs ? writeUtf8(text, out, at) : encoder.encodeInto(text, at === 0 ? out : viewFrom(out, at)).written;

/** Views of the scratch buffer from the first few offsets (a fixed head's length), made once each. */
const scratchViews: Uint8Array[] = [];

/** `out.subarray(at)`; for the scratch buffer and a short head, the same view every time (not a new one per text hashed). */
const viewFrom = (out: Uint8Array, at: number): Uint8Array =>
  out === scratch && at < 64 ? (scratchViews[at] ??= out.subarray(at)) : out.subarray(at);

/** The scratch buffer: room for the UTF-8 of `SCRATCH_CHARS` units (three bytes each at most). */
const scratchBuffer = (): Uint8Array => (scratch ??= new Uint8Array(SCRATCH_CHARS * 3));

/** Writes ASCII `text` into `out` from index `at`, a unit per byte; returns the index after it. */
function putAscii(text: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  return at;
}

/**
 * Lowercase hex SHA-256 of `head`, then what `write` writes of `body`, then `tail`, one after
 * another in the scratch buffer (the caller checked that they fit). `head` and `tail` are ASCII.
 */
function hashBetween(
  head: string,
  body: string,
  tail: string,
  write: (body: string, out: Uint8Array, at: number) => number,
): string {
  const out = scratchBuffer();
  let n = putAscii(head, out, 0);
  n += write(body, out, n);
  n = putAscii(tail, out, n);
  return hex(sha256(out, n));
}

/**
 * Lowercase hex SHA-256 of the UTF-8 of `head + body + tail`, the three written one after another
 * into the scratch buffer instead of joined first. Hashing a plain text block's JSON this way
 * (`segment-record.ts`) makes no throwaway copy of each text, nor the flat copy encoding a joined
 * string makes. `head` and `tail` must be ASCII (they are written a unit per byte).
 */
export function hashFramed(head: string, body: string, tail: string): string {
  if (head.length + body.length + tail.length > SCRATCH_CHARS) return digestText(head + body + tail);
  return hashBetween(head, body, tail, encodeAt);
}

/**
 * Lowercase hex SHA-256 of the UTF-8 of `head + JSON.stringify(text) + tail`, written into the
 * scratch buffer as it is escaped (`writeJsonStringUtf8`): no escaped copy of `text` is made.
 * `head` and `tail` must be ASCII. A text that might not fit escaped (six bytes per UTF-16 unit
 * at most) is hashed as before, its JSON written by `JSON.stringify`.
 */
export function hashJsonString(head: string, text: string, tail: string): string {
  if (head.length + tail.length + 2 + text.length * 6 > SCRATCH_CHARS * 3)
    return hashFramed(head, JSON.stringify(text), tail);
  return hashBetween(head, text, tail, writeJsonStringUtf8);
}

/**
 * Lowercase hex SHA-256 of the bytes `write` puts into a scratch buffer from index 0 (it returns
 * how many), or undefined when it returns -1 (it could not write them there).
 */
export function hashWritten(write: (out: Uint8Array) => number): string | undefined {
  const out = scratchBuffer();
  const n = write(out);
  return n < 0 ? undefined : hex(sha256(out, n));
}

/** Lowercase hex SHA-256 of the UTF-8 of `text`, encoded into the scratch buffer when it fits (no array of its own). */
function digestText(text: string): string {
  const long = text.length > SCRATCH_CHARS;
  if (long && !encodesInJs) return hex(sha256(encoder.encode(text)));
  // Three bytes per UTF-16 unit is the most UTF-8 can take, so a short text always fits the
  // scratch buffer; a long one gets a buffer of exactly its length.
  const out = long ? new Uint8Array(countUtf8(text)) : scratchBuffer();
  return hex(sha256(out, encodeAt(text, out, 0)));
}
