/** Public types of `countRequestTokens`. */
import type { MediaCost } from "./media.ts";

/**
 * Whose billing to predict. `bedrock` is Amazon Bedrock Converse with a Claude model: Claude's
 * tokenizer, Converse's own framing (fitted separately), Anthropic's prompt order.
 */
export const TOKEN_PROVIDERS = ["openai", "anthropic", "gemini", "bedrock"] as const;
export type TokenProvider = (typeof TOKEN_PROVIDERS)[number];

/** The wire format the request is sent in; only OpenAI's two formats frame messages differently. */
export type TokenFormat = "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "bedrock-converse";

/**
 * An exact tokenizer (`createOpenAITokenizer` from `prompt-strata/tokenizers/openai`). Counts
 * plain text: special-token strings such as `<|endoftext|>` in it are counted as the text they
 * are, as the provider does with message content.
 */
export interface Tokenizer {
  readonly kind: "strata-tokenizer";
  /** The provider whose requests it counts exactly. */
  readonly provider: "openai";
  /** The encoding it loaded, e.g. `o200k_base`. */
  readonly encoding: string;
  /** Tokens of `text` (a whole number ≥ 0). */
  count(text: string): number;
}

export interface CountTokensOptions {
  readonly provider: TokenProvider;
  /** Model id; default `request.model.model`. Picks the encoding, the framing variant and the media rules. */
  readonly model?: string;
  /** Default: from `provider` (OpenAI: Responses when the request came from a Responses body, else Chat). */
  readonly format?: TokenFormat;
  /** An OpenAI tokenizer makes OpenAI counts exact (`method: "exact"`) where the framing is known. */
  readonly tokenizer?: Tokenizer;
}

/** How one segment's tokens were found. */
export type CountMethod = "exact" | "estimate";

/**
 * The tokens of one segment, aligned with `segmentRequest(request, { provider }).segments`:
 * same `index`, same `path`. Framing the provider adds around a message, a tool definition or a
 * tool call is attributed to the segment that carries it (a message's role and separators to its
 * header segment, a tool result's wrapper to its block), so a prefix sum over segments is the
 * number of tokens the provider has read up to that point.
 */
export interface SegmentTokens {
  readonly index: number;
  readonly path: string;
  readonly kind: "tool" | "tool_choice" | "message" | "block";
  /** Tokens of this segment, framing included (a whole number; may be 0). */
  readonly tokens: number;
  readonly method: CountMethod;
  /** The media costs inside `tokens`: an image, document, file or audio block, or images in a tool result. */
  readonly media: readonly MediaCost[];
}

/** Something the count could not do exactly, with the path it concerns (`""` for the request). */
export interface TokenNote {
  readonly code:
    | "media_size_unknown"
    | "media_not_counted"
    | "server_tool"
    | "framing_estimated"
    | "unknown_model"
    | "tokenizer_mismatch";
  readonly path: string;
  readonly message: string;
}

export interface TokenCount {
  /** Predicted input tokens as billed (for Anthropic and Bedrock: input + cache reads + cache writes). */
  readonly total: number;
  /** `exact` only when every part was counted by a tokenizer under known framing rules. */
  readonly method: CountMethod;
  /**
   * The band the true count falls in for about 9 requests in 10 (measured on the held-out half of
   * the calibration corpus for estimates; the media formulas' own ranges added on top). For an
   * exact count `low === high === total`.
   */
  readonly low: number;
  readonly high: number;
  /** Tokens the provider adds before the first segment (fixed per-request framing, a response schema). */
  readonly leading: number;
  /** Per segment, in prompt order: `total === leading + Σ perSegment[i].tokens + trailing`. */
  readonly perSegment: readonly SegmentTokens[];
  /** Tokens after the last segment (OpenAI primes the reply with 2–3 tokens). Never cacheable. */
  readonly trailing: number;
  readonly provider: TokenProvider;
  readonly model: string;
  readonly format: TokenFormat;
  /** The tokenizer encoding used, or null for an estimate without one. */
  readonly encoding: string | null;
  readonly notes: readonly TokenNote[];
}
