import { sha256Hex } from "../cache/hash.ts";
import { InvalidInputError } from "../errors.ts";

/**
 * SHA-256 hex of the UTF-8 bytes of a composed prompt: the same 64 lowercase hex characters in
 * every runtime, computed synchronously (pure JS, @noble/hashes).
 */
export function fingerprintPrompt(text: string): string {
  if (typeof text !== "string")
    throw new InvalidInputError("text", `fingerprintPrompt expects the composed prompt string, got ${typeof text}.`);
  return sha256Hex(text);
}
