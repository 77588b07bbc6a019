// Refits the token-count estimators from the committed calibration corpus
// (core/tokens/calibration/corpus.json, written by build.mjs) and writes
// core/tokens/coefficients.ts, then prints the held-out accuracy per provider.
//
//   node e2e/calibration/refit.mjs
//
// Pure arithmetic on the committed feature vectors (core/tokens/calibration/fit.ts): the same
// corpus gives byte-identical coefficients, which core/tokens/calibration/calibration.test.ts checks.
import { spawnSync } from "node:child_process";
import { loadTs } from "./load-ts.mjs";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const contents = [
  `export * from "./core/tokens/calibration/fit.ts";`,
  `export { ESTIMATORS } from "./core/tokens/model-info.ts";`,
].join("\n");
const lib = await loadTs({ contents }, "calibration-fit");

const corpus = JSON.parse(readFileSync(join(root, "core/tokens/calibration/corpus.json"), "utf8"));
const prior = lib.fitTextPrior(corpus);
const fitted = {};
for (const id of lib.ESTIMATORS) fitted[id] = lib.fitEstimator(corpus, id, prior);
const framing = lib.fitOpenAIFraming(corpus);

const ts = (o) => JSON.stringify(o, null, 2).replace(/"([A-Za-z]\w*)":/g, "$1:");
const models = Object.fromEntries(
  Object.entries(fitted).map(([k, v]) => [
    k,
    { scale: v.scale, toolScale: v.toolScale, coefficients: v.coefficients, band: v.band },
  ]),
);
const coefficientsTs = `// Written by e2e/calibration/refit.mjs from core/tokens/calibration/corpus.json; do not edit by hand
// (core/tokens/calibration/calibration.test.ts refits and checks every number).
import type { FeatureName } from "./features.ts";

/** A calibrated estimator: coefficients per feature (features.ts) and its error band. */
export interface EstimateModel {
  /** Provider tokens per o200k_base token of plain text, before per-class adjustments. */
  readonly scale: number;
  /** The same for the text of tool definitions (names, descriptions, JSON Schema). */
  readonly toolScale: number;
  readonly coefficients: Readonly<Record<FeatureName, number>>;
  /**
   * The band around an estimate E of text and framing: [E·(1 − below) − slack, E·(1 + above) + slack],
   * fitted to hold 97.5% of the training pairs on each side.
   */
  readonly band: { readonly below: number; readonly above: number; readonly slack: number };
}

/** Text coefficients that reproduce o200k_base counts: the shape each provider's text coefficients scale. */
export const TEXT_PRIOR = ${ts(prior)} as const;

/** Fitted on the training half of the calibration corpus (${corpus.pairs.length} recorded pairs, collected 2026-12). */
export const ESTIMATE_MODELS = ${ts(models)} as const satisfies Record<string, EstimateModel>;

/**
 * OpenAI framing OpenAI does not publish, in whole tokens, fitted per format: each tool call,
 * each message with parallel calls, each tool result, and \`tool_choice: "required"\`; and the
 * band of the parts of an OpenAI count that are estimated.
 */
export const OPENAI_FITTED_FRAMING = ${ts(framing)} as const;
`;
writeFileSync(join(root, "core/tokens/coefficients.ts"), coefficientsTs);
// The repository's formatter has the last word on layout (npm run check verifies it).
spawnSync(join(root, "node_modules/.bin/biome"), ["format", "--write", "core/tokens/coefficients.ts"], { cwd: root });
console.log(
  `calibration: refitted on ${corpus.pairs.filter((p) => p.excluded === null).length} usable pairs → coefficients.ts`,
);
console.table(lib.evaluate(corpus, { estimators: fitted, framing }));
