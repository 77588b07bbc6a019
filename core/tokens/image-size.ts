/**
 * Width and height of a base64 PNG, JPEG, GIF or WebP image, read from its header bytes without
 * decoding the image. Base64 is random access (every 4 characters hold 3 bytes), so only the
 * bytes a header needs are decoded: a fixed 30 bytes for PNG, GIF and WebP; for JPEG the two
 * bytes of each segment marker and length on the way to the frame header (at most
 * `MAX_JPEG_SEGMENTS` of them). Nothing here is proportional to the image size except
 * stripping whitespace from data that has line breaks.
 */

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

export type ImageSize =
  | { readonly ok: true; readonly format: ImageFormat; readonly width: number; readonly height: number }
  | { readonly ok: false; readonly reason: string };

/** JPEG segments walked before giving up on finding the frame header. */
export const MAX_JPEG_SEGMENTS = 512;

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
B64["-".charCodeAt(0)] = 62; // base64url
B64["_".charCodeAt(0)] = 63;

/** Byte reader over base64 text; `at(k)` is -1 past the end or on an invalid character. */
class Base64Bytes {
  readonly length: number;
  private readonly text: string;
  constructor(text: string) {
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 61) end--; // "=" padding
    this.text = text;
    this.length = Math.floor((end * 3) / 4);
  }
  at(k: number): number {
    if (k < 0 || k >= this.length) return -1;
    const g = Math.floor(k / 3) * 4;
    const a = this.sextet(g);
    const b = this.sextet(g + 1);
    if (a < 0 || b < 0) return -1;
    const r = k % 3;
    if (r === 0) return (a << 2) | (b >> 4);
    const c = this.sextet(g + 2);
    if (c < 0) return -1;
    if (r === 1) return ((b & 15) << 4) | (c >> 2);
    const d = this.sextet(g + 3);
    if (d < 0) return -1;
    return ((c & 3) << 6) | d;
  }
  private sextet(i: number): number {
    const c = this.text.charCodeAt(i);
    return c < 128 ? B64[c]! : -1;
  }
  u16be(k: number): number {
    const a = this.at(k);
    const b = this.at(k + 1);
    return a < 0 || b < 0 ? -1 : (a << 8) | b;
  }
  u16le(k: number): number {
    const a = this.at(k);
    const b = this.at(k + 1);
    return a < 0 || b < 0 ? -1 : a | (b << 8);
  }
  u24le(k: number): number {
    const a = this.u16le(k);
    const b = this.at(k + 2);
    return a < 0 || b < 0 ? -1 : a | (b << 16);
  }
  u32be(k: number): number {
    const a = this.u16be(k);
    const b = this.u16be(k + 2);
    return a < 0 || b < 0 ? -1 : a * 65536 + b;
  }
  ascii(k: number, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) {
      const c = this.at(k + i);
      if (c < 0) return "";
      s += String.fromCharCode(c);
    }
    return s;
  }
}

/** The base64 payload of `data`: a data URL's part after the comma, whitespace removed. */
export function base64Payload(data: string): string {
  let s = data;
  if (s.startsWith("data:")) {
    const comma = s.indexOf(",");
    s = comma < 0 ? "" : s.slice(comma + 1);
  }
  return /\s/.test(s) ? s.replace(/\s+/g, "") : s;
}

const bad = (reason: string): ImageSize => ({ ok: false, reason });
const size = (format: ImageFormat, width: number, height: number): ImageSize =>
  width > 0 && height > 0
    ? { ok: true, format, width, height }
    : bad(`its ${format} header gives a zero or unreadable size`);

function png(r: Base64Bytes): ImageSize {
  if (r.ascii(12, 4) !== "IHDR") return bad("its PNG header has no IHDR chunk first");
  return size("png", r.u32be(16), r.u32be(20));
}

function gif(r: Base64Bytes): ImageSize {
  return size("gif", r.u16le(6), r.u16le(8));
}

function webp(r: Base64Bytes): ImageSize {
  const chunk = r.ascii(12, 4);
  if (chunk === "VP8 ") {
    if (r.at(23) !== 0x9d || r.at(24) !== 0x01 || r.at(25) !== 0x2a) return bad("its WebP VP8 frame has no start code");
    return size("webp", r.u16le(26) & 0x3fff, r.u16le(28) & 0x3fff);
  }
  if (chunk === "VP8L") {
    if (r.at(20) !== 0x2f) return bad("its WebP VP8L header has no signature");
    const b0 = r.at(21);
    const b1 = r.at(22);
    const b2 = r.at(23);
    const b3 = r.at(24);
    if (b0 < 0 || b1 < 0 || b2 < 0 || b3 < 0) return bad("its WebP VP8L header is cut short");
    const width = 1 + (((b1 & 0x3f) << 8) | b0);
    const height = 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6));
    return size("webp", width, height);
  }
  if (chunk === "VP8X") {
    const w = r.u24le(24);
    const h = r.u24le(27);
    return w < 0 || h < 0 ? bad("its WebP VP8X header is cut short") : size("webp", w + 1, h + 1);
  }
  return bad(`its WebP data starts with an unknown chunk ${JSON.stringify(chunk)}`);
}

function jpeg(r: Base64Bytes): ImageSize {
  let k = 2;
  for (let seen = 0; seen < MAX_JPEG_SEGMENTS; seen++) {
    // Skip fill bytes, then read the marker.
    while (r.at(k) === 0xff && r.at(k + 1) === 0xff) k++;
    if (r.at(k) !== 0xff) return bad("its JPEG segments are corrupt (no marker where one should be)");
    const marker = r.at(k + 1);
    if (marker < 0) return bad("its JPEG data ends before the frame header");
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      k += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return bad("its JPEG data has no frame header before the image data");
    const length = r.u16be(k + 2);
    if (length < 2) return bad("its JPEG data ends inside a segment header");
    // SOF0–SOF15 hold the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return size("jpeg", r.u16be(k + 7), r.u16be(k + 5));
    k += 2 + length;
  }
  return bad(`no JPEG frame header in its first ${MAX_JPEG_SEGMENTS} segments`);
}

/**
 * The pixel size of a base64 image (`data` may be a `data:` URL). PNG, JPEG, GIF and WebP are
 * read from their headers; anything else, or a header that does not parse, gives
 * `{ ok: false, reason }` and the caller falls back to the provider's documented default.
 */
export function imageSizeFromBase64(data: string): ImageSize {
  const r = new Base64Bytes(base64Payload(data));
  const b0 = r.at(0);
  const b1 = r.at(1);
  if (b0 < 0 || b1 < 0) return bad("its data is empty or not base64");
  if (b0 === 0x89 && r.ascii(1, 3) === "PNG") return png(r);
  if (b0 === 0xff && b1 === 0xd8) return jpeg(r);
  const sig = r.ascii(0, 6);
  if (sig === "GIF87a" || sig === "GIF89a") return gif(r);
  if (sig.startsWith("RIFF") && r.ascii(8, 4) === "WEBP") return webp(r);
  return bad("its data is not a PNG, JPEG, GIF or WebP image");
}
