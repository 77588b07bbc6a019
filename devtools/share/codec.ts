/**
 * Text ⇄ URL-safe string: UTF-8 → deflate-raw (web-standard CompressionStream) → base64url.
 * Decoding caps the inflated size, so a tiny link cannot expand into gigabytes.
 */

/** Inflated share payloads above this are refused (a 50 MB paste still fits). */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export class ShareDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ShareDecodeError";
  }
}

async function pump(
  input: Uint8Array,
  stream: CompressionStream | DecompressionStream,
  cap: number,
): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  // Errors surface on the read side; don't let the write promise reject unhandled.
  writer.write(input as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => {});
      throw new ShareDecodeError(`The shared data inflates to more than ${cap} bytes: refused.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text))
    throw new ShareDecodeError("The link's data is not base64url: it was probably cut off or edited.");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  let binary: string;
  try {
    binary = atob(b64);
  } catch (cause) {
    throw new ShareDecodeError("The link's data is not valid base64url.", { cause });
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export async function compressText(text: string): Promise<string> {
  const deflated = await pump(
    new TextEncoder().encode(text),
    new CompressionStream("deflate-raw"),
    Number.POSITIVE_INFINITY,
  );
  return toBase64Url(deflated);
}

export async function decompressText(encoded: string, cap = MAX_INFLATED_BYTES): Promise<string> {
  const bytes = fromBase64Url(encoded);
  let inflated: Uint8Array;
  try {
    inflated = await pump(bytes, new DecompressionStream("deflate-raw"), cap);
  } catch (cause) {
    if (cause instanceof ShareDecodeError) throw cause;
    throw new ShareDecodeError("The link's data does not inflate: it was probably cut off.", { cause });
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(inflated);
  } catch (cause) {
    throw new ShareDecodeError("The link's data is not UTF-8 text.", { cause });
  }
}
