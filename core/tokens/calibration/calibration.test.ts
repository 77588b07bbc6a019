import { describe, expect, it } from "vitest";
import { ESTIMATE_MODELS, OPENAI_FITTED_FRAMING, TEXT_PRIOR } from "../coefficients.ts";
import { FEATURES } from "../features.ts";
import { ESTIMATORS } from "../model-info.ts";
import corpusJson from "./corpus.json";
import { CORRECTIONS, type Corpus, evaluate, fitEstimator, fitOpenAIFraming, fitTextPrior, splitOf } from "./fit.ts";

const corpus = corpusJson as unknown as Corpus;

describe("calibration corpus", () => {
  it("holds derived features only: a source pointer, usage, features — no request text", () => {
    expect(corpus.features).toEqual(FEATURES);
    for (const p of corpus.pairs) {
      expect(
        Object.keys(p).every((k) =>
          [
            "id",
            "format",
            "provider",
            "model",
            "source",
            "usage",
            "target",
            "excluded",
            "flags",
            "x",
            "media",
            "openai",
            "o200k",
            "quarter",
          ].includes(k),
        ),
      ).toBe(true);
      expect(p.source.commit).toMatch(/^[0-9a-f]{40}$/);
      if (p.x) expect(p.x).toHaveLength(FEATURES.length);
    }
  });

  it("leaves out every pair found wrong in its cassette, with the reason", () => {
    for (const [id, reason] of Object.entries(CORRECTIONS)) {
      const pair = corpus.pairs.find((p) => p.id === id);
      expect(pair, id).toBeDefined();
      expect(pair!.excluded).toBe(reason);
      expect(pair!.x).toBeUndefined();
    }
  });

  it("splits pairs into two halves by a hash of the id", () => {
    const test = corpus.pairs.filter((p) => splitOf(p.id) === "test").length;
    expect(test / corpus.pairs.length).toBeGreaterThan(0.4);
    expect(test / corpus.pairs.length).toBeLessThan(0.6);
  });

  it("has at least 40 usable pairs each for OpenAI Chat, OpenAI Responses and Anthropic, and 15 for Gemini", () => {
    const usable = (format: string) => corpus.pairs.filter((p) => p.format === format && p.excluded === null).length;
    expect(usable("openai-chat")).toBeGreaterThanOrEqual(40);
    expect(usable("openai-responses")).toBeGreaterThanOrEqual(40);
    expect(usable("anthropic")).toBeGreaterThanOrEqual(40);
    expect(usable("gemini")).toBeGreaterThanOrEqual(15);
  });
});

describe("fitted coefficients", () => {
  const prior = fitTextPrior(corpus);

  it("refits the committed text prior from the corpus", () => {
    expect(prior).toEqual(TEXT_PRIOR);
  });

  it.each(ESTIMATORS)("refits the committed %s estimator from the corpus", (id) => {
    const fitted = fitEstimator(corpus, id, prior);
    const committed = ESTIMATE_MODELS[id];
    expect(fitted.coefficients).toEqual(committed.coefficients);
    expect({ scale: fitted.scale, toolScale: fitted.toolScale, band: fitted.band }).toEqual({
      scale: committed.scale,
      toolScale: committed.toolScale,
      band: committed.band,
    });
  });

  it("refits the committed OpenAI framing constants from the corpus", () => {
    expect(fitOpenAIFraming(corpus)).toEqual(OPENAI_FITTED_FRAMING);
  });
});

describe("held-out accuracy (the test half, never fitted on)", () => {
  const acc = evaluate(corpus, { estimators: ESTIMATE_MODELS, framing: OPENAI_FITTED_FRAMING });

  it("counts OpenAI text-only requests exactly: median error 0, at most 1%", () => {
    expect(acc["openai exact, text only"].pairs).toBeGreaterThan(200);
    expect(acc["openai exact, text only"].medianError).toBeLessThanOrEqual(0.01);
    expect(acc["openai exact, text only"].inBand).toBeGreaterThanOrEqual(0.9);
  });

  // The figures measured when the coefficients were fitted, with a little room: a change to the
  // counter that makes any of them worse fails here.
  it.each([
    ["openai with tokenizer, all", 0.02, 0.17],
    ["openai estimate (no tokenizer)", 0.045, 0.21],
    ["anthropic", 0.05, 0.13],
    ["gemini 2.5 and later", 0.07, 0.3],
    ["gemini", 0.07, 0.33],
    ["bedrock (Claude)", 0.16, 0.75],
  ] as const)("keeps %s within a median of %f and a p90 of %f, with ≥ 88%% inside the band", (group, median, p90) => {
    const a = acc[group];
    expect(a.medianError).toBeLessThanOrEqual(median);
    expect(a.p90Error).toBeLessThanOrEqual(p90);
    expect(a.inBand).toBeGreaterThanOrEqual(0.88);
    expect(a.medianError).toBeLessThan(a.quarterMedianError);
  });
});
