/**
 * What a media block costs: images by their pixel size (read from the header of inline data)
 * under the provider's formula, PDFs by their page count, plain-text documents as text. Anything
 * whose cost cannot be known here (an image by URL, an audio clip, an unknown file type) gets
 * the provider's documented default or none, always with a note saying so.
 */
import type { ContentBlock } from "../messages/types.ts";
import { base64Payload, imageSizeFromBase64 } from "./image-size.ts";
import { resolutionOf } from "./segment-content.ts";
import {
  type ImageDetail,
  imageTokens,
  type MediaProvider,
  type MediaResolution,
  type MediaTokenRule,
  selectMediaRule,
  unknownImageTokens,
} from "./media-rules.ts";

export { resolutionOf } from "./segment-content.ts";

/** How a media block was costed. */
export interface MediaCost {
  readonly kind: "image" | "pdf" | "audio" | "video" | "file";
  /** Predicted tokens (the point value). */
  readonly tokens: number;
  readonly low: number;
  readonly high: number;
  /** Image size read from the data, when it was. */
  readonly width: number | null;
  readonly height: number | null;
  /** PDF pages found in the data, when counted. */
  readonly pages: number | null;
  /** `MEDIA_TOKEN_RULES` row used, or null when no rule applies. */
  readonly rule: string | null;
  /** Why the cost is a default or zero; null when it was computed from the data. */
  readonly note: string | null;
  /** The text of a plain-text document, counted as text by the caller (not part of `tokens`). */
  readonly text: string | null;
}

export type MediaBlock = Extract<ContentBlock, { type: "image" | "audio" | "file" | "document" }>;

/** What one media block costs, with the request's Gemini media resolution (if any): `mediaCost` bound to one rule. */
export type MediaCoster = (b: MediaBlock, resolution: MediaResolution | undefined) => MediaCost;

/** The coster for `provider` and `model`: the first matching `MEDIA_TOKEN_RULES` row. */
export function mediaCoster(provider: MediaProvider, model: string): MediaCoster {
  const rule = selectMediaRule(provider, model);
  return (b, resolution) => mediaCost(b, rule, provider, resolution);
}

const fieldsOf = (b: { readonly providerFields?: ContentBlock["providerFields"] }) => b.providerFields ?? {};

/** OpenAI `detail` of an image block (Chat `image_url.detail`, Responses `detail`). */
function detailOf(b: MediaBlock): ImageDetail | undefined {
  const pf = fieldsOf(b);
  const d = pf["openai-chat"]?.detail ?? pf["openai-responses"]?.detail ?? pf.openai?.detail;
  return d === "low" || d === "high" || d === "auto" || d === "original" ? d : undefined;
}

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
B64[45] = 62;
B64[95] = 63;

/** Decodes base64 to bytes (invalid characters skipped). Linear; allocates the decoded size. */
export function decodeBase64(data: string): Uint8Array {
  const s = base64Payload(data);
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64[c]! : -1;
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

const startsWith = (bytes: Uint8Array, ascii: string) => {
  for (let i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
  return true;
};

/**
 * Pages of a PDF: the number of `/Type /Page` objects (not `/Pages`) in its bytes, or, when page
 * objects are hidden in compressed object streams, the largest `/Count` of a page tree. Null
 * when neither is found. Linear in the size.
 */
export function pdfPageCount(bytes: Uint8Array): number | null {
  let pages = 0;
  let maxCount = 0;
  const n = bytes.length;
  for (let i = 0; i + 5 < n; i++) {
    if (bytes[i] !== 0x2f) continue; // "/"
    if (bytes[i + 1] === 0x54 && bytes[i + 2] === 0x79 && bytes[i + 3] === 0x70 && bytes[i + 4] === 0x65) {
      // "/Type", optional whitespace, "/Page" not followed by "s"
      let k = i + 5;
      while (k < n && (bytes[k] === 0x20 || bytes[k] === 0x0a || bytes[k] === 0x0d || bytes[k] === 0x09)) k++;
      if (
        bytes[k] === 0x2f &&
        bytes[k + 1] === 0x50 &&
        bytes[k + 2] === 0x61 &&
        bytes[k + 3] === 0x67 &&
        bytes[k + 4] === 0x65 &&
        bytes[k + 5] !== 0x73
      )
        pages++;
    } else if (bytes[i + 1] === 0x43 && bytes[i + 2] === 0x6f && bytes[i + 3] === 0x75 && bytes[i + 4] === 0x6e) {
      // "/Count" N
      let k = i + 6;
      while (k < n && bytes[k] === 0x20) k++;
      let v = 0;
      let digits = 0;
      while (k < n && bytes[k]! >= 0x30 && bytes[k]! <= 0x39 && digits < 7) {
        v = v * 10 + (bytes[k]! - 0x30);
        k++;
        digits++;
      }
      if (digits > 0 && v > maxCount) maxCount = v;
    }
  }
  if (pages > 0) return pages;
  return maxCount > 0 ? maxCount : null;
}

const cost = (c: Partial<MediaCost> & Pick<MediaCost, "kind" | "tokens" | "low" | "high">): MediaCost => ({
  width: null,
  height: null,
  pages: null,
  rule: null,
  note: null,
  text: null,
  ...c,
});

/** The first 64 base64 characters of inline data (after a `data:` URL's comma). */
const payloadHead = (data: string) => {
  const start = data.startsWith("data:") ? data.indexOf(",") + 1 : 0;
  return data.slice(start, start + 64);
};

const isPdfMime = (mime: string | undefined) => mime === "application/pdf";
const isTextMime = (mime: string | undefined) =>
  mime !== undefined && (mime.startsWith("text/") || mime === "application/json");

function imageCost(
  b: MediaBlock,
  rule: MediaTokenRule,
  provider: MediaProvider,
  resolution: MediaResolution | undefined,
): MediaCost {
  const options = { ...(detailOf(b) ? { detail: detailOf(b)! } : {}), ...(resolution ? { resolution } : {}) };
  const inline = b.data ?? (b.url?.startsWith("data:") ? b.url : undefined);
  const size = inline === undefined ? undefined : imageSizeFromBase64(inline);
  if (rule.image.kind === "resolution") {
    // The budget is a ceiling: the corpus shows 1,088–1,102 of 1,120 as the aspect ratio rounds.
    const t = imageTokens(rule.image, 1, 1, options);
    const dims = size?.ok ? { width: size.width, height: size.height } : {};
    return cost({ kind: "image", tokens: t, low: Math.floor(t * 0.95), high: t, rule: rule.id, ...dims });
  }
  if (size !== undefined) {
    if (size.ok) {
      const t = imageTokens(rule.image, size.width, size.height, options);
      // Anthropic documents the per-pixel rule as approximate; Gemini 2.0's rule is observed.
      const slack = provider === "anthropic" || provider === "bedrock" ? Math.ceil(t * 0.05) : 0;
      const observed = rule.image.kind === "gemini-tiles" && rule.image.tile === 0 && t > rule.image.perTile;
      return cost({
        kind: "image",
        tokens: t,
        low: observed ? rule.image.perTile : t - slack,
        high: observed ? 13 * rule.image.perTile : t + slack,
        width: size.width,
        height: size.height,
        rule: rule.id,
      });
    }
    const u = unknownImageTokens(rule.image, options);
    return cost({
      kind: "image",
      ...u,
      rule: rule.id,
      note: `The image size could not be read (${size.reason}): assumed a large 4:3 photo scaled to the provider's limits.`,
    });
  }
  const u = unknownImageTokens(rule.image, options);
  return cost({
    kind: "image",
    ...u,
    rule: rule.id,
    note: "An image by URL has no size Strata can read: assumed a large 4:3 photo scaled to the provider's limits.",
  });
}

function pdfCost(b: MediaBlock, rule: MediaTokenRule, resolution: MediaResolution | undefined): MediaCost {
  const page = rule.pdfPage;
  const perPage = page.levels && resolution ? page.levels[resolution] : page.perPage;
  const low = page.levels && resolution ? perPage : page.low;
  const high = page.levels && resolution ? perPage : page.high;
  const inline = b.data ?? (b.url?.startsWith("data:") ? b.url : undefined);
  const pages = inline === undefined ? null : pdfPageCount(decodeBase64(inline));
  if (pages === null)
    return cost({
      kind: "pdf",
      tokens: perPage,
      low,
      high: high * 10,
      rule: rule.id,
      note:
        inline === undefined
          ? "A PDF by URL or file id has no page count Strata can read: assumed 1 page (the band allows 10)."
          : "No page count found in the PDF: assumed 1 page (the band allows 10).",
    });
  return cost({ kind: "pdf", tokens: pages * perPage, low: pages * low, high: pages * high, pages, rule: rule.id });
}

/** The decoded text of a base64 plain-text document. */
function decodedText(data: string): string {
  return new TextDecoder().decode(decodeBase64(data));
}

/**
 * The cost of one image, audio, file or document block under `rule` (the provider's row).
 * `resolution` is the Gemini media resolution the request asks for, if any.
 */
export function mediaCost(
  b: MediaBlock,
  rule: MediaTokenRule,
  provider: MediaProvider,
  resolution: MediaResolution | undefined,
): MediaCost {
  const partResolution = resolutionOf(fieldsOf(b).gemini?.mediaResolution ?? fieldsOf(b).gemini?.media_resolution);
  const res = partResolution ?? resolution;
  const mime = b.mimeType;
  if (b.type === "image" || mime?.startsWith("image/")) return imageCost(b, rule, provider, res);
  if (b.type === "document" && b.text !== undefined)
    return cost({ kind: "file", tokens: 0, low: 0, high: 0, text: b.text });
  const inline = b.data ?? (b.url?.startsWith("data:") ? b.url : undefined);
  const name = b.type === "file" || b.type === "document" ? (b.name ?? "") : "";
  const pdf =
    isPdfMime(mime) ||
    name.toLowerCase().endsWith(".pdf") ||
    (inline !== undefined && startsWith(decodeBase64(payloadHead(inline)), "%PDF"));
  if (b.type !== "audio" && pdf) return pdfCost(b, rule, res);
  if (b.type !== "audio" && isTextMime(mime) && inline !== undefined)
    return cost({ kind: "file", tokens: 0, low: 0, high: 0, text: decodedText(inline) });
  const kind =
    b.type === "audio" || mime?.startsWith("audio/") ? "audio" : mime?.startsWith("video/") ? "video" : "file";
  return cost({
    kind,
    tokens: 0,
    low: 0,
    high: 0,
    note: `A ${kind} block is not counted: ${provider} bills it by a rule Strata does not model (duration or file contents).`,
  });
}
