// Token counts: accuracy of `countRequestTokens` on the held-out half of the calibration corpus
// (core/tokens/calibration/corpus.json: real requests with the usage their provider reported),
// beside the old ÷4 figure; and counting speed on a 1 MB request with and without OpenAI's
// tokenizer, against `JSON.parse` of the same body.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../core-bundle.mjs";
import { generateOpenAIChatTurns } from "../inputs.mjs";
import { measure } from "../measure.mjs";
import { formatBytes, formatCount } from "../table.mjs";
import { ratioRow } from "./common.mjs";

const MB = 1024 * 1024;

/** The tokens layer is not a package entry of its own yet: bundle what the rows need. */
async function loadTokens() {
  const contents = [
    `export { countRequestTokens, ESTIMATE_MODELS } from "./core/tokens/index.ts";`,
    `export { OPENAI_FITTED_FRAMING } from "./core/tokens/coefficients.ts";`,
    `export { evaluate } from "./core/tokens/calibration/fit.ts";`,
    `export { createOpenAITokenizer } from "./core/tokenizers/openai/index.ts";`,
    `export { parseWireRequest } from "./core/formats/index.ts";`,
    `export { evaluateCacheTurns } from "./core/cache/calibration/evaluate.ts";`,
  ].join("\n");
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: "bench-tokens.ts", loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    logLevel: "error",
  });
  const url = `data:text/javascript;base64,${Buffer.from(result.outputFiles[0].contents).toString("base64")}`;
  return import(url);
}

const pct = (v) => `${(v * 100).toFixed(1)}%`;

/** The goals of the issue per group: median, p90, share inside the band. */
const GOALS = {
  "openai exact, text only": { median: 0.01, p90: null, inBand: 0.9, text: "≤ 1% median, ≥ 90% in band" },
  anthropic: { median: 0.08, p90: 0.15, inBand: 0.9, text: "≤ 8% median, ≤ 15% p90, ≥ 90% in band" },
  gemini: { median: 0.08, p90: 0.15, inBand: 0.9, text: "≤ 8% median, ≤ 15% p90, ≥ 90% in band" },
  "gemini 2.5 and later": { median: 0.08, p90: 0.15, inBand: 0.9, text: "≤ 8% median, ≤ 15% p90, ≥ 90% in band" },
};

function accuracyRows(t) {
  const corpus = JSON.parse(readFileSync(join(root, "core/tokens/calibration/corpus.json"), "utf8"));
  const acc = t.evaluate(corpus, { estimators: t.ESTIMATE_MODELS, framing: t.OPENAI_FITTED_FRAMING });
  return Object.entries(acc).map(([group, a]) => {
    const goal = GOALS[group];
    // One ratio for the verdict: the worst of the three figures against its goal.
    const ratio = goal
      ? Math.max(
          goal.median === 0 ? 0 : a.medianError / goal.median,
          goal.p90 === null ? 0 : a.p90Error / goal.p90,
          goal.inBand / Math.max(a.inBand, 1e-9),
        )
      : undefined;
    return {
      group: "Tokens",
      name: `accuracy: ${group}`,
      input: `${formatCount(a.pairs)} held-out recorded requests`,
      subject: `median ${pct(a.medianError)} · p90 ${pct(a.p90Error)} · ${pct(a.inBand)} inside [low, high]`,
      baselineName: "old ÷4 figure (same requests)",
      baseline: `median ${pct(a.quarterMedianError)} · p90 ${pct(a.quarterP90Error)}`,
      ...(ratio === undefined ? {} : { ratio, goal: { max: 1, text: goal.text } }),
    };
  });
}

/**
 * The simulator as it was before it counted with countRequestTokens and stepped OpenAI reads by
 * 128 tokens (simulate.ts at 358f52c, ÷4 per segment), replayed on the same fixture turns
 * (CACHE_TURNS_QUARTER=1 node e2e/calibration/cache-turns.mjs, measured 2026-12-01).
 */
const CACHE_BEFORE = {
  Anthropic: { agreement: 0.9658, medianError: 0.2335 },
  Gemini: { agreement: 0.9275, medianError: 1 },
  "OpenAI Chat": { agreement: 0.9471, medianError: 0.6753 },
  "OpenAI Responses": { agreement: 0.965, medianError: 0.6923 },
};

/** Per provider: hit/miss agreement on recorded consecutive turns, and the median error where the provider read. */
function cacheRows(t) {
  const fixture = JSON.parse(readFileSync(join(root, "core/cache/calibration/cache-turns.json"), "utf8"));
  const acc = t.evaluateCacheTurns(fixture);
  return Object.entries(acc).map(([group, a]) => {
    const before = CACHE_BEFORE[group];
    return {
      group: "Tokens",
      name: `cache simulator vs recorded cache reads: ${group}`,
      input: `${formatCount(a.turns)} consecutive turns (${formatCount(a.eligible)} at or above the minimum, ${formatCount(a.hits)} read from cache)`,
      subject: `agreement ${pct(a.agreement)} (${pct(a.eligibleAgreement)} at/above the minimum) · median error ${pct(a.medianError)} where read`,
      baselineName: "simulator before (÷4 counts, no 128-token steps)",
      baseline: before ? `agreement ${pct(before.agreement)} · median error ${pct(before.medianError)}` : "—",
      ratio: Math.max(0.95 / Math.max(a.agreement, 1e-9), a.hits === 0 ? 0 : a.medianError / 0.1),
      goal: { max: 1, text: "≥ 95% agreement, ≤ 10% median error" },
    };
  });
}

export async function run({ quick }) {
  const t = await loadTokens();
  const rows = [...accuracyRows(t), ...cacheRows(t)];
  const turns = generateOpenAIChatTurns(1 * MB);
  const { request } = t.parseWireRequest(turns.current);
  const tokenizer = await t.createOpenAITokenizer("gpt-4o");
  const plan = quick ? { rounds: 1, iterations: 3, warmup: 1 } : { rounds: 3, iterations: 5, warmup: 1 };
  const stats = await measure(
    {
      exact: () => t.countRequestTokens(request, { provider: "openai", tokenizer }),
      estimate: () => t.countRequestTokens(request, { provider: "anthropic" }),
      parse: () => JSON.parse(turns.current),
    },
    plan,
  );
  const input = `OpenAI Chat request · ${formatBytes(turns.current.length)} · ${formatCount(turns.messages)} msgs`;
  rows.push(
    ratioRow({
      group: "Tokens",
      name: '`countRequestTokens` with OpenAI\'s tokenizer (`provider: "openai"`, exact)',
      input,
      stats,
      subjectKey: "exact",
      baselineKey: "parse",
      baselineName: "`JSON.parse` of the body",
    }),
    ratioRow({
      group: "Tokens",
      name: '`countRequestTokens` estimate (`provider: "anthropic"`, no tokenizer)',
      input,
      stats,
      subjectKey: "estimate",
      baselineKey: "parse",
      baselineName: "`JSON.parse` of the body",
    }),
  );
  return rows;
}

export const profiles = {};
