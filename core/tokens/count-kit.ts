/**
 * The counter's optional parts: `CountKit` and `FULL_COUNT_KIT` (the media rules and the exact
 * OpenAI counter), as `countRequestTokens` counts with. A caller that loads the parts on demand
 * (inspect) builds its own kit for `countTokensWith`.
 */
import { exactCount } from "./count-exact.ts";
import { type MediaCoster, mediaCoster } from "./media.ts";
import type { MediaProvider } from "./media-rules.ts";

/**
 * The parts of the counter that only some requests need, passed in so that a caller that knows
 * its request (`requestHasMedia`, a tokenizer or not) can leave them unloaded: `countRequestTokens`
 * passes both.
 */
export interface CountKit {
  /** `mediaCoster` (media.ts); null when the request has no media (`requestHasMedia` is false). */
  readonly media: ((provider: MediaProvider, model: string) => MediaCoster) | null;
  /** The exact OpenAI counter; null when no tokenizer is given. */
  readonly exact: typeof exactCount | null;
}

/** Every optional part: what `countRequestTokens` counts with. */
export const FULL_COUNT_KIT: CountKit = { media: mediaCoster, exact: exactCount };
