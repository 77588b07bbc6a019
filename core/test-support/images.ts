/**
 * Tiny images of a chosen size, valid up to the bytes a header reader needs (PNG with a correct
 * IHDR CRC and IEND, baseline JPEG with JFIF and EXIF-like segments before the frame header, GIF,
 * and the three WebP flavours). For tests of image sizes and image token counts.
 */
const bytesToBase64 = (bytes: readonly number[]): string => btoa(String.fromCharCode(...bytes));
const u16be = (n: number) => [(n >> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >> 8) & 255];
const u24le = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
const u32be = (n: number) => [(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
const u32le = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function crc32(bytes: readonly number[]): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

const chunk = (type: string, data: readonly number[]) => {
  const body = [...ascii(type), ...data];
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
};

export function pngBase64(width: number, height: number): string {
  const ihdr = [...u32be(width), ...u32be(height), 8, 2, 0, 0, 0];
  return bytesToBase64([0x89, ...ascii("PNG\r\n\x1a\n"), ...chunk("IHDR", ihdr), ...chunk("IEND", [])]);
}

export function jpegBase64(width: number, height: number): string {
  const app0 = [0xff, 0xe0, ...u16be(16), ...ascii("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const app1 = [0xff, 0xe1, ...u16be(2 + 40), ...new Array<number>(40).fill(0x45)];
  const dqt = [0xff, 0xdb, ...u16be(2 + 65), 0, ...new Array<number>(64).fill(1)];
  const sof0 = [0xff, 0xc0, ...u16be(17), 8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return bytesToBase64([0xff, 0xd8, ...app0, ...app1, ...dqt, 0xff, ...sof0, 0xff, 0xd9]);
}

export function gifBase64(width: number, height: number): string {
  return bytesToBase64([...ascii("GIF89a"), ...u16le(width), ...u16le(height), 0, 0, 0, 0x3b]);
}

export function webpBase64(width: number, height: number, flavour: "VP8" | "VP8L" | "VP8X" = "VP8"): string {
  let payload: number[];
  if (flavour === "VP8") {
    const frame = [0x9d, 0x01, 0x2a, ...u16le(width & 0x3fff), ...u16le(height & 0x3fff)];
    payload = [...ascii("VP8 "), ...u32le(10 + frame.length - 3), 0x10, 0x02, 0x00, ...frame];
  } else if (flavour === "VP8L") {
    const w = width - 1;
    const h = height - 1;
    const bits = [w & 0xff, ((w >> 8) & 0x3f) | ((h & 0x03) << 6), (h >> 2) & 0xff, (h >> 10) & 0x0f];
    payload = [...ascii("VP8L"), ...u32le(5), 0x2f, ...bits];
  } else {
    payload = [...ascii("VP8X"), ...u32le(10), 0, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)];
  }
  return bytesToBase64([...ascii("RIFF"), ...u32le(4 + payload.length), ...ascii("WEBP"), ...payload]);
}

/** A one-page PDF (uncompressed objects), base64. */
export function pdfBase64(pages = 1): string {
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(" ");
  const pageObjects = Array.from(
    { length: pages },
    (_, i) => `${3 + i} 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n`,
  ).join("");
  const text = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj\n${pageObjects}trailer << /Root 1 0 R >>\n%%EOF\n`;
  return btoa(text);
}
