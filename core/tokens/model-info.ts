/**
 * What the counter needs to know about a model id: the OpenAI encoding and whether the model is
 * a reasoning model (its framing differs by one token).
 * Ids are compared lowercased, without a vendor path (`models/`, `openai/`), a Bedrock region
 * prefix (`us.`, `eu.`, …) or `anthropic.`, and without a Vertex `@date`.
 *
 * Encodings per model: OpenAI's model pages and tiktoken's model map (as collected in the
 * model table, 2026-12): cl100k_base for GPT-3.5 and GPT-4 (incl. -turbo), o200k_base for
 * GPT-4o, GPT-4.1, GPT-4.5, GPT-5.x and the o-series.
 */
import { matchGlob } from "../util/glob.ts";

export type OpenAIEncodingName = "o200k_base" | "cl100k_base";

/** `models/gemini-2.5-flash`, `us.anthropic.claude-sonnet-4-5-v1:0`, `claude-3-5-sonnet@20240620` → the bare id. */
export function bareModel(model: string): string {
  let id = model.toLowerCase();
  const slash = id.lastIndexOf("/");
  if (slash >= 0) id = id.slice(slash + 1);
  id = id.replace(/^(?:us|eu|apac|au|jp|us-gov|global)\./, "").replace(/^anthropic\./, "");
  return id.replace("@", "-");
}

const CL100K = ["gpt-3.5*", "gpt-4", "gpt-4-*", "gpt-35*", "text-embedding-ada*", "text-embedding-3*"];

/** The tiktoken encoding of an OpenAI model id: cl100k_base for GPT-3.5/GPT-4, else o200k_base. */
export function openaiEncoding(model: string): OpenAIEncodingName {
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
