/**
 * prompt-strata/tokenizers/openai: OpenAI's tokenizer for exact counts, a separate entry so the
 * core never pulls in its rank tables (o200k_base is ~1 MB min+gzip, cl100k_base ~0.4 MB).
 *
 *   const tokenizer = await createOpenAITokenizer("gpt-4o");
 *   countRequestTokens(request, { provider: "openai", tokenizer });
 *
 * Wraps gpt-tokenizer 4.0.0 (pure JavaScript, no WASM; identical counts to tiktoken). Only the
 * model's encoding is loaded, by a dynamic import a bundler splits into its own chunk.
 */
import { openaiEncoding, type OpenAIEncodingName } from "../../tokens/model-info.ts";
import type { Tokenizer } from "../../tokens/types.ts";

export type { OpenAIEncodingName } from "../../tokens/model-info.ts";

/** An exact OpenAI tokenizer: `count` treats special-token strings (`<|endoftext|>`) as text. */
export interface OpenAITokenizer extends Tokenizer {
  readonly provider: "openai";
  readonly encoding: OpenAIEncodingName;
}

type CountFn = (text: string, options: { disallowedSpecial: Set<string> }) => number;

const loaders: Record<OpenAIEncodingName, () => Promise<{ countTokens: CountFn }>> = {
  o200k_base: () => import("gpt-tokenizer/encoding/o200k_base") as Promise<{ countTokens: CountFn }>,
  cl100k_base: () => import("gpt-tokenizer/encoding/cl100k_base") as Promise<{ countTokens: CountFn }>,
};

const loaded = new Map<OpenAIEncodingName, Promise<OpenAITokenizer>>();

// Message content is plain text to OpenAI: `<|endoftext|>` typed by a user is not a control token.
// An empty set of disallowed special tokens makes the encoder treat such strings as text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The tokenizer of an encoding (loaded once per encoding and shared). */
export function loadOpenAIEncoding(encoding: OpenAIEncodingName): Promise<OpenAITokenizer> {
  let t = loaded.get(encoding);
  if (t === undefined) {
    t = loaders[encoding]().then(
      ({ countTokens }): OpenAITokenizer =>
        Object.freeze({
          kind: "strata-tokenizer",
          provider: "openai",
          encoding,
          count: (text: string) => countTokens(text, PLAIN_TEXT),
        }),
    );
    loaded.set(encoding, t);
  }
  return t;
}

/**
 * The exact tokenizer for an OpenAI model: o200k_base for GPT-4o, GPT-4.1, GPT-4.5, GPT-5.x and
 * the o-series; cl100k_base for GPT-3.5 and GPT-4. Resolves once its encoding has loaded.
 */
export function createOpenAITokenizer(model: string): Promise<OpenAITokenizer> {
  return loadOpenAIEncoding(openaiEncoding(model));
}

export { openaiEncoding };
