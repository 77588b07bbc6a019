/**
 * `MODEL_TABLE`: provider model facts as dated, sourced data rows, one per model family: context
 * window, maximum output, prompt-cache minimum, OpenAI tokenizer, prices, the Anthropic export
 * default for `max_tokens`, and Bedrock ids. Collected from provider docs on 2026-12-01; every row
 * names its sources (keys of `MODEL_SOURCES`), and where sources disagree the row's `notes` say so
 * and which value the row uses.
 *
 * `findModel` resolves a model id as providers, gateways and clouds spell it to its row.
 */
import { InvalidInputError } from "../util/errors.ts";
import { matchGlob } from "../util/glob.ts";

/** The day the table was checked against its sources. */
export const MODEL_TABLE_DATE = "2026-12-01";

export const MODEL_PROVIDERS = ["openai", "anthropic", "gemini"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** `legacy`: still served, superseded; `deprecated`: a shutdown is announced; `retired`: shut down (at least on the provider's own API). */
export type ModelStatus = "active" | "preview" | "legacy" | "deprecated" | "retired";

export interface ModelSource {
  readonly title: string;
  readonly url: string;
  /** When the source was published or read: `YYYY-MM` or `YYYY-MM-DD`. */
  readonly date: string;
}

/** Prices for a request whose input exceeds `aboveInputTokens`: they apply to the whole request. */
export interface LongContextPrices {
  readonly aboveInputTokens: number;
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite5m?: number;
  readonly cacheWrite1h?: number;
  readonly cacheWrite?: number;
}

/** USD per 1M tokens at the standard tier (no batch, priority or flex discount, no data residency). */
export interface ModelPrices {
  readonly input: number;
  readonly output: number;
  /** Cached input (a cache hit); null when the model has no cache discount. */
  readonly cacheRead: number | null;
  /** Anthropic: a 5-minute cache write. */
  readonly cacheWrite5m?: number;
  /** Anthropic: a 1-hour cache write. */
  readonly cacheWrite1h?: number;
  /** OpenAI GPT-5.6 and later: cache writes are billed above the input price. */
  readonly cacheWrite?: number;
  /** Gemini: an implicit cache hit (same price as an explicit hit, no storage fee). */
  readonly implicitCacheRead?: number;
  /** Gemini: explicit cache storage, per 1M tokens per hour. */
  readonly cacheStoragePerHour?: number;
  /** Gemini: audio input and its cache hit, where they differ from text. */
  readonly inputAudio?: number;
  readonly cacheReadAudio?: number;
  readonly longContext?: LongContextPrices;
}

export interface ModelRow {
  readonly id: string;
  readonly provider: ModelProvider;
  /** Display name. */
  readonly family: string;
  /** Globs over the normalized id (`*` = any run, lower case); the first matching row of the table wins. */
  readonly patterns: readonly string[];
  /** Ids the patterns would catch that belong to another model. */
  readonly notPatterns?: readonly string[];
  readonly status: ModelStatus;
  readonly contextWindow: number;
  /** A larger window behind a beta flag (Anthropic 1M-context beta). */
  readonly contextWindowBeta?: number;
  readonly maxOutputTokens: number;
  /** Smallest prompt the provider caches; null when the model has no prompt caching. */
  readonly cacheMinTokens: number | null;
  /** OpenAI rows only; Claude and Gemini have their own tokenizers and no public encoder. */
  readonly tokenizer: "o200k_base" | "cl100k_base" | null;
  readonly prices: ModelPrices;
  /**
   * `max_tokens` to write when a request exported to Anthropic has none: min(maxOutputTokens,
   * ANTHROPIC_EXPORT_MAX_TOKENS). For a Claude row this is the default for that model; for an
   * OpenAI or Gemini row it is what the source request allowed, still to be capped by the target
   * Claude model's own row.
   */
  readonly exportMaxTokens: number;
  /** Non-streaming cap of the Anthropic SDK on Bedrock and Vertex, where lower than `exportMaxTokens`. */
  readonly exportMaxTokensBedrockVertex?: number;
  /** Claude rows: AWS Bedrock model and inference-profile ids as the sources write them. */
  readonly bedrockIds?: readonly string[];
  readonly sources: readonly ModelSourceId[];
  /** Caveats and conflicts between sources ("Conflict: …" says which value the row uses). */
  readonly notes: readonly string[];
}

/**
 * Anthropic's migration guide: "max_tokens > ~16000 → must stream on any model (above ~16K risks
 * SDK HTTP timeouts)"; the TypeScript SDK refuses a non-streaming request once
 * 60 min × max_tokens / 128,000 exceeds 10 min (max_tokens > 21,333). 16,000 is the largest value
 * that is safe without streaming on every model; an export that streams may use maxOutputTokens.
 * Anthropic's own examples use 1,024 and chatlas uses 4,096: both too small to stand for an
 * OpenAI or Gemini request that set no limit.
 */
export const ANTHROPIC_EXPORT_MAX_TOKENS = 16_000;

export const MODEL_SOURCES = {
  "oai-pricing": {
    title:
      "OpenAI API pricing (values via an api-evangelist copy of 2026-11-06, cross-checked with pydantic/genai-prices openai.yml @47df840)",
    url: "https://developers.openai.com/api/docs/pricing",
    date: "2026-11-05",
  },
  "oai-models": {
    title: "OpenAI model pages (machine copy in gpt-tokenizer@4.0.0 src/models.gen.ts)",
    url: "https://developers.openai.com/api/docs/models",
    date: "2026-08-16",
  },
  "oai-caching": {
    title: "OpenAI docs, Prompt caching guide",
    url: "https://platform.openai.com/docs/guides/prompt-caching",
    date: "2026-11",
  },
  "oai-images": {
    title: "OpenAI docs, Images and vision guide (lists deprecated models; mentions gpt-5.6)",
    url: "https://developers.openai.com/api/docs/guides/images-vision",
    date: "2026-12-01",
  },
  "gpt-tokenizer-map": {
    title: "gpt-tokenizer@4.0.0 src/modelsMap.ts (model → encoding; unlisted models default to o200k_base)",
    url: "https://github.com/niieani/gpt-tokenizer/blob/main/src/modelsMap.ts",
    date: "2026-08-16",
  },
  "genai-prices": {
    title: "pydantic/genai-prices provider price files @47df840 (per-row prices_checked dates)",
    url: "https://github.com/pydantic/genai-prices/tree/main/prices/providers",
    date: "2026-08-21",
  },
  "ant-pricing": {
    title: "Anthropic docs, Pricing (copy that lists Claude Opus 5)",
    url: "https://platform.claude.com/docs/en/about-claude/pricing",
    date: "2026-12-01",
  },
  "ant-model-pages": {
    title: "Anthropic model overview pages (opus-4-6, sonnet-4-6, sonnet-4-5, opus-4-5)",
    url: "https://platform.claude.com/docs/en/models/",
    date: "2026-12-01",
  },
  "ant-overview-es": {
    title: "Anthropic docs, Models overview (Spanish; comparison table with Bedrock and Vertex ids, Opus 4.6 era)",
    url: "https://platform.claude.com/docs/es/about-claude/models",
    date: "2026-03",
  },
  "ant-catalog": {
    title: "Anthropic claude-api skill model catalog, as shipped in Claude Code 2.1.219 (third-party mirror)",
    url: "https://github.com/Piebald-AI/claude-code-system-prompts/blob/main/system-prompts/data-claude-model-catalog.md",
    date: "2026-07-24",
  },
  "ant-migration": {
    title: "Anthropic model migration guide skill text (third-party mirror): streaming above ~16K max_tokens",
    url: "https://github.com/Piebald-AI/claude-code-system-prompts/blob/main/system-prompts/skill-model-migration-guide.md",
    date: "2026-08-22",
  },
  "ant-caching": {
    title: "Anthropic docs, Prompt caching",
    url: "https://platform.claude.com/docs/en/build-with-claude/prompt-caching",
    date: "2026-11",
  },
  "ant-sdk": {
    title:
      "anthropic-sdk-typescript @bfa9197: calculateNonstreamingTimeout (src/client.ts), MODEL_NONSTREAMING_TOKENS (src/internal/constants.ts)",
    url: "https://github.com/anthropics/anthropic-sdk-typescript/blob/main/src/client.ts",
    date: "2026-08-19",
  },
  "aws-genai-prices": {
    title: "pydantic/genai-prices aws.yml (from the AWS Bedrock pricing page)",
    url: "https://github.com/pydantic/genai-prices/blob/main/prices/providers/aws.yml",
    date: "2026-08-21",
  },
  "bedrock-usage": {
    title: 'Public code calling Bedrock with "us.anthropic.claude-sonnet-4-6" and "global.anthropic.claude-sonnet-4-6"',
    url: "https://github.com/search?q=%22anthropic.claude-sonnet-4-6%22&type=code",
    date: "2026-12-01",
  },
  "gem-pricing": {
    title:
      "Gemini API pricing (values via genai-prices google.yml, cross-checked with morphllm.com/gemini-api-pricing)",
    url: "https://ai.google.dev/gemini-api/docs/pricing",
    date: "2026-08-13",
  },
  "gem-models": {
    title: "Gemini API model pages (gemini-2.0-flash, gemini-3.1-pro-preview)",
    url: "https://ai.google.dev/gemini-api/docs/models",
    date: "2026-12-01",
  },
  "vertex-models": {
    title: "Google Cloud Gemini model pages (2-0-flash, 3-flash; mention the 2026-06-01 shutdown)",
    url: "https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/",
    date: "2026-12-01",
  },
  "gem-caching": {
    title: "Gemini API docs, Context caching",
    url: "https://ai.google.dev/gemini-api/docs/caching",
    date: "2026-11",
  },
} as const satisfies Record<string, ModelSource>;

export type ModelSourceId = keyof typeof MODEL_SOURCES;

type RowInput = Omit<ModelRow, "provider" | "tokenizer" | "exportMaxTokens" | "notes"> & {
  readonly notes?: readonly string[];
};

const exportMax = (maxOutputTokens: number) => Math.min(maxOutputTokens, ANTHROPIC_EXPORT_MAX_TOKENS);

function openai(tokenizer: "o200k_base" | "cl100k_base", row: RowInput): ModelRow {
  return {
    ...row,
    provider: "openai",
    tokenizer,
    exportMaxTokens: exportMax(row.maxOutputTokens),
    notes: row.notes ?? [],
  };
}

function claude(row: RowInput): ModelRow {
  return {
    ...row,
    provider: "anthropic",
    tokenizer: null,
    exportMaxTokens: exportMax(row.maxOutputTokens),
    // Every Claude row's export default rests on the streaming guidance and the SDK's timeout rule.
    sources: [...row.sources, "ant-migration", "ant-sdk"],
    notes: row.notes ?? [],
  };
}

function gemini(row: RowInput): ModelRow {
  return {
    ...row,
    provider: "gemini",
    tokenizer: null,
    exportMaxTokens: exportMax(row.maxOutputTokens),
    notes: row.notes ?? [],
  };
}

const GPT_TOKENIZER_PRICES =
  "Conflict: gpt-tokenizer@4.0.0 models.gen.ts prices this model wrongly (a generator error); the row uses the pricing page.";
const DEPRECATED_PER_IMAGES_GUIDE = 'The images guide marks it "deprecated and scheduled for shutdown".';
const GPT_56_WRITES =
  "Cache writes are billed at 1.25× input (usage.input_tokens_details.cache_write_tokens), from GPT-5.6 on (genai-prices; coder/mux issue #3705, 2026-07-09).";
const BEDROCK_REGIONAL = "Bedrock regional profiles and regional ids cost 10% more than global. (aws.yml)";

/**
 * Table order matters: `findModel` takes the first row whose pattern matches, so specific rows
 * come before general ones (gpt-4o-mini before gpt-4o, Sonnet 4.6 and 4.5 before Sonnet 4).
 */
export const MODEL_TABLE: readonly ModelRow[] = [
  // OpenAI: every model from gpt-4o on uses o200k_base; gpt-3.5 and gpt-4 (Turbo) use cl100k_base.
  openai("cl100k_base", {
    id: "openai-gpt-3.5-turbo",
    family: "GPT-3.5 Turbo",
    patterns: ["gpt-3.5-turbo", "gpt-3.5-turbo-0125", "gpt-3.5-turbo-1106", "gpt-3.5-turbo-0613"],
    notPatterns: ["gpt-3.5-turbo-instruct*", "gpt-3.5-turbo-16k*"],
    status: "deprecated",
    contextWindow: 16_385,
    maxOutputTokens: 4096,
    cacheMinTokens: null,
    prices: { input: 0.5, output: 1.5, cacheRead: null },
    sources: ["oai-pricing", "oai-models", "gpt-tokenizer-map"],
    notes: [
      "Prices are for gpt-3.5-turbo-0125; -1106 was $1/$2 and -0613 $1.50/$2 (genai-prices). No prompt caching (it starts with gpt-4o).",
    ],
  }),
  openai("cl100k_base", {
    id: "openai-gpt-4-turbo",
    family: "GPT-4 Turbo",
    patterns: ["gpt-4-turbo*", "gpt-4-0125-preview", "gpt-4-1106-preview", "gpt-4-1106-vision-preview"],
    status: "deprecated",
    contextWindow: 128_000,
    maxOutputTokens: 4096,
    cacheMinTokens: null,
    prices: { input: 10, output: 30, cacheRead: null },
    sources: ["oai-pricing", "oai-models", "gpt-tokenizer-map"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-4o-mini",
    family: "GPT-4o mini",
    patterns: ["gpt-4o-mini", "gpt-4o-mini-2024-07-18"],
    status: "active",
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    cacheMinTokens: 1024,
    prices: { input: 0.15, output: 0.6, cacheRead: 0.075 },
    sources: ["oai-pricing", "oai-models", "oai-caching"],
    notes: ["gpt-4o-mini audio, realtime, search, transcribe and tts variants have other prices and are not tabled."],
  }),
  openai("o200k_base", {
    id: "openai-gpt-4o-2024-05-13",
    family: "GPT-4o (first snapshot)",
    patterns: ["gpt-4o-2024-05-13"],
    status: "active",
    contextWindow: 128_000,
    maxOutputTokens: 4096,
    cacheMinTokens: null,
    prices: { input: 5, output: 15, cacheRead: null },
    sources: ["oai-pricing", "oai-models"],
    notes: ['No cached-input price for this snapshot (the pricing page shows "-").'],
  }),
  openai("o200k_base", {
    id: "openai-gpt-4o",
    family: "GPT-4o",
    patterns: ["gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20"],
    status: "active",
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    cacheMinTokens: 1024,
    prices: { input: 2.5, output: 10, cacheRead: 1.25 },
    sources: ["oai-pricing", "oai-models", "oai-caching"],
    notes: ["chatgpt-4o-latest ($5/$15, no cache discount) is a separate id and not tabled.", GPT_TOKENIZER_PRICES],
  }),
  openai("o200k_base", {
    id: "openai-gpt-4.1-mini",
    family: "GPT-4.1 mini",
    patterns: ["gpt-4.1-mini", "gpt-4.1-mini-2025-04-14"],
    status: "active",
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    cacheMinTokens: 1024,
    prices: { input: 0.4, output: 1.6, cacheRead: 0.1 },
    sources: ["oai-pricing", "oai-models", "oai-caching"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-4.1-nano",
    family: "GPT-4.1 nano",
    patterns: ["gpt-4.1-nano", "gpt-4.1-nano-2025-04-14"],
    status: "deprecated",
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    cacheMinTokens: 1024,
    prices: { input: 0.1, output: 0.4, cacheRead: 0.025 },
    sources: ["oai-pricing", "oai-models", "oai-caching", "oai-images"],
    notes: [DEPRECATED_PER_IMAGES_GUIDE],
  }),
  openai("o200k_base", {
    id: "openai-gpt-4.1",
    family: "GPT-4.1",
    patterns: ["gpt-4.1", "gpt-4.1-2025-04-14"],
    status: "active",
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    cacheMinTokens: 1024,
    prices: { input: 2, output: 8, cacheRead: 0.5 },
    sources: ["oai-pricing", "oai-models", "oai-caching"],
    notes: [
      GPT_TOKENIZER_PRICES,
      "Conflict: genai-prices gives a 1,000,000 context window; the row uses the model page's 1,047,576.",
    ],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5-chat",
    family: "GPT-5 / 5.1 chat-latest",
    patterns: ["gpt-5-chat-latest", "gpt-5.1-chat-latest"],
    status: "active",
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    cacheMinTokens: 1024,
    prices: { input: 1.25, output: 10, cacheRead: 0.125 },
    sources: ["oai-models", "genai-prices"],
    notes: [
      "Priced like gpt-5 and gpt-5.1, with a smaller window and output (model pages). Kept before the gpt-5 rows.",
      "gpt-5.2-chat-latest and gpt-5.3-chat-latest (128k / 16,384, priced like gpt-5.2) are not tabled.",
    ],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5-mini",
    family: "GPT-5 mini",
    patterns: ["gpt-5-mini", "gpt-5-mini-2025-08-07"],
    status: "deprecated",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 0.25, output: 2, cacheRead: 0.025 },
    sources: ["oai-pricing", "oai-models", "oai-caching", "oai-images"],
    notes: [DEPRECATED_PER_IMAGES_GUIDE],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5-nano",
    family: "GPT-5 nano",
    patterns: ["gpt-5-nano", "gpt-5-nano-2025-08-07"],
    status: "deprecated",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 0.05, output: 0.4, cacheRead: 0.005 },
    sources: ["oai-pricing", "oai-models", "oai-caching", "oai-images"],
    notes: [DEPRECATED_PER_IMAGES_GUIDE],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5",
    family: "GPT-5",
    patterns: ["gpt-5", "gpt-5-2025-08-07", "gpt-5-codex"],
    status: "deprecated",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 1.25, output: 10, cacheRead: 0.125 },
    sources: ["oai-pricing", "oai-models", "oai-caching", "oai-images"],
    notes: [
      DEPRECATED_PER_IMAGES_GUIDE,
      "gpt-5-pro ($15/$120, 272k max output, no cache discount) is not tabled.",
      GPT_TOKENIZER_PRICES,
    ],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.1",
    family: "GPT-5.1",
    patterns: ["gpt-5.1", "gpt-5.1-2025-11-13", "gpt-5.1-codex", "gpt-5.1-codex-max"],
    status: "active",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 1.25, output: 10, cacheRead: 0.125 },
    sources: ["oai-pricing", "oai-models", "genai-prices"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.2",
    family: "GPT-5.2",
    patterns: ["gpt-5.2", "gpt-5.2-2025-12-11", "gpt-5.2-codex"],
    status: "active",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 1.75, output: 14, cacheRead: 0.175 },
    sources: ["oai-pricing", "oai-models", "genai-prices"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.4-mini",
    family: "GPT-5.4 mini",
    patterns: ["gpt-5.4-mini", "gpt-5.4-mini-2026-03-17"],
    status: "active",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 0.75, output: 4.5, cacheRead: 0.075 },
    sources: ["oai-pricing", "oai-models", "genai-prices"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.4-nano",
    family: "GPT-5.4 nano",
    patterns: ["gpt-5.4-nano", "gpt-5.4-nano-2026-03-17"],
    status: "active",
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 0.2, output: 1.25, cacheRead: 0.02 },
    sources: ["oai-pricing", "oai-models", "genai-prices"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.4",
    family: "GPT-5.4",
    patterns: ["gpt-5.4", "gpt-5.4-2026-03-05"],
    status: "active",
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: {
      input: 2.5,
      output: 15,
      cacheRead: 0.25,
      longContext: { aboveInputTokens: 272_000, input: 5, output: 22.5, cacheRead: 0.5 },
    },
    sources: ["oai-pricing", "oai-models", "genai-prices"],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.5",
    family: "GPT-5.5",
    patterns: ["gpt-5.5", "gpt-5.5-2026-04-23"],
    status: "active",
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 5, output: 30, cacheRead: 0.5 },
    sources: ["oai-pricing", "oai-models", "genai-prices"],
    notes: [
      "Conflict: genai-prices records no >272k tier although the window is 1.05M like gpt-5.4, which has one; the row has none.",
      "Conflict: genai-prices gives a 1,000,000 context window; the row uses the model page's 1,050,000.",
    ],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.6-sol",
    family: "GPT-5.6 Sol (also gpt-5.6)",
    patterns: ["gpt-5.6", "gpt-5.6-sol*"],
    status: "active",
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: {
      input: 5,
      output: 30,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      longContext: { aboveInputTokens: 272_000, input: 10, output: 45, cacheRead: 1, cacheWrite: 12.5 },
    },
    sources: ["genai-prices", "oai-models"],
    notes: [GPT_56_WRITES, "Resellers list other prices for this id (e.g. $4/$20); they are not used."],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.6-terra",
    family: "GPT-5.6 Terra",
    patterns: ["gpt-5.6-terra*"],
    status: "active",
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: {
      input: 2,
      output: 12,
      cacheRead: 0.2,
      cacheWrite: 2.5,
      longContext: { aboveInputTokens: 272_000, input: 4, output: 18, cacheRead: 0.4, cacheWrite: 5 },
    },
    sources: ["genai-prices"],
    notes: [GPT_56_WRITES, "Prices from 2026-07-30; before that $2.50/$15 (read $0.25, write $3.125)."],
  }),
  openai("o200k_base", {
    id: "openai-gpt-5.6-luna",
    family: "GPT-5.6 Luna",
    patterns: ["gpt-5.6-luna*"],
    status: "active",
    contextWindow: 1_050_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: {
      input: 0.2,
      output: 1.2,
      cacheRead: 0.02,
      cacheWrite: 0.25,
      longContext: { aboveInputTokens: 272_000, input: 0.4, output: 1.8, cacheRead: 0.04, cacheWrite: 0.5 },
    },
    sources: ["genai-prices"],
    notes: [GPT_56_WRITES, "Prices from 2026-07-30; before that $1/$6 (read $0.10, write $1.25)."],
  }),
  openai("o200k_base", {
    id: "openai-o1-mini",
    family: "o1-mini",
    patterns: ["o1-mini", "o1-mini-2024-09-12"],
    status: "deprecated",
    contextWindow: 128_000,
    maxOutputTokens: 65_536,
    cacheMinTokens: 1024,
    prices: { input: 1.1, output: 4.4, cacheRead: 0.55 },
    sources: ["oai-pricing", "oai-models"],
    notes: [GPT_TOKENIZER_PRICES],
  }),
  openai("o200k_base", {
    id: "openai-o1",
    family: "o1",
    patterns: ["o1", "o1-2024-12-17"],
    status: "deprecated",
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    cacheMinTokens: 1024,
    prices: { input: 15, output: 60, cacheRead: 7.5 },
    sources: ["oai-pricing", "oai-models"],
    notes: [
      "Conflict: genai-prices gives a 128,000 window (o1-preview's); the row uses the model page's 200,000 for o1-2024-12-17.",
      "o1-pro ($150/$600) is not tabled.",
    ],
  }),
  openai("o200k_base", {
    id: "openai-o1-preview",
    family: "o1-preview",
    patterns: ["o1-preview", "o1-preview-2024-09-12"],
    status: "deprecated",
    contextWindow: 128_000,
    maxOutputTokens: 32_768,
    cacheMinTokens: 1024,
    prices: { input: 15, output: 60, cacheRead: 7.5 },
    sources: ["oai-models", "genai-prices"],
  }),
  openai("o200k_base", {
    id: "openai-o3-mini",
    family: "o3-mini",
    patterns: ["o3-mini", "o3-mini-2025-01-31"],
    status: "deprecated",
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    cacheMinTokens: 1024,
    prices: { input: 1.1, output: 4.4, cacheRead: 0.55 },
    sources: ["oai-pricing", "oai-models"],
  }),
  openai("o200k_base", {
    id: "openai-o3",
    family: "o3",
    patterns: ["o3", "o3-2025-04-16"],
    status: "deprecated",
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    cacheMinTokens: 1024,
    prices: { input: 2, output: 8, cacheRead: 0.5 },
    sources: ["oai-pricing", "oai-models", "genai-prices", "oai-images"],
    notes: [
      DEPRECATED_PER_IMAGES_GUIDE,
      "Price cut on 2025-06-10; before: $10/$40, cached $2.50 (genai-prices records $0.50, which looks wrong).",
      "o3-pro ($20/$80) and o3-deep-research are not tabled.",
      GPT_TOKENIZER_PRICES,
    ],
  }),
  openai("o200k_base", {
    id: "openai-o4-mini",
    family: "o4-mini",
    patterns: ["o4-mini", "o4-mini-2025-04-16"],
    status: "deprecated",
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    cacheMinTokens: 1024,
    prices: { input: 1.1, output: 4.4, cacheRead: 0.275 },
    sources: ["oai-pricing", "oai-models", "oai-images"],
    notes: [DEPRECATED_PER_IMAGES_GUIDE],
  }),

  // Anthropic: dated ids are -YYYYMMDD; from the 4.6 generation on the ids carry no date.
  claude({
    id: "anthropic-haiku-3",
    family: "Claude Haiku 3",
    patterns: ["claude-3-haiku*"],
    status: "retired",
    contextWindow: 200_000,
    maxOutputTokens: 4096,
    cacheMinTokens: 2048,
    prices: { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite5m: 0.3, cacheWrite1h: 0.5 },
    bedrockIds: ["anthropic.claude-3-haiku-20240307-v1:0"],
    sources: ["ant-pricing", "ant-catalog", "ant-caching", "genai-prices"],
    notes: [
      "Cache prices are the listed $0.30 write (1.2×) and $0.03 read (0.12×), not the usual 1.25× and 0.1×.",
      'Conflict: the catalog (2026-07) still says "Deprecated, retires Apr 19, 2026", a date already past; the row says retired.',
    ],
  }),
  claude({
    id: "anthropic-haiku-3-5",
    family: "Claude Haiku 3.5",
    patterns: ["claude-3-5-haiku*"],
    status: "retired",
    contextWindow: 200_000,
    maxOutputTokens: 8192,
    cacheMinTokens: 2048,
    prices: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite5m: 1, cacheWrite1h: 1.6 },
    bedrockIds: ["anthropic.claude-3-5-haiku-20241022-v1:0"],
    sources: ["ant-pricing", "ant-catalog", "ant-caching", "genai-prices"],
    notes: ["Retired on 2026-02-19."],
  }),
  claude({
    id: "anthropic-sonnet-3-5",
    family: "Claude Sonnet 3.5",
    patterns: ["claude-3-5-sonnet*"],
    status: "retired",
    contextWindow: 200_000,
    maxOutputTokens: 8192,
    cacheMinTokens: 1024,
    prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6 },
    bedrockIds: ["anthropic.claude-3-5-sonnet-20240620-v1:0", "anthropic.claude-3-5-sonnet-20241022-v2:0"],
    sources: ["ant-catalog", "genai-prices", "ant-caching"],
    notes: ["Retired on 2025-10-28.", "The 20241022 Bedrock id ends in v2:0 (Vertex: claude-3-5-sonnet-v2@20241022)."],
  }),
  claude({
    id: "anthropic-sonnet-3-7",
    family: "Claude Sonnet 3.7",
    patterns: ["claude-3-7-sonnet*"],
    status: "retired",
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    cacheMinTokens: 1024,
    prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6 },
    bedrockIds: ["anthropic.claude-3-7-sonnet-20250219-v1:0"],
    sources: ["ant-pricing", "ant-catalog", "ant-caching"],
    notes: ["Retired on 2026-02-19.", "128k output with the beta header output-128k-2025-02-19."],
  }),
  claude({
    id: "anthropic-sonnet-4-6",
    family: "Claude Sonnet 4.6",
    patterns: ["claude-sonnet-4-6*"],
    status: "legacy",
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 1024,
    prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6 },
    bedrockIds: [
      "anthropic.claude-sonnet-4-6",
      "us.anthropic.claude-sonnet-4-6",
      "eu.anthropic.claude-sonnet-4-6",
      "global.anthropic.claude-sonnet-4-6",
    ],
    sources: ["ant-model-pages", "ant-catalog", "ant-pricing", "genai-prices", "bedrock-usage"],
    notes: [
      "Conflict: max output 128K on the current model page and in the catalog, 64K in launch-era tooling (perstack PR #801); the row uses 128K.",
      "Conflict: cache minimum 1,024 documented, 2,048 observed by users (CACHE_RULES keeps both); the row uses the documented value.",
      "Conflict: genai-prices writes the Bedrock id global.anthropic.claude-sonnet-4-6-v1:0, public code calls it without a suffix; findModel strips the suffix.",
      "Until 2026-03-13 prompts above 200k were billed $6 / $22.50 (read $0.60, write $7.50 / $12); the surcharge is gone.",
      BEDROCK_REGIONAL,
    ],
  }),
  claude({
    id: "anthropic-sonnet-4-5",
    family: "Claude Sonnet 4.5",
    patterns: ["claude-sonnet-4-5*"],
    status: "retired",
    contextWindow: 200_000,
    contextWindowBeta: 1_000_000,
    maxOutputTokens: 64_000,
    cacheMinTokens: 1024,
    prices: {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite5m: 3.75,
      cacheWrite1h: 6,
      longContext: {
        aboveInputTokens: 200_000,
        input: 6,
        output: 22.5,
        cacheRead: 0.6,
        cacheWrite5m: 7.5,
        cacheWrite1h: 12,
      },
    },
    bedrockIds: [
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ],
    sources: ["ant-model-pages", "ant-overview-es", "ant-pricing", "genai-prices", "aws-genai-prices"],
    notes: [
      "Retired on 2026-11-30 (model page).",
      "The long-context prices apply to the 1M-context beta only.",
      "Conflict: the model page gives a 200K window, genai-prices 1,000,000 (the beta window); the row uses 200K and keeps 1M as contextWindowBeta.",
      `${BEDROCK_REGIONAL}: $3.30/$16.50.`,
    ],
  }),
  claude({
    id: "anthropic-sonnet-4",
    family: "Claude Sonnet 4",
    // Not claude-sonnet-4*: that would also catch 4-5 and 4-6 if the table order changed.
    patterns: ["claude-sonnet-4-0*", "claude-sonnet-4-2025*", "claude-sonnet-4", "claude-4-sonnet*"],
    status: "deprecated",
    contextWindow: 200_000,
    contextWindowBeta: 1_000_000,
    maxOutputTokens: 64_000,
    cacheMinTokens: 1024,
    prices: {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite5m: 3.75,
      cacheWrite1h: 6,
      longContext: { aboveInputTokens: 200_000, input: 6, output: 22.5 },
    },
    bedrockIds: [
      "anthropic.claude-sonnet-4-20250514-v1:0",
      "us.anthropic.claude-sonnet-4-20250514-v1:0",
      "eu.anthropic.claude-sonnet-4-20250514-v1:0",
      "apac.anthropic.claude-sonnet-4-20250514-v1:0",
      "global.anthropic.claude-sonnet-4-20250514-v1:0",
    ],
    sources: ["ant-catalog", "ant-pricing", "genai-prices", "aws-genai-prices"],
    notes: [
      "The long-context prices apply to the 1M-context beta only; the sources give no long-context cache prices.",
    ],
  }),
  claude({
    id: "anthropic-haiku-4-5",
    family: "Claude Haiku 4.5",
    patterns: ["claude-haiku-4-5*"],
    status: "active",
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    cacheMinTokens: 4096,
    prices: { input: 1, output: 5, cacheRead: 0.1, cacheWrite5m: 1.25, cacheWrite1h: 2 },
    bedrockIds: [
      "anthropic.claude-haiku-4-5-20251001-v1:0",
      "us.anthropic.claude-haiku-4-5-20251001-v1:0",
      "eu.anthropic.claude-haiku-4-5-20251001-v1:0",
      "global.anthropic.claude-haiku-4-5-20251001-v1:0",
    ],
    sources: ["ant-overview-es", "ant-catalog", "ant-pricing", "ant-caching", "aws-genai-prices"],
    notes: [
      `${BEDROCK_REGIONAL}: $1.10/$5.50.`,
      "Conflict: a third-party page lists $0.80/$4 (Haiku 3.5's prices); the row uses the pricing page.",
    ],
  }),
  claude({
    id: "anthropic-opus-4-6",
    family: "Claude Opus 4.6",
    patterns: ["claude-opus-4-6*"],
    status: "legacy",
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    cacheMinTokens: 4096,
    prices: { input: 5, output: 25, cacheRead: 0.5, cacheWrite5m: 6.25, cacheWrite1h: 10 },
    bedrockIds: [
      "anthropic.claude-opus-4-6-v1",
      "anthropic.claude-opus-4-6-v1:0",
      "us.anthropic.claude-opus-4-6-v1",
      "global.anthropic.claude-opus-4-6-v1",
    ],
    sources: ["ant-model-pages", "ant-overview-es", "ant-catalog", "ant-pricing", "genai-prices", "aws-genai-prices"],
    notes: [
      "Until 2026-03-13 prompts above 200k were billed $10 / $37.50 (read $1, write $12.50 / $20); the surcharge is gone.",
      "Conflict: the Bedrock id is written with and without the :0 of -v1:0; findModel strips the suffix.",
      "Conflict: an Anthropic support article gives 1M, an older crate 200K by default with 1M opt-in; the row uses the model page's 1M.",
      BEDROCK_REGIONAL,
    ],
  }),
  claude({
    id: "anthropic-opus-4-5",
    family: "Claude Opus 4.5",
    patterns: ["claude-opus-4-5*"],
    status: "legacy",
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    cacheMinTokens: 4096,
    prices: { input: 5, output: 25, cacheRead: 0.5, cacheWrite5m: 6.25, cacheWrite1h: 10 },
    bedrockIds: [
      "anthropic.claude-opus-4-5-20251101-v1:0",
      "us.anthropic.claude-opus-4-5-20251101-v1:0",
      "global.anthropic.claude-opus-4-5-20251101-v1:0",
    ],
    sources: ["ant-model-pages", "ant-catalog", "ant-pricing", "ant-caching"],
    notes: [`${BEDROCK_REGIONAL}: $5.50/$27.50.`],
  }),
  claude({
    id: "anthropic-opus-4-1",
    family: "Claude Opus 4.1",
    patterns: ["claude-opus-4-1*"],
    status: "retired",
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    cacheMinTokens: 1024,
    prices: { input: 15, output: 75, cacheRead: 1.5, cacheWrite5m: 18.75, cacheWrite1h: 30 },
    exportMaxTokensBedrockVertex: 8192,
    bedrockIds: ["anthropic.claude-opus-4-1-20250805-v1:0", "us.anthropic.claude-opus-4-1-20250805-v1:0"],
    sources: ["ant-pricing", "ant-catalog", "genai-prices"],
    notes: ["Retired on the Claude API on 2026-08-05 (catalog); still served on Bedrock and Google Cloud."],
  }),
  claude({
    id: "anthropic-opus-4",
    family: "Claude Opus 4",
    // Not claude-opus-4*: that would also catch 4-1, 4-5 and 4-6 if the table order changed.
    patterns: ["claude-opus-4-0*", "claude-opus-4-2025*", "claude-opus-4", "claude-4-opus*"],
    status: "retired",
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    cacheMinTokens: 1024,
    prices: { input: 15, output: 75, cacheRead: 1.5, cacheWrite5m: 18.75, cacheWrite1h: 30 },
    exportMaxTokensBedrockVertex: 8192,
    bedrockIds: ["anthropic.claude-opus-4-20250514-v1:0", "us.anthropic.claude-opus-4-20250514-v1:0"],
    sources: ["ant-pricing", "ant-catalog", "genai-prices"],
    notes: [
      'Conflict: the pricing page says "retired, except on Google Cloud", the catalog (2026-07) "Deprecated, retires TBD"; the row follows the pricing page.',
    ],
  }),

  // Gemini: cache minimums are the implicit-caching minimums (2.5 and later); 1.5 and 2.0 have explicit caching only.
  gemini({
    id: "gemini-1.5-pro",
    family: "Gemini 1.5 Pro",
    patterns: ["gemini-1.5-pro*"],
    status: "retired",
    contextWindow: 2_097_152,
    maxOutputTokens: 8192,
    cacheMinTokens: 4096,
    prices: {
      input: 1.25,
      output: 5,
      cacheRead: 0.3125,
      cacheStoragePerHour: 4.5,
      longContext: { aboveInputTokens: 128_000, input: 2.5, output: 10, cacheRead: 0.625 },
    },
    sources: ["genai-prices", "gem-pricing", "gem-caching"],
    notes: [
      "Explicit caching only. Conflict: the 2024 caching docs gave a 32,768 minimum, the early-2025 docs 4,096 (both recalled, not re-read); the row uses the later 4,096.",
    ],
  }),
  gemini({
    id: "gemini-1.5-flash",
    family: "Gemini 1.5 Flash",
    patterns: ["gemini-1.5-flash*"],
    notPatterns: ["gemini-1.5-flash-8b*"],
    status: "retired",
    contextWindow: 1_048_576,
    maxOutputTokens: 8192,
    cacheMinTokens: 4096,
    prices: {
      input: 0.075,
      output: 0.3,
      cacheRead: 0.018_75,
      cacheStoragePerHour: 1,
      longContext: { aboveInputTokens: 128_000, input: 0.15, output: 0.6, cacheRead: 0.0375 },
    },
    sources: ["genai-prices", "gem-pricing", "gem-caching"],
    notes: [
      "Explicit caching only. Conflict: the 2024 caching docs gave a 32,768 minimum, the early-2025 docs 4,096 (both recalled, not re-read); the row uses the later 4,096.",
      "gemini-1.5-flash-8b has other prices and is not tabled.",
    ],
  }),
  gemini({
    id: "gemini-2.0-flash-lite",
    family: "Gemini 2.0 Flash-Lite",
    patterns: ["gemini-2.0-flash-lite*"],
    status: "retired",
    contextWindow: 1_048_576,
    maxOutputTokens: 8192,
    cacheMinTokens: null,
    prices: { input: 0.075, output: 0.3, cacheRead: null },
    sources: ["gem-models", "genai-prices", "vertex-models"],
    notes: ["Shut down on 2026-06-01 (Vertex page). No context caching."],
  }),
  gemini({
    id: "gemini-2.0-flash",
    family: "Gemini 2.0 Flash",
    patterns: ["gemini-2.0-flash", "gemini-2.0-flash-001", "gemini-2.0-flash-exp"],
    status: "retired",
    contextWindow: 1_048_576,
    maxOutputTokens: 8192,
    cacheMinTokens: 4096,
    prices: {
      input: 0.1,
      inputAudio: 0.7,
      output: 0.4,
      cacheRead: 0.025,
      cacheReadAudio: 0.175,
      cacheStoragePerHour: 1,
    },
    sources: ["gem-models", "genai-prices", "vertex-models"],
    notes: [
      "Shut down on 2026-06-01 (Vertex page; a third-party pricing page says the same for the Gemini API).",
      "Explicit caching only; the 4,096 minimum is from the early-2025 docs (recalled, not re-read).",
      "Conflict: max output 8,192 on the Gemini API model page, 65,536 on the Vertex page; the row uses the Gemini API's.",
    ],
  }),
  gemini({
    id: "gemini-2.5-flash-lite",
    family: "Gemini 2.5 Flash-Lite",
    patterns: ["gemini-2.5-flash-lite*"],
    status: "active",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 2048,
    prices: {
      input: 0.1,
      inputAudio: 0.3,
      output: 0.4,
      cacheRead: 0.01,
      cacheReadAudio: 0.03,
      implicitCacheRead: 0.01,
      cacheStoragePerHour: 1,
    },
    sources: ["genai-prices", "gem-pricing", "gem-caching"],
    notes: [
      "Conflict: cache reads were $0.025 (75% off) at launch, $0.01 (90% off) from late 2025; the row uses the current price.",
    ],
  }),
  gemini({
    id: "gemini-2.5-flash",
    family: "Gemini 2.5 Flash",
    patterns: ["gemini-2.5-flash", "gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash-latest"],
    status: "active",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 2048,
    prices: {
      input: 0.3,
      inputAudio: 1,
      output: 2.5,
      cacheRead: 0.03,
      cacheReadAudio: 0.1,
      implicitCacheRead: 0.03,
      cacheStoragePerHour: 1,
    },
    sources: ["genai-prices", "gem-pricing", "gem-caching"],
    notes: [
      "Conflict: cache reads were $0.075 at launch (75% off), $0.03 later (90% off); the row uses the current price.",
      "The 04-17 and 05-20 preview snapshots were $0.15/$0.60 ($3.50 thinking output) and are not matched.",
      "Conflict: implicit minimum 1,024 in earlier docs, 2,048 in the latest (CACHE_RULES keeps both); the row uses 2,048.",
    ],
  }),
  gemini({
    id: "gemini-2.5-pro",
    family: "Gemini 2.5 Pro",
    patterns: ["gemini-2.5-pro*"],
    status: "active",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 2048,
    prices: {
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
      implicitCacheRead: 0.125,
      cacheStoragePerHour: 4.5,
      longContext: { aboveInputTokens: 200_000, input: 2.5, output: 15, cacheRead: 0.25 },
    },
    sources: ["genai-prices", "gem-pricing", "gem-caching"],
    notes: [
      "Conflict: cache reads were $0.31 / $0.625 at launch, $0.125 / $0.25 later; the row uses the current prices.",
      "Conflict: implicit minimum 2,048 or 4,096 in earlier docs (CACHE_RULES keeps both); the row uses the latest 2,048.",
    ],
  }),
  gemini({
    id: "gemini-3-flash",
    family: "Gemini 3 Flash (preview)",
    patterns: ["gemini-3-flash*"],
    status: "preview",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 4096,
    prices: {
      input: 0.5,
      inputAudio: 1,
      output: 3,
      cacheRead: 0.05,
      cacheReadAudio: 0.1,
      implicitCacheRead: 0.05,
      cacheStoragePerHour: 1,
    },
    sources: ["genai-prices", "vertex-models", "gem-caching"],
  }),
  gemini({
    id: "gemini-3-pro",
    family: "Gemini 3 Pro / 3.1 Pro (preview)",
    patterns: ["gemini-3-pro-preview*", "gemini-3.1-pro-preview*"],
    status: "preview",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 4096,
    prices: {
      input: 2,
      output: 12,
      cacheRead: 0.2,
      implicitCacheRead: 0.2,
      cacheStoragePerHour: 4.5,
      longContext: { aboveInputTokens: 200_000, input: 4, output: 18, cacheRead: 0.4 },
    },
    sources: ["genai-prices", "gem-models", "gem-caching"],
  }),
  gemini({
    id: "gemini-3.1-flash-lite",
    family: "Gemini 3.1 Flash-Lite",
    patterns: ["gemini-3.1-flash-lite*"],
    status: "active",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 4096,
    prices: {
      input: 0.25,
      inputAudio: 0.5,
      output: 1.5,
      cacheRead: 0.025,
      cacheReadAudio: 0.05,
      implicitCacheRead: 0.025,
    },
    sources: ["genai-prices", "gem-caching"],
    notes: ["Max output assumed 65,536 like the other 3.x models; not checked on its model page."],
  }),
  gemini({
    id: "gemini-3.5-flash",
    family: "Gemini 3.5 Flash",
    patterns: ["gemini-3.5-flash", "gemini-3.5-flash-preview*"],
    status: "active",
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    cacheMinTokens: 4096,
    prices: { input: 1.5, output: 9, cacheRead: 0.15, implicitCacheRead: 0.15 },
    sources: ["genai-prices", "gem-caching"],
    notes: [
      "genai-prices checked the prices on 2026-05-19; the limits are not checked on a model page.",
      'Newer ids (3.6 to 3.8 Flash, Gemini 4 "carbon" and "argon") appear in late-2026 docs and are not tabled.',
    ],
  }),
];

const BEDROCK_REGION = /^(?:us-gov|us|eu|apac|au|jp|global)\./;
const BEDROCK_VERSION = /-v\d+(?::\d+)?$/;

/**
 * The id as the table's patterns spell it: lower case; the part after the last `/`
 * (`models/…`, `anthropic/…`, `openai/…`, `google/…`, Bedrock ARNs); without a Bedrock region
 * prefix (`us.`, `eu.`, `apac.`, `au.`, `jp.`, `us-gov.`, `global.`), then `anthropic.`, then a
 * `-v1:0` / `-v2:0` / `-v1` suffix; a Vertex `@date` as `-date`.
 */
export function normalizeModelId(modelId: string): string {
  let s = modelId.trim().toLowerCase();
  s = s.slice(s.lastIndexOf("/") + 1);
  s = s.replace(BEDROCK_REGION, "");
  if (s.startsWith("anthropic.")) s = s.slice("anthropic.".length);
  s = s.replace(BEDROCK_VERSION, "");
  return s.replace("@", "-");
}

export type FindModelResult =
  | {
      readonly row: ModelRow;
      /** `exact`: the normalized id is one of the row's literal patterns; `pattern`: a `*` glob matched it. */
      readonly matched: "exact" | "pattern";
    }
  | { readonly row: null; readonly nearest: readonly ModelRow[] };

const rowMatches = (row: ModelRow, id: string): string | undefined =>
  row.notPatterns?.some((p) => matchGlob(p, id)) ? undefined : row.patterns.find((p) => matchGlob(p, id));

/**
 * The table row for a model id, as providers, gateways and clouds spell it (see
 * `normalizeModelId`; case does not matter). The first matching row wins; `provider` limits the
 * search to that provider's rows. For an unknown id, `nearest` holds up to 3 rows to suggest.
 */
export function findModel(modelId: string, provider?: ModelProvider): FindModelResult {
  if (typeof modelId !== "string") throw new InvalidInputError("modelId", "must be a string model id");
  if (provider !== undefined && !MODEL_PROVIDERS.includes(provider))
    throw new InvalidInputError("provider", `must be one of ${MODEL_PROVIDERS.join(", ")}, got ${String(provider)}`);
  const id = normalizeModelId(modelId);
  for (const row of MODEL_TABLE) {
    if (provider !== undefined && row.provider !== provider) continue;
    const pattern = rowMatches(row, id);
    if (pattern !== undefined) return { row, matched: pattern.includes("*") ? "pattern" : "exact" };
  }
  return { row: null, nearest: nearestModels(id, provider) };
}

/** The provider an id's name belongs to, from its family prefix; null when it names none. */
function providerOf(id: string): ModelProvider | null {
  if (id.startsWith("claude")) return "anthropic";
  if (id.startsWith("gemini")) return "gemini";
  if (id.startsWith("gpt") || id.startsWith("chatgpt") || /^o\d/.test(id)) return "openai";
  return null;
}

/**
 * Suggestions for an unknown normalized id. Candidates: the rows of `provider`, else of the
 * provider the id's prefix names (`claude…`, `gemini…`, `gpt…`/`chatgpt…`/`o1…`), else none.
 * Each row's distance is the smallest Levenshtein distance between the id and one of its
 * patterns with the `*` removed; rows are ordered by distance, then by the longer common prefix,
 * then by table order, and the first 3 are returned. Cost: O(id length × pattern length) per pattern.
 */
function nearestModels(id: string, provider: ModelProvider | undefined): ModelRow[] {
  const wanted = provider ?? providerOf(id);
  if (wanted === null) return [];
  const scored: { row: ModelRow; distance: number; prefix: number; index: number }[] = [];
  MODEL_TABLE.forEach((row, index) => {
    if (row.provider !== wanted) return;
    let distance = Number.POSITIVE_INFINITY;
    let prefix = 0;
    for (const p of row.patterns) {
      const literal = p.replaceAll("*", "");
      const d = levenshtein(id, literal);
      const c = commonPrefix(id, literal);
      if (d < distance || (d === distance && c > prefix)) {
        distance = d;
        prefix = c;
      }
    }
    scored.push({ row, distance, prefix, index });
  });
  scored.sort((a, b) => a.distance - b.distance || b.prefix - a.prefix || a.index - b.index);
  return scored.slice(0, 3).map((s) => s.row);
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Edit distance (insert, delete, substitute a UTF-16 code unit), in O(a × b) time and O(b) memory. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}
