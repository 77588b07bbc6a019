/**
 * A `CountKit` filled on demand: the media rules are loaded (by `import()`) only for a request
 * with media, the exact OpenAI counter only with a tokenizer. For async callers (inspect, its next
 * turns) that want a text-only request to load neither; `countRequestTokens` loads both up front.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import type { CountKit } from "./count-kit.ts";
import { requestHasMedia } from "./segment-content.ts";

/** An empty kit, to be completed with `completeCountKit` before each request is counted. */
export const lazyCountKit = (): CountKit => ({ media: null, exact: null });

/** Loads into `kit` what counting `request` needs that it lacks (see the file comment). */
export async function completeCountKit(
  kit: CountKit,
  request: ProviderRequest | NormalizedRequest,
  tokenizer: boolean,
): Promise<void> {
  const k = kit as { -readonly [K in keyof CountKit]: CountKit[K] };
  if (k.media === null && requestHasMedia(request)) k.media = (await import("./media.ts")).mediaCoster;
  if (k.exact === null && tokenizer) k.exact = (await import("./count-exact.ts")).exactCount;
}
