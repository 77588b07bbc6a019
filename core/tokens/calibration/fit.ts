/**
 * Fitting the estimators on the calibration corpus (corpus.json, written by
 * e2e/calibration/build.mjs from recorded request/usage pairs). Pure arithmetic on the committed
 * feature vectors: the same corpus gives the same coefficients in every runtime, so a test refits
 * and checks the committed coefficients.ts, and measures accuracy on the held-out half.
 *
 * - Split: a pair is held out when the FNV-1a hash of its id is odd (about half, fixed forever).
 * - Text prior: text coefficients that reproduce the o200k_base count of the same texts (each
 *   pair's `o200k`), fitted on every provider's training pairs: the shape of a BPE tokenizer.
 * - Estimators (one per provider, Gemini 1.x/2.0 apart): bounded least squares of relative error,
 *   Σ ((y − x·c) / (y + 10))², on the training pairs without media (media have their own rules).
 *   Unknowns: a scale of the prior for message text and one for tool definitions, small ridge-held
 *   adjustments for digits, punctuation and JSON structure (tokenizers differ most there), and a
 *   non-negative constant per structural feature. Features too few training pairs use (CJK and
 *   other scripts: the recorded cassettes are English) keep `TEXT_PRIORS` and are not fitted.
 * - Bands: the 97.5th percentile of the relative error below and above the estimate on the
 *   training pairs, plus a slack of 3 tokens for tiny requests.
 * - OpenAI framing: per format, whole-token constants per tool call, parallel-call group, tool
 *   result, `tool_choice: "required"` and strict tool, and tokens per character of restored
 *   reasoning, by least squares on the residual of the exact rules.
 */
import { FITTED_EVENTS } from "../count-openai.ts";
import { FEATURE_COUNT, FEATURES, type FeatureName, STRUCT_FEATURES } from "../features.ts";
import { type EstimatorId, estimatorFor } from "../model-info.ts";
import { TEXT_FEATURES, type TextFeature } from "../text-features.ts";

export type CorpusProvider = "openai" | "anthropic" | "gemini" | "bedrock";

/** One media item of a pair: kind, tokens, low, high, width, height, pages (null when unknown). */
export type CorpusMedia = readonly [string, number, number, number, number | null, number | null, number | null];

export interface CorpusOpenAI {
  /** Tokens under the published rules (tokenizer counts plus documented framing), media included. */
  readonly fixed: number;
  /** Part of `fixed` that is estimated (tool definitions, calls, results, schemas), media excluded. */
  readonly estimated: number;
  /** Fitted framing events, in `FITTED_EVENTS` order (count-openai.ts). */
  readonly events: readonly number[];
  /** Tokenizer count of each message's content. */
  readonly messageTokens: readonly number[];
  readonly method: "exact" | "estimate";
}

export interface CorpusPair {
  readonly id: string;
  readonly format: string;
  readonly provider: CorpusProvider;
  readonly model: string;
  readonly source: {
    readonly repo: string;
    readonly path: string;
    readonly commit: string;
    readonly interaction: number;
  };
  /** Usage as reported: input (excluding cache figures where the provider bills them apart), cache read, cache write. */
  readonly usage: readonly [number, number, number];
  /** Real input tokens: input + cache read + cache write where billed separately (Anthropic, Bedrock), else input. */
  readonly target: number;
  /** Why the pair is left out of fitting and testing, or null. */
  readonly excluded: string | null;
  readonly flags: readonly string[];
  /** Summed feature vector in `FEATURES` order (absent for excluded pairs). */
  readonly x?: readonly number[];
  readonly media?: readonly CorpusMedia[];
  readonly openai?: CorpusOpenAI;
  /** o200k_base tokens of the texts the features measure (the shape of every estimator's text part). */
  readonly o200k?: number;
  /** The old figure: ceil(UTF-16 length / 4) of each serialized segment, summed (segmentRequest's default). */
  readonly quarter?: number;
}

export interface Corpus {
  readonly version: 1;
  readonly features: readonly string[];
  readonly pairs: readonly CorpusPair[];
}

/**
 * Pairs found wrong on reading their cassette, left out of fitting and testing alike (build.mjs
 * and cassettes.mjs write the reason into the pair's `excluded`; the calibration test checks it).
 * Each reason is about the recording, never about the estimate's error.
 */
export const CORRECTIONS: Readonly<Record<string, string>> = {
  "ddtr-a015":
    "response written by hand in the cassette (id msg_thinking_003, signature sig_abc, round usage 200): not a provider's count",
  "ddtr-a016":
    "response written by hand in the cassette (id msg_thinking_002, signature sig_def456, round usage 100): not a provider's count",
  "oinf-a015":
    "usage edited in the cassette (100 input, 2 cache read, 5 cache write for a one-word prompt): not a provider's count",
  "ollm-a028":
    "response written by hand in the cassette (id msg_01PromptCacheCreation00000000, 1,024 cache-write tokens for a 13-token body)",
};

/** FNV-1a (32-bit) of a string's UTF-16 code units. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `test` (held out) when the hash of the id is odd, else `train`. */
export const splitOf = (id: string): "train" | "test" => ((fnv1a(id) & 1) === 1 ? "test" : "train");

/**
 * Text features the corpus barely exercises (fewer than `MIN_SUPPORT` training pairs use them: the
 * recorded cassettes are English) keep these o200k_base values instead of fitted ones, per code
 * point. CJK: o200k_base needs 0.81 tokens per character on Chinese prose (288,868 tokens for
 * 358,218 characters, gpt-tokenizer 4.0.0, measured 2026-12). Other scripts and symbols: about
 * half a token per letter and one per symbol, a rough figure. Providers scale them like the rest.
 */
export const TEXT_PRIORS: Partial<Record<TextFeature, number>> = {
  cjk: 0.81,
  otherLetters: 0.45,
  otherWords: 0.5,
  symbols: 1,
};

/** Training pairs that must use a feature before it is fitted rather than kept at its prior. */
export const MIN_SUPPORT = 20;
/**
 * The same for the two scales (message text, tool definitions): one number each, shared by every
 * text class, so fewer pairs determine it (Gemini 2.0 has 16 training pairs with tools).
 */
export const MIN_SCALE_SUPPORT = 10;
/** Damps the weight of tiny requests in the relative-error fit. */
export const WEIGHT_OFFSET = 10;
const SWEEPS = 3000;

/**
 * Bounded least squares by cyclic coordinate descent on the normal equations `a·c = b`
 * (deterministic: a fixed number of sweeps in a fixed order). `lower[k]` is each coordinate's
 * bound (0 or -Infinity); `fixed` coordinates keep their start value.
 */
export function solveBounded(
  a: readonly Float64Array[],
  b: Float64Array,
  lower: readonly number[],
  fixed: ReadonlySet<number>,
  start: Float64Array,
): Float64Array {
  const n = b.length;
  const c = new Float64Array(start);
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let k = 0; k < n; k++) {
      if (fixed.has(k)) continue;
      const row = a[k]!;
      const akk = row[k]!;
      if (akk <= 0) continue;
      let g = b[k]!;
      for (let j = 0; j < n; j++) g -= row[j]! * c[j]!;
      c[k] = Math.max(lower[k]!, c[k]! + g / akk);
    }
  }
  return c;
}

/** Accumulates `w·x·xᵀ` and `w·x·y` for one observation. */
function accumulate(a: Float64Array[], b: Float64Array, x: readonly number[], y: number, w: number): void {
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    b[i] = b[i]! + w * xi * y;
    const row = a[i]!;
    for (let j = 0; j < x.length; j++) row[j] = row[j]! + w * xi * x[j]!;
  }
}

const matrix = (n: number) => Array.from({ length: n }, () => new Float64Array(n));

/** Rounds to 4 significant digits (what coefficients.ts records). */
export const round4 = (v: number): number => (v === 0 ? 0 : Number(v.toPrecision(4)));

const TEXT_COUNT = TEXT_FEATURES.length;

/**
 * Text coefficients that reproduce the o200k_base token count of the same texts (the `o200k`
 * figure of each pair): the shape every provider's estimator starts from. Fitted on the training
 * pairs of every provider.
 */
export function fitTextPrior(corpus: Corpus): Record<TextFeature, number> {
  const train = corpus.pairs.filter(
    (p) => p.excluded === null && p.x !== undefined && p.o200k !== undefined && splitOf(p.id) === "train",
  );
  const support = new Array<number>(TEXT_COUNT).fill(0);
  for (const p of train)
    for (let i = 0; i < TEXT_COUNT; i++) if ((p.x![i] ?? 0) + (p.x![TEXT_COUNT + i] ?? 0) > 0) support[i]!++;
  const fixed = new Set<number>();
  const start = new Float64Array(TEXT_COUNT);
  TEXT_FEATURES.forEach((f, i) => {
    if (support[i]! < MIN_SUPPORT || TEXT_PRIORS[f] !== undefined) {
      fixed.add(i);
      start[i] = TEXT_PRIORS[f] ?? 0;
    }
  });
  const a = matrix(TEXT_COUNT);
  const b = new Float64Array(TEXT_COUNT);
  for (const p of train) {
    // Both channels (message text and tool definitions) hold text the o200k figure counted.
    const x = p.x!.slice(0, TEXT_COUNT).map((v, i) => v + (p.x![TEXT_COUNT + i] ?? 0));
    let y = p.o200k!;
    for (const k of fixed) y -= x[k]! * start[k]!;
    accumulate(
      a,
      b,
      x.map((v, i) => (fixed.has(i) ? 0 : v)),
      y,
      1 / (p.o200k! + WEIGHT_OFFSET) ** 2,
    );
  }
  const c = solveBounded(a, b, new Array<number>(TEXT_COUNT).fill(0), fixed, start);
  return Object.fromEntries(TEXT_FEATURES.map((f, i) => [f, round4(c[i]!)])) as Record<TextFeature, number>;
}

/** Text classes whose cost a provider's tokenizer may shift away from o200k's (digits one by one, …). */
export const ADJUSTED: readonly TextFeature[] = ["digits", "punct", "structure"];
/** Ridge on the per-provider adjustments, relative to each one's own curvature. */
const RIDGE = 0.5;

export interface FittedEstimator {
  readonly coefficients: Record<FeatureName, number>;
  /** The provider's tokens per o200k_base token of text, before the per-class adjustments. */
  readonly scale: number;
  /** The same for the text of tool definitions (names, descriptions, JSON Schema). */
  readonly toolScale: number;
  readonly band: { readonly below: number; readonly above: number; readonly slack: number };
  readonly trainPairs: number;
}

const mediaTokens = (p: CorpusPair) => (p.media ?? []).reduce((s, m) => s + m[1], 0);

/** Pairs usable for fitting or testing an estimator (`openai`, `gemini-2.0`, …). */
export const usable = (corpus: Corpus, estimator: EstimatorId, split: "train" | "test") =>
  corpus.pairs.filter(
    (p) =>
      estimatorFor(p.provider, p.model) === estimator &&
      p.excluded === null &&
      p.x !== undefined &&
      splitOf(p.id) === split,
  );

/** The estimate of a pair under coefficients (text and framing rounded, media added). */
export function estimatePair(p: CorpusPair, coefficients: Readonly<Record<FeatureName, number>>): number {
  let s = 0;
  for (let i = 0; i < FEATURE_COUNT; i++) s += (p.x![i] ?? 0) * coefficients[FEATURES[i]!];
  return Math.round(s) + mediaTokens(p);
}

/** The textual part of an estimate (what the relative band applies to). */
export const textPart = (p: CorpusPair, estimate: number) => estimate - mediaTokens(p);

/** q-quantile (0–1) of sorted values, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Relative band (and a slack of whole tokens) that holds `coverage` of the pairs on each side. */
export function fitBand(
  residuals: readonly { readonly error: number; readonly base: number }[],
  coverage = 0.975,
  slack = 3,
): { below: number; above: number; slack: number } {
  const below = residuals.map((r) => Math.max(0, (-r.error - slack) / Math.max(1, r.base))).sort((x, y) => x - y);
  const above = residuals.map((r) => Math.max(0, (r.error - slack) / Math.max(1, r.base))).sort((x, y) => x - y);
  return { below: round4(quantile(below, coverage)), above: round4(quantile(above, coverage)), slack };
}

/**
 * One provider's estimator, fitted on its training pairs without media: tokens ≈ scale × (the
 * o200k-shaped text estimate) + adjustments per text class + framing per structural feature.
 * The committed coefficients are the expanded form: per text class `scale × prior + adjustment`.
 */
export function fitEstimator(
  corpus: Corpus,
  provider: EstimatorId,
  prior: Readonly<Record<TextFeature, number>>,
): FittedEstimator {
  const train = usable(corpus, provider, "train").filter((p) => (p.media ?? []).length === 0);
  // Unknowns: [text scale, tool-definition scale, one adjustment per ADJUSTED class, one
  // coefficient per structural feature].
  const adjusted = ADJUSTED.map((f) => TEXT_FEATURES.indexOf(f));
  const structural = STRUCT_FEATURES.map((_, i) => 2 * TEXT_COUNT + i);
  const n = 2 + adjusted.length + structural.length;
  const row = (p: CorpusPair): number[] => {
    let t = 0;
    let tools = 0;
    for (let i = 0; i < TEXT_COUNT; i++) {
      t += (p.x![i] ?? 0) * prior[TEXT_FEATURES[i]!];
      tools += (p.x![TEXT_COUNT + i] ?? 0) * prior[TEXT_FEATURES[i]!];
    }
    return [t, tools, ...adjusted.map((i) => p.x![i] ?? 0), ...structural.map((i) => p.x![i] ?? 0)];
  };
  const support = new Array<number>(n).fill(0);
  const rows = train.map((p) => {
    const r = row(p);
    r.forEach((v, i) => {
      if (v !== 0) support[i]!++;
    });
    return r;
  });
  const fixed = new Set<number>();
  for (let i = 0; i < n; i++) if (support[i]! < (i < 2 ? MIN_SCALE_SUPPORT : MIN_SUPPORT)) fixed.add(i);
  const a = matrix(n);
  const b = new Float64Array(n);
  rows.forEach((r, k) => accumulate(a, b, r, train[k]!.target, 1 / (train[k]!.target + WEIGHT_OFFSET) ** 2));
  for (let i = 2; i < 2 + adjusted.length; i++) a[i]![i] = a[i]![i]! * (1 + RIDGE);
  const lower = [0, 0, ...adjusted.map(() => Number.NEGATIVE_INFINITY), ...structural.map(() => 0)];
  const start = new Float64Array(n);
  start[0] = 1;
  start[1] = 1;
  const c = solveBounded(a, b, lower, fixed, start);
  const scale = c[0]!;
  const coefficients = {} as Record<FeatureName, number>;
  TEXT_FEATURES.forEach((f, i) => {
    const k = adjusted.indexOf(i);
    coefficients[f] = round4(Math.max(0, scale * prior[f] + (k >= 0 ? c[2 + k]! : 0)));
    coefficients[`tool.${f}`] = round4(c[1]! * prior[f]);
  });
  STRUCT_FEATURES.forEach((f, i) => {
    coefficients[f] = round4(c[2 + adjusted.length + i]!);
  });
  const residuals = train.map((p) => {
    const e = estimatePair(p, coefficients);
    return { error: p.target - e, base: textPart(p, e) };
  });
  return {
    coefficients,
    scale: round4(scale),
    toolScale: round4(c[1]!),
    band: fitBand(residuals),
    trainPairs: train.length,
  };
}

export type FramingConstants = Record<(typeof FITTED_EVENTS)[number], number>;

export interface FittedOpenAIFraming {
  readonly "openai-chat": FramingConstants;
  readonly "openai-responses": FramingConstants;
  readonly band: { readonly below: number; readonly above: number; readonly slack: number };
}

/** The exact-path prediction of an OpenAI pair under fitted constants. */
export function openaiExactPair(p: CorpusPair, k: FramingConstants): number {
  const o = p.openai!;
  return o.fixed + Math.round(FITTED_EVENTS.reduce((s, name, i) => s + (o.events[i] ?? 0) * k[name], 0));
}

/**
 * OpenAI framing constants per format (whole tokens per tool call, parallel-call group, tool
 * result, `tool_choice: "required"` and strict tool; tokens per character of restored reasoning),
 * and the band of the estimated parts of an OpenAI count.
 */
export function fitOpenAIFraming(corpus: Corpus): FittedOpenAIFraming {
  const out: Record<string, Record<string, number>> = {};
  for (const format of ["openai-chat", "openai-responses"] as const) {
    const train = usable(corpus, "openai", "train").filter(
      (p) => p.format === format && p.openai !== undefined && (p.media ?? []).length === 0,
    );
    const n = FITTED_EVENTS.length;
    const a = matrix(n);
    const b = new Float64Array(n);
    for (const p of train) {
      const e = p.openai!.events;
      if (e.every((v) => v === 0)) continue;
      accumulate(a, b, e, p.target - p.openai!.fixed, 1 / (p.target + WEIGHT_OFFSET) ** 2);
    }
    // Constants may be negative (a result can cost less than a plain message): no sign bound.
    const c = solveBounded(a, b, new Array<number>(n).fill(Number.NEGATIVE_INFINITY), new Set(), new Float64Array(n));
    out[format] = Object.fromEntries(
      FITTED_EVENTS.map((name, i) => [name, name === "reasoningChars" ? round4(c[i]!) : Math.round(c[i]!)]),
    );
  }
  const framing = out as unknown as Omit<FittedOpenAIFraming, "band">;
  const residuals = usable(corpus, "openai", "train")
    .filter((p) => p.openai !== undefined && p.openai.method === "estimate" && (p.media ?? []).length === 0)
    .map((p) => {
      const predicted = openaiExactPair(p, framing[p.format as "openai-chat"]);
      return { error: p.target - predicted, base: p.openai!.estimated + (predicted - p.openai!.fixed) };
    });
  return { ...framing, band: fitBand(residuals) };
}

/** Median, 90th percentile of |predicted − real| / real, and the share of real counts inside [low, high]. */
export interface Accuracy {
  readonly pairs: number;
  readonly medianError: number;
  readonly p90Error: number;
  readonly inBand: number;
  /** The same errors for the old figure (ceil(UTF-16 length / 4) per segment), when known. */
  readonly quarterMedianError: number;
  readonly quarterP90Error: number;
}

interface Prediction {
  readonly pair: CorpusPair;
  readonly total: number;
  readonly low: number;
  readonly high: number;
}

function accuracy(predictions: readonly Prediction[]): Accuracy {
  const rel = (p: Prediction) => Math.abs(p.total - p.pair.target) / p.pair.target;
  const errors = predictions.map(rel).sort((a, b) => a - b);
  const quarter = predictions
    .filter((p) => p.pair.quarter !== undefined)
    .map((p) => Math.abs(p.pair.quarter! - p.pair.target) / p.pair.target)
    .sort((a, b) => a - b);
  const inside = predictions.filter((p) => p.pair.target >= p.low && p.pair.target <= p.high).length;
  const r = (v: number) => Math.round(v * 10_000) / 10_000;
  return {
    pairs: predictions.length,
    medianError: r(quantile(errors, 0.5)),
    p90Error: r(quantile(errors, 0.9)),
    inBand: r(predictions.length === 0 ? 0 : inside / predictions.length),
    quarterMedianError: r(quantile(quarter, 0.5)),
    quarterP90Error: r(quantile(quarter, 0.9)),
  };
}

const mediaBand = (p: CorpusPair) => {
  let below = 0;
  let above = 0;
  for (const m of p.media ?? []) {
    below += m[1] - m[2];
    above += m[3] - m[1];
  }
  return { below, above };
};

/** The band countRequestTokens gives a total whose `estimated` part is calibrated (count.ts `band`). */
function bandOf(total: number, estimated: number, b: FittedEstimator["band"], p: CorpusPair) {
  const m = mediaBand(p);
  if (estimated <= 0 && m.below === 0 && m.above === 0) return { low: total, high: total };
  const below = estimated > 0 ? estimated * b.below + b.slack : 0;
  const above = estimated > 0 ? estimated * b.above + b.slack : 0;
  return { low: Math.max(0, Math.floor(total - below - m.below)), high: Math.ceil(total + above + m.above) };
}

export interface Models {
  readonly estimators: Readonly<Record<EstimatorId, Pick<FittedEstimator, "coefficients" | "band">>>;
  readonly framing: FittedOpenAIFraming;
}

/** A pair's estimate without a tokenizer (what countRequestTokens gives), with its band. */
export function predictEstimate(p: CorpusPair, models: Models): Prediction {
  const est = models.estimators[estimatorFor(p.provider, p.model)];
  const total = estimatePair(p, est.coefficients);
  return { pair: p, total, ...bandOf(total, textPart(p, total), est.band, p) };
}

/** An OpenAI pair's count with the tokenizer, with its band. */
export function predictExact(p: CorpusPair, models: Models): Prediction {
  const total = openaiExactPair(p, models.framing[p.format as "openai-chat"]);
  const estimated = p.openai!.method === "exact" ? 0 : p.openai!.estimated + (total - p.openai!.fixed);
  return { pair: p, total, ...bandOf(total, estimated, models.framing.band, p) };
}

/** Held-out accuracy per group, as `npm run bench` prints it and the calibration test checks it. */
export function evaluate(corpus: Corpus, models: Models, split: "train" | "test" = "test") {
  const pairs = corpus.pairs.filter((p) => p.excluded === null && p.x !== undefined && splitOf(p.id) === split);
  const of = (provider: CorpusProvider) => pairs.filter((p) => p.provider === provider);
  const openai = of("openai").filter((p) => p.openai !== undefined);
  const exactText = openai.filter((p) => p.openai!.method === "exact" && (p.media ?? []).length === 0);
  return {
    "openai exact, text only": accuracy(exactText.map((p) => predictExact(p, models))),
    "openai with tokenizer, all": accuracy(openai.map((p) => predictExact(p, models))),
    "openai estimate (no tokenizer)": accuracy(of("openai").map((p) => predictEstimate(p, models))),
    anthropic: accuracy(of("anthropic").map((p) => predictEstimate(p, models))),
    "anthropic text only": accuracy(
      of("anthropic")
        .filter((p) => (p.media ?? []).length === 0)
        .map((p) => predictEstimate(p, models)),
    ),
    gemini: accuracy(of("gemini").map((p) => predictEstimate(p, models))),
    "gemini 2.5 and later": accuracy(
      of("gemini")
        .filter((p) => estimatorFor("gemini", p.model) !== "gemini-2.0")
        .map((p) => predictEstimate(p, models)),
    ),
    "bedrock (Claude)": accuracy(of("bedrock").map((p) => predictEstimate(p, models))),
  };
}
