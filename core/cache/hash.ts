/**
 * SHA-256 and UTF-8 helpers shared by every module that fingerprints text.
 *
 * Hashing is synchronous and pure JS (@noble/hashes): WebCrypto's `crypto.subtle.digest`
 * is async-only, which would make every fingerprinting API async. noble is audited,
 * dependency-free and gives the same hex in Node, browsers, workerd, Deno and Bun.
 * Strings are hashed as their UTF-8 bytes (WHATWG `TextEncoder`: a lone surrogate
 * encodes as U+FFFD, the same in every runtime).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text` (lone surrogates become U+FFFD, as `TextEncoder` does everywhere). */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * The UTF-8 byte length of `text` without allocating the bytes. Always equals
 * `utf8Bytes(text).length`, including for lone surrogates (3 bytes, as U+FFFD).
 */
export { utf8Length } from "../utf8.ts";

/** Lowercase hex SHA-256 of `input`; a string is hashed as its UTF-8 bytes. Synchronous. */
export function sha256Hex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === "string" ? encoder.encode(input) : input));
}
