/**
 * The feature vector of a request segment for the calibrated estimators: the character classes
 * of the text the provider sees (text-features.ts) plus structural counts (messages, tool
 * definitions, tool calls, …) that stand for the framing each provider adds. An estimate is the
 * dot product of a segment's features with a provider's fitted coefficients (coefficients.ts).
 */
import type { JsonValue } from "../messages/types.ts";
import { addTextFeatures, TEXT_FEATURES } from "./text-features.ts";

/** Structural features, after the text features in a vector. */
export const STRUCT_FEATURES = [
  /** One per message (its header segment). */
  "messages",
  /** Messages with a participant `name`. */
  "names",
  /** Content blocks of any type. */
  "blocks",
  /** Tool definitions. */
  "tools",
  /** Tool calls in the history. */
  "toolCalls",
  /** Tool results in the history. */
  "toolResults",
  /** Thinking / reasoning blocks sent back. */
  "thinking",
  /** Characters of thinking text sent back (providers keep or drop it by their own rules). */
  "thinkingChars",
  /**
   * Characters of opaque reasoning state sent back: thinking signatures, Gemini `thoughtSignature`,
   * OpenAI `encrypted_content`. Some providers restore the reasoning it encodes into the prompt.
   */
  "signatureChars",
  /** Image, document, file and audio blocks (their own cost comes from the media rules). */
  "media",
  /** Response schemas (structured output) in the request options. */
  "schemas",
  /**
   * Characters of those schemas' JSON, kept apart from the text classes: providers differ in
   * whether and how they show a schema to the model (Gemini bills none of it).
   */
  "schemaChars",
  /**
   * 1 when the request turns on extended thinking (Anthropic `thinking`, Gemini
   * `thinkingConfig`, OpenAI `reasoning` / `reasoning_effort`): some providers add instructions.
   */
  "reasoning",
  /** 1 when the request defines any tool (the provider's tool-use preamble). */
  "toolsPresent",
  /** Tokens of the tool-use system prompt the provider documents for the model (Anthropic), when tools are defined. */
  "toolPreamble",
  /** 1 per request: the fixed framing of a request. */
  "requests",
] as const;

/**
 * Character classes of tool definitions, kept apart from other text: no provider shows the model
 * the JSON Schema as sent (OpenAI renders TypeScript types, Gemini its own compact form), so
 * their cost per character differs from prose.
 */
export const TOOL_TEXT_FEATURES = TEXT_FEATURES.map((f) => `tool.${f}` as const);
export type ToolTextFeature = (typeof TOOL_TEXT_FEATURES)[number];

export const FEATURES = [...TEXT_FEATURES, ...TOOL_TEXT_FEATURES, ...STRUCT_FEATURES] as const;
export type FeatureName = (typeof FEATURES)[number];
export const FEATURE_COUNT = FEATURES.length;

/** Index of each feature in a vector. */
export const FI = Object.fromEntries(FEATURES.map((name, i) => [name, i])) as { readonly [K in FeatureName]: number };

export type FeatureVector = Float64Array;
export const emptyFeatures = (): FeatureVector => new Float64Array(FEATURE_COUNT);

/** Adds `value` to feature `name` of `v`. */
export const bump = (v: FeatureVector, name: FeatureName, value = 1): void => {
  v[FI[name]] = v[FI[name]]! + value;
};

/** Adds the character classes of `text`: to the text features, or to the tool-definition ones. */
export const addText = (v: FeatureVector, text: string, channel: "text" | "tool" = "text"): void => {
  addTextFeatures(text, v, channel === "tool" ? TEXT_FEATURES.length : 0);
};

/** Compact JSON of a value (as providers receive caller JSON); a string stays itself. */
export const jsonText = (value: JsonValue | undefined): string =>
  value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

/** Dot product of a feature vector with coefficients in `FEATURES` order. */
export function dot(v: FeatureVector, coefficients: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < FEATURE_COUNT; i++) s += v[i]! * (coefficients[i] ?? 0);
  return s;
}
