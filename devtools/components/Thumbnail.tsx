import type { NormalizedRequest } from "../../core/formats/index.ts";
import type { ContentBlock } from "../../core/index.ts";

/** Raster types a browser draws in an `<img>`; SVG is left out (text, and not needed for a preview). */
const RASTER = /^image\/(png|jpeg|gif|webp|bmp|avif)$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DATA_URL = /^data:(image\/[a-z+.-]+);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * A `data:` URL for an image block that carries its bytes (base64 `data`, or a `data:` URL), or
 * null: remote URLs are never loaded (the page makes no request that leaves it).
 */
export function thumbnailSrc(block: ContentBlock): string | null {
  if (block.type !== "image") return null;
  if (block.data !== undefined) {
    const mime = block.mimeType ?? "";
    return RASTER.test(mime) && BASE64.test(block.data) ? `data:${mime};base64,${block.data}` : null;
  }
  const m = block.url === undefined ? null : DATA_URL.exec(block.url);
  return m && RASTER.test(m[1]!) ? block.url! : null;
}

const BLOCK_PATH = /^messages\[(\d+)\]\.content\[(\d+)\]$/;

/** The block a segment path names (`messages[3].content[1]`), or undefined. */
export function blockAt(request: NormalizedRequest | null, path: string): ContentBlock | undefined {
  const m = BLOCK_PATH.exec(path);
  return m ? request?.messages[Number(m[1])]?.content[Number(m[2])] : undefined;
}

/** A small preview of an inline image; nothing for anything else. */
export function Thumbnail({ block, size = 20 }: { readonly block: ContentBlock | undefined; readonly size?: number }) {
  const src = block ? thumbnailSrc(block) : null;
  if (!src) return null;
  return (
    <img
      className="thumb"
      data-testid="image-thumbnail"
      src={src}
      alt=""
      height={size}
      style={{ maxHeight: size, maxWidth: size * 3 }}
      loading="lazy"
      decoding="async"
    />
  );
}

export interface RequestImage {
  readonly path: string;
  readonly block: ContentBlock;
}

/** Found once per request: the Raw view asks again on each switch to it (37,000 messages: ~10 ms). */
const imagesOf = new WeakMap<NormalizedRequest, readonly RequestImage[]>();

/** The first `limit` inline images of a request with their paths, for the Raw view. */
export function requestImages(
  request: NormalizedRequest | null,
  limit = Number.POSITIVE_INFINITY,
): readonly RequestImage[] {
  if (request === null) return [];
  let all = imagesOf.get(request);
  if (all === undefined) {
    const found: RequestImage[] = [];
    const messages = request.messages;
    for (let i = 0; i < messages.length; i++) {
      const content = messages[i]!.content;
      for (let j = 0; j < content.length; j++)
        if (thumbnailSrc(content[j]!)) found.push({ path: `messages[${i}].content[${j}]`, block: content[j]! });
    }
    imagesOf.set(request, (all = found));
  }
  return all.length > limit ? all.slice(0, limit) : all;
}
