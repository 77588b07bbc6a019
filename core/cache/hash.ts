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
export function utf8Length(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Lowercase hex SHA-256 of `input`; a string is hashed as its UTF-8 bytes. Synchronous. */
export function sha256Hex(input: string | Uint8Array): string {
  return bytesToHex(sha256(typeof input === "string" ? encoder.encode(input) : input));
}
