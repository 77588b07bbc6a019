/**
 * What the counter needs to know about a model id: the OpenAI encoding and whether the model is
 * a reasoning model (its framing differs by one token).
 * Ids are compared lowercased, without a vendor path (`models/`, `openai/`), a Bedrock region
 * prefix (`us.`, `eu.`, …) or `anthropic.`, and without a Vertex `@date`.
 *
 * Encodings per model come from the model table (formats/models.ts): cl100k_base for GPT-3.5
 * and GPT-4 (incl. -turbo), o200k_base for GPT-4o, GPT-4.1, GPT-4.5, GPT-5.x and the o-series.
 */
import { findModel, normalizeModelId } from "../formats/models.ts";
import { matchGlob } from "../util/glob.ts";

export type OpenAIEncodingName = "o200k_base" | "cl100k_base";

/** `models/gemini-2.5-flash`, `us.anthropic.claude-sonnet-4-5-v1:0`, `claude-3-5-sonnet@20240620` → the bare id. */
export const bareModel = (model: string): string => normalizeModelId(model);

/** Model ids of the cl100k_base generation, for ids the model table does not list. */
const CL100K = ["gpt-3.5*", "gpt-4", "gpt-4-*", "gpt-35*", "text-embedding-ada*", "text-embedding-3*"];

/** Longest id looked up in the model table (its suggestions for unknown ids cost id length × patterns). */
const MAX_LOOKUP = 200;

/**
 * The tiktoken encoding of an OpenAI model id: the model table's `tokenizer` when it lists the id,
 * else cl100k_base for the GPT-3.5/GPT-4 generation and o200k_base for everything newer.
 */
export function openaiEncoding(model: string): OpenAIEncodingName {
  if (model.length <= MAX_LOOKUP) {
    const found = findModel(model, "openai");
    if (found.row?.tokenizer) return found.row.tokenizer;
  }
  const id = bareModel(model);
  return CL100K.some((p) => matchGlob(p, id)) ? "cl100k_base" : "o200k_base";
}

/**
 * Reasoning models (o1, o3, o4, GPT-5.x except the `-chat` variants). On the calibration corpus
 * their prompt counts are one token below GPT-4o's for the same messages, in Chat Completions
 * and Responses alike: the reply is primed with 2 tokens instead of 3.
 */
export function isOpenAIReasoningModel(model: string): boolean {
  const id = bareModel(model);
  return (/^o\d/.test(id) || id.startsWith("gpt-5") || id.startsWith("computer-use")) && !id.includes("chat");
}

/**
 * Gemini 3 and later restore the reasoning a returned `thoughtSignature` encodes and bill it
 * (about 0.2 tokens per signature character on the calibration corpus); Gemini 2.x bills none.
 */
export function geminiBillsThoughtSignatures(model: string): boolean {
  const m = /gemini-(\d+)/.exec(bareModel(model));
  return m !== null && Number(m[1]) >= 3;
}

/**
 * The calibrated estimators: one per provider, plus Gemini 1.x/2.0, whose tool definitions cost
 * far less than Gemini 2.5's and 3's on the calibration corpus.
 */
export const ESTIMATORS = ["openai", "anthropic", "gemini", "gemini-2.0", "bedrock"] as const;
export type EstimatorId = (typeof ESTIMATORS)[number];

/** The estimator for a provider and model. */
export function estimatorFor(provider: "openai" | "anthropic" | "gemini" | "bedrock", model: string): EstimatorId {
  if (provider !== "gemini") return provider;
  const id = bareModel(model);
  return /^gemini-(1\.|2\.0)/.test(id) ? "gemini-2.0" : "gemini";
}
