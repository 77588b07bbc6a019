/**
 * prompt-strata/tokenizers/openai: OpenAI's tokenizer for exact counts, a separate entry so the
 * core never pulls in its rank tables (o200k_base is ~1 MB min+gzip, cl100k_base ~0.4 MB).
 *
 *   const tokenizer = await createOpenAITokenizer("gpt-4o");
 *   countRequestTokens(request, { provider: "openai", tokenizer });
 *
 * Wraps gpt-tokenizer 4.0.0 (pure JavaScript, no WASM; identical counts to tiktoken), counting
 * with its byte-pair ranks but splitting text with a hand-written pre-tokenizer, several times
 * faster than its regex and with the same pieces. Only the model's encoding is loaded, by a
 * dynamic import a bundler splits into its own chunk.
 */
import { openaiEncoding, type OpenAIEncodingName } from "../../tokens/model-info.ts";
import { keepsItsCounts } from "../../tokens/tokenizer-memo.ts";
import type { Tokenizer } from "../../tokens/types.ts";
import type { AsciiWords, PieceEnd } from "./piece-counter.ts";

export type { OpenAIEncodingName } from "../../tokens/model-info.ts";

/** An exact OpenAI tokenizer: `count` treats special-token strings (`<|endoftext|>`) as text. */
export interface OpenAITokenizer extends Tokenizer {
  readonly provider: "openai";
  readonly encoding: OpenAIEncodingName;
}

type CountFn = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// Message content is plain text to OpenAI: `<|endoftext|>` typed by a user is not a control token.
// An empty set of disallowed special tokens makes the encoder treat such strings as text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/*
 * gpt-tokenizer counts a text as the sum, over the matches of the encoding's split regex, of each
 * match's byte-pair count. Running that regex is most of its time, so the pieces come from a
 * hand-written pre-tokenizer giving the very same matches (split-o200k.ts, split-cl100k.ts), and
 * each piece's count from gpt-tokenizer's own `countTokens` on the piece alone, remembered.
 *
 * That count is the piece's count in the text because the regex matches a piece alone as one
 * piece. An alternative without lookaround reads nothing past what it consumes, so on the piece
 * alone it tries the same ways in the same order and each succeeds exactly where it did in the
 * text, if it stays within the piece: those that failed at the piece's start still fail, and the
 * one that matched still matches all of it first. The lookarounds (`\s+(?!\S)`, cl100k_base's
 * `\s+$`) can succeed sooner at the piece's end, but only on a piece of spaces, and then take all
 * of it. No alternative matches an empty string, so nothing follows. The tests check it too.
 */
async function counter(
  encoding: Promise<{ countTokens: CountFn }>,
  split: Promise<PieceEnd>,
  asciiWords: AsciiWords,
): Promise<(text: string) => number> {
  const [{ countTokens }, pieceEnd, { pieceCounter }] = await Promise.all([
    encoding,
    split,
    import("./piece-counter.ts"),
  ]);
  return pieceCounter(pieceEnd, (piece) => countTokens(piece, PLAIN_TEXT), undefined, asciiWords);
}

// The pre-tokenizers load with the rank tables, each in a chunk of its own (no cost on import).
const loaders: Record<OpenAIEncodingName, () => Promise<(text: string) => number>> = {
  o200k_base: () =>
    counter(
      import("gpt-tokenizer/encoding/o200k_base") as Promise<{ countTokens: CountFn }>,
      import("./split-o200k.ts").then((m) => m.o200kPieceEnd),
      "cased",
    ),
  cl100k_base: () =>
    counter(
      import("gpt-tokenizer/encoding/cl100k_base") as Promise<{ countTokens: CountFn }>,
      import("./split-cl100k.ts").then((m) => m.cl100kPieceEnd),
      "any",
    ),
};

const loaded = new Map<OpenAIEncodingName, Promise<OpenAITokenizer>>();

/** The tokenizer of an encoding (loaded once per encoding and shared). */
export function loadOpenAIEncoding(encoding: OpenAIEncodingName): Promise<OpenAITokenizer> {
  let t = loaded.get(encoding);
  if (t === undefined) {
    t = loaders[encoding]().then((count): OpenAITokenizer => {
      const tokenizer: OpenAITokenizer = Object.freeze({
        kind: "strata-tokenizer",
        provider: "openai",
        encoding,
        count,
      });
      // Its piece counter remembers every piece: a memo of whole texts in front of it only costs.
      keepsItsCounts(tokenizer);
      return tokenizer;
    });
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
