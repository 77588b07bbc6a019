/**
 * `MEDIA_TOKEN_RULES`: what an image or a PDF page costs, per provider and model, as dated rows
 * with their sources (like `CACHE_RULES`). The first row whose provider and model glob match wins,
 * so specific patterns come first. Model ids are matched lowercased and bare (see `bareModel`).
 *
 * Sources (collected 2026-12):
 * - Anthropic vision guide, platform.claude.com/docs/en/build-with-claude/vision: tokens ≈ w·h/750,
 *   images scaled down (aspect kept) when the long edge passes 1,568 px or the image passes about
 *   1,600 tokens; the docs' table of sizes that are not resized ends at 1092×1092 and 784×1568.
 * - Anthropic migration guide (2026-08): Opus 4.7+, Sonnet 5, Fable 5 take up to 2,576 px on the
 *   long edge and up to 4,784 tokens per image.
 * - Anthropic PDF support, platform.claude.com/docs/en/build-with-claude/pdf-support: each page is
 *   sent as extracted text plus a page image, "1,500–3,000 tokens per page".
 * - OpenAI images guide, developers.openai.com/api/docs/guides/images-vision (version listing
 *   gpt-5.6, 2026): tile models fit the image in 2048×2048, scale the short side to 768, then count
 *   512-px tiles (`base + tiles × perTile`; `detail: "low"` costs `base`); patch models count 32-px
 *   patches within a per-detail pixel limit and patch budget, times a per-model multiplier.
 * - OpenAI file inputs guide (2026): PDFs are sent as extracted text plus an image of each page.
 * - Gemini token docs, ai.google.dev/gemini-api/docs/tokens (2.x version): an image with both sides
 *   ≤ 384 px is 258 tokens, larger ones are cut into 768×768 tiles of 258 tokens; a PDF page 258.
 * - Gemini media resolution docs, ai.google.dev/gemini-api/docs/media-resolution, and the Vertex
 *   Gemini 3 Flash model page (2026): Gemini 3 bills a fixed budget per image whatever its size —
 *   LOW 280, MEDIUM 560, HIGH 1,120 (the default), ULTRA_HIGH 2,240 — and 560 per PDF page.
 */
import { InvalidInputError } from "../util/errors.ts";
import { matchGlob } from "../util/glob.ts";
import { bareModel } from "./model-info.ts";

/** `bedrock` is Bedrock Converse with Claude: Claude's image rule, its own PDF handling. */
export type MediaProvider = "openai" | "anthropic" | "gemini" | "bedrock";

/** OpenAI image `detail`; `auto` is the default. */
export type ImageDetail = "low" | "high" | "auto" | "original";

/** Gemini 3 `media_resolution` levels. */
export type MediaResolution = "low" | "medium" | "high" | "ultra_high";

/** One detail level of a patch model: the pixel limit of the long side, and the patch budget (null = none). */
export interface PatchLevel {
  readonly maxSide: number;
  readonly patches: number | null;
}

export type ImageFormula =
  /** Anthropic: ceil(w·h / pixelsPerToken) after scaling within `maxLongEdge` and `maxTokens`. */
  | {
      readonly kind: "pixels";
      readonly pixelsPerToken: number;
      readonly maxLongEdge: number;
      readonly maxTokens: number;
    }
  /** OpenAI tile models: base + perTile × 512-px tiles after fitting 2048² and a 768-px short side. */
  | { readonly kind: "tiles"; readonly base: number; readonly perTile: number }
  /** OpenAI patch models: ceil(32-px patches × multiplier) within the detail level's limits. */
  | {
      readonly kind: "patches";
      readonly multiplier: number;
      readonly low: PatchLevel;
      readonly high: PatchLevel;
      readonly original: PatchLevel | null;
      /** What `auto` (the default) means for this model. */
      readonly auto: "high" | "original";
    }
  /**
   * Gemini 2.x: 258 when both sides ≤ 384 px, else 258 per `tile`-px tile; `tile: 0` is Gemini
   * 2.0's observed rule (5 tiles above the small size, 1–13 seen).
   */
  | { readonly kind: "gemini-tiles"; readonly perTile: number; readonly smallSide: number; readonly tile: number }
  /** Gemini 3: a fixed budget per image by media resolution. */
  | {
      readonly kind: "resolution";
      readonly levels: Readonly<Record<MediaResolution, number>>;
      readonly default: MediaResolution;
    };

/** What one PDF page costs: `perPage` tokens, within [`low`, `high`] per page. */
export interface PageFormula {
  readonly perPage: number;
  readonly low: number;
  readonly high: number;
  /** Gemini 3 bills pages by media resolution (the value at each level); null elsewhere. */
  readonly levels: Readonly<Record<MediaResolution, number>> | null;
}

export interface MediaTokenRule {
  readonly id: string;
  readonly provider: MediaProvider;
  /** Globs over the bare, lowercased model id (`*` matches any run); the first row with a match wins. */
  readonly models: readonly string[];
  readonly image: ImageFormula;
  readonly pdfPage: PageFormula;
  readonly status: "documented" | "observed";
  readonly source: string;
  /** When the fact was collected, `YYYY-MM`. */
  readonly date: string;
  readonly note: string | null;
}

const ANTHROPIC_VISION = "Anthropic docs, Vision (platform.claude.com/docs/en/build-with-claude/vision)";
const ANTHROPIC_PDF = "Anthropic docs, PDF support (platform.claude.com/docs/en/build-with-claude/pdf-support)";
const OPENAI_IMAGES = "OpenAI docs, Images and vision (developers.openai.com/api/docs/guides/images-vision)";
const OPENAI_FILES = "OpenAI docs, File inputs (developers.openai.com/api/docs/guides/file-inputs)";
const GEMINI_TOKENS = "Google AI docs, Understand and count tokens (ai.google.dev/gemini-api/docs/tokens)";
const GEMINI_RESOLUTION =
  "Google AI docs, Media resolution (ai.google.dev/gemini-api/docs/media-resolution); Vertex AI Gemini 3 Flash model page";

/**
 * PDF pages on Anthropic: the page image (up to the ~1,600-token image cap) plus the page's text;
 * the docs give 1,500–3,000 per page. The point value is the cap plus a short page of text.
 */
const ANTHROPIC_PAGE: PageFormula = { perPage: 1_800, low: 1_000, high: 3_000, levels: null };
/**
 * PDF pages on OpenAI: text plus a page image at a detail level OpenAI does not document. On the
 * calibration corpus a one-page test PDF costs 40–200 tokens (GPT-4o, o4-mini, GPT-5.x) and ~900
 * on GPT-4.1-nano; a page dense with text costs more, so the band reaches 3,000.
 */
const OPENAI_PAGE: PageFormula = { perPage: 250, low: 40, high: 3_000, levels: null };

const anthropic = (
  id: string,
  models: readonly string[],
  maxLongEdge: number,
  maxTokens: number,
  note: string | null,
) =>
  ({
    id,
    provider: "anthropic",
    models,
    image: { kind: "pixels", pixelsPerToken: 750, maxLongEdge, maxTokens },
    pdfPage: ANTHROPIC_PAGE,
    status: "documented",
    source: `${ANTHROPIC_VISION}; ${ANTHROPIC_PDF}`,
    date: "2026-12",
    note,
  }) as const satisfies MediaTokenRule;

const tiles = (id: string, models: readonly string[], base: number, perTile: number) =>
  ({
    id,
    provider: "openai",
    models,
    image: { kind: "tiles", base, perTile },
    pdfPage: OPENAI_PAGE,
    status: "documented",
    source: `${OPENAI_IMAGES}; ${OPENAI_FILES}`,
    date: "2026-12",
    note: null,
  }) as const satisfies MediaTokenRule;

const LOW_512: PatchLevel = { maxSide: 512, patches: null };
const HIGH_2500: PatchLevel = { maxSide: 2048, patches: 2_500 };
const ALL_6144: PatchLevel = { maxSide: 2048, patches: 6_144 };

const patches = (
  id: string,
  models: readonly string[],
  multiplier: number,
  levels: { low: PatchLevel; high: PatchLevel; original: PatchLevel | null; auto: "high" | "original" },
  note: string | null = null,
) =>
  ({
    id,
    provider: "openai",
    models,
    image: { kind: "patches", multiplier, ...levels },
    pdfPage: OPENAI_PAGE,
    status: "documented",
    source: `${OPENAI_IMAGES}; ${OPENAI_FILES}`,
    date: "2026-12",
    note,
  }) as const satisfies MediaTokenRule;

const GEMINI3_LEVELS = { low: 280, medium: 560, high: 1_120, ultra_high: 2_240 } as const;

export const MEDIA_TOKEN_RULES: readonly MediaTokenRule[] = [
  anthropic(
    "anthropic-high-res",
    [
      "claude-opus-4-7*",
      "claude-opus-4-8*",
      "claude-opus-4-9*",
      "claude-opus-5*",
      "claude-sonnet-5*",
      "claude-fable-*",
    ],
    2_576,
    4_784,
    "The exact scaling inside the 4,784-token cap is not documented.",
  ),
  anthropic(
    "anthropic-standard",
    ["*"],
    1_568,
    1_600,
    "The ~1,600-token trigger is approximate: the docs list 784×1568 (1,639 tokens) as not resized.",
  ),
  {
    id: "bedrock-converse",
    provider: "bedrock",
    models: ["*"],
    image: { kind: "pixels", pixelsPerToken: 750, maxLongEdge: 1_568, maxTokens: 1_600 },
    pdfPage: { perPage: 300, low: 30, high: 1_800, levels: null },
    status: "observed",
    source: `${ANTHROPIC_VISION}; Bedrock Converse document handling measured by a third party (HF dataset JOHNISKING/pdf-token-cost, 2026-10) and on the calibration corpus`,
    date: "2026-12",
    note: "Converse sends Claude the text of a PDF without page images unless citations are on: roughly 300 tokens per page of text.",
  },
  tiles("openai-gpt-4o-mini", ["gpt-4o-mini*"], 2_833, 5_667),
  patches("openai-gpt-5.6", ["gpt-5.6*"], 1.2, {
    low: LOW_512,
    high: HIGH_2500,
    original: { maxSide: 65_535, patches: null },
    auto: "original",
  }),
  patches("openai-gpt-5.5", ["gpt-5.5*"], 1.2, {
    low: LOW_512,
    high: HIGH_2500,
    original: { maxSide: 6_000, patches: 10_000 },
    auto: "original",
  }),
  patches("openai-gpt-5.4", ["gpt-5.4*"], 1.2, {
    low: ALL_6144,
    high: HIGH_2500,
    original: { maxSide: 6_000, patches: 10_000 },
    auto: "high",
  }),
  patches("openai-gpt-5.2", ["gpt-5.2*"], 1.2, { low: ALL_6144, high: ALL_6144, original: null, auto: "high" }),
  patches(
    "openai-gpt-5-nano",
    ["gpt-5-nano*"],
    1.5,
    { low: ALL_6144, high: ALL_6144, original: null, auto: "high" },
    "Earlier versions of the guide gave ×2.46; the latest gives ×1.5.",
  ),
  patches(
    "openai-gpt-5-mini",
    ["gpt-5-mini*"],
    1.2,
    { low: ALL_6144, high: ALL_6144, original: null, auto: "high" },
    "Earlier versions of the guide gave ×1.62; the latest gives ×1.2.",
  ),
  patches("openai-gpt-4.1-mini", ["gpt-4.1-mini*"], 1.62, {
    low: ALL_6144,
    high: ALL_6144,
    original: null,
    auto: "high",
  }),
  patches(
    "openai-gpt-4.1-nano",
    ["gpt-4.1-nano*"],
    2.46,
    { low: ALL_6144, high: ALL_6144, original: null, auto: "high" },
    "Deprecated; limits as for gpt-4.1-mini.",
  ),
  patches(
    "openai-o4-mini",
    ["o4-mini*"],
    1.72,
    { low: ALL_6144, high: ALL_6144, original: null, auto: "high" },
    "Deprecated; limits as for gpt-4.1-mini.",
  ),
  tiles("openai-gpt-5", ["gpt-5*"], 70, 140),
  tiles("openai-o-series", ["o1*", "o3*"], 75, 150),
  tiles("openai-gpt-4o-4.1", ["*"], 85, 170),
  {
    id: "gemini-3",
    provider: "gemini",
    models: ["gemini-3*", "gemini-4*"],
    image: { kind: "resolution", levels: GEMINI3_LEVELS, default: "high" },
    pdfPage: { perPage: 560, low: 560, high: 560, levels: GEMINI3_LEVELS },
    status: "documented",
    source: GEMINI_RESOLUTION,
    date: "2026-12",
    note: null,
  },
  {
    id: "gemini-2.0-observed",
    provider: "gemini",
    models: ["gemini-1*", "gemini-2.0*"],
    image: { kind: "gemini-tiles", perTile: 258, smallSide: 384, tile: 0 },
    pdfPage: { perPage: 258, low: 258, high: 1_290, levels: null },
    status: "observed",
    source: "Calibration corpus (promptTokensDetails IMAGE/DOCUMENT of Gemini 2.0 Flash recordings, 2025–2026)",
    date: "2026-12",
    note: "Gemini 2.0 bills images above 384 px far above the documented tile rule: 640×480 → 1,290 (5 × 258), 540×360 → 1,806, 3008×2000 → 3,354. Modelled as 5 tiles, with a band from 1 to 13 tiles.",
  },
  {
    id: "gemini-2",
    provider: "gemini",
    models: ["*"],
    image: { kind: "gemini-tiles", perTile: 258, smallSide: 384, tile: 768 },
    pdfPage: { perPage: 258, low: 258, high: 258, levels: null },
    status: "documented",
    source: GEMINI_TOKENS,
    date: "2026-12",
    note: "Gemini 2.0 Flash bills more than this rule on the calibration corpus (a 640×480 PNG: ~1,290 tokens).",
  },
];

/** The rule for a provider and model (the last row of each provider matches every model). */
export function selectMediaRule(
  provider: MediaProvider,
  model: string,
  rules: readonly MediaTokenRule[] = MEDIA_TOKEN_RULES,
): MediaTokenRule {
  const id = bareModel(model);
  const own = rules.filter((r) => r.provider === provider);
  const rule = own.find((r) => r.models.some((p) => matchGlob(p, id))) ?? own.at(-1);
  if (!rule) throw new InvalidInputError("rules", `no media rule for provider "${provider}"`);
  return rule;
}

/** Tokens of a `w × h` image under `formula`, with its `detail` (OpenAI) or resolution (Gemini 3). */
export function imageTokens(
  formula: ImageFormula,
  width: number,
  height: number,
  options: { readonly detail?: ImageDetail; readonly resolution?: MediaResolution } = {},
): number {
  switch (formula.kind) {
    case "pixels": {
      const s = Math.min(
        1,
        formula.maxLongEdge / Math.max(width, height),
        Math.sqrt((formula.maxTokens * formula.pixelsPerToken) / (width * height)),
      );
      const w = Math.max(1, Math.floor(width * s));
      const h = Math.max(1, Math.floor(height * s));
      return Math.ceil((w * h) / formula.pixelsPerToken);
    }
    case "tiles": {
      if (options.detail === "low") return formula.base;
      const fit = Math.min(1, 2048 / Math.max(width, height));
      let w = Math.floor(width * fit);
      let h = Math.floor(height * fit);
      const short = Math.min(w, h);
      if (short > 768) {
        w = Math.floor((w * 768) / short);
        h = Math.floor((h * 768) / short);
      }
      return formula.base + Math.ceil(w / 512) * Math.ceil(h / 512) * formula.perTile;
    }
    case "patches": {
      const wanted = options.detail ?? "auto";
      const name = wanted === "auto" ? formula.auto : wanted;
      const level =
        (name === "original" ? formula.original : name === "low" ? formula.low : formula.high) ?? formula.high;
      return Math.ceil(patchCount(width, height, level) * formula.multiplier);
    }
    case "gemini-tiles":
      if (width <= formula.smallSide && height <= formula.smallSide) return formula.perTile;
      // Tile 0: the observed Gemini 2.0 rule (5 tiles for an image above the small size).
      if (formula.tile === 0) return 5 * formula.perTile;
      return Math.ceil(width / formula.tile) * Math.ceil(height / formula.tile) * formula.perTile;
    case "resolution":
      return formula.levels[options.resolution ?? formula.default];
  }
}

/** 32-px patches of an image fitted into `level`: scale to `maxSide`, then shrink to the patch budget. */
function patchCount(width: number, height: number, level: PatchLevel): number {
  const fit = Math.min(1, level.maxSide / Math.max(width, height));
  let w = Math.max(1, Math.round(width * fit));
  let h = Math.max(1, Math.round(height * fit));
  let n = Math.ceil(w / 32) * Math.ceil(h / 32);
  if (level.patches !== null && n > level.patches) {
    // Shrink so the patch grid fits the budget, then adjust so whole patches stay within it.
    const shrink = Math.sqrt((32 * 32 * level.patches) / (w * h));
    const pw = (w * shrink) / 32;
    const ph = (h * shrink) / 32;
    const adjust = shrink * Math.min(Math.floor(pw) / pw, Math.floor(ph) / ph);
    w = Math.max(1, Math.floor(w * adjust));
    h = Math.max(1, Math.floor(h * adjust));
    n = Math.ceil(w / 32) * Math.ceil(h / 32);
  }
  return n;
}

/** Sizes assumed for an image whose size cannot be read: a typical photo, and the extremes for the band. */
export const UNKNOWN_IMAGE_SIZE = {
  /** A 4:3 photo larger than every provider's limit: each provider scales it to its own cap. */
  assumed: { width: 4_000, height: 3_000 },
  /** The smallest and the costliest shapes considered for the band. */
  low: { width: 32, height: 32 },
  high: [
    { width: 8_000, height: 8_000 },
    { width: 8_000, height: 3_000 }, // 2048×768 after OpenAI's fit: the most 512-px tiles
    { width: 3_000, height: 8_000 },
  ],
} as const;

/** Tokens of an image of unknown size: the assumed photo, with the band over the extreme shapes. */
export function unknownImageTokens(
  formula: ImageFormula,
  options: { readonly detail?: ImageDetail; readonly resolution?: MediaResolution } = {},
): { readonly tokens: number; readonly low: number; readonly high: number } {
  const u = UNKNOWN_IMAGE_SIZE;
  const tokens = imageTokens(formula, u.assumed.width, u.assumed.height, options);
  const low = imageTokens(formula, u.low.width, u.low.height, options);
  let high = tokens;
  for (const s of u.high) high = Math.max(high, imageTokens(formula, s.width, s.height, options));
  return { tokens, low: Math.min(low, tokens), high };
}
