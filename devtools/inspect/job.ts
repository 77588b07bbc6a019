import { inspect, type InspectionReport, type InspectOptions } from "../../core/inspect/index.ts";
import { estimateTextTokens, memoizedTokenizer } from "../../core/tokens/index.ts";
import type { OpenAITokenizer } from "../../core/tokenizers/openai/index.ts";
import { openaiEncoding } from "../../core/tokens/model-info.ts";
import { looksLikeBundle, parseBundle } from "../share/bundle.ts";
import { loadOpenAITokenizer, openaiModelHint } from "./estimator.ts";
import type { InspectJob } from "./protocol.ts";

/**
 * The previous-turn slot: empty, a fingerprint bundle (validated strictly here, so a "bundle"
 * carrying extra fields such as prompt text is refused), or request text for core to parse.
 */
function previousOption(text: string) {
  if (!/\S/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text; // core reports the syntax error under the `previous` stage
  }
  return looksLikeBundle(value) ? parseBundle(value) : text;
}

/**
 * The devtools keep every list whole: their views are virtualized and the report never leaves the
 * tab, so only a request past `maxItems` (refused with its own error) is too large to show.
 */
const DEVTOOLS_LIST_CAP = Number.MAX_SAFE_INTEGER;

/**
 * One memoized tokenizer per job and encoding: the worker inspects a job twice (its quick first
 * report, then the full one), and the second run then tokenizes nothing again. Kept only as long
 * as the job is.
 */
const jobTokenizers = new WeakMap<InspectJob, Map<string, OpenAITokenizer>>();

async function tokenizerFor(job: InspectJob, model: string): Promise<OpenAITokenizer> {
  const tokenizer = await loadOpenAITokenizer(model);
  let byEncoding = jobTokenizers.get(job);
  if (byEncoding === undefined) jobTokenizers.set(job, (byEncoding = new Map()));
  let memo = byEncoding.get(tokenizer.encoding);
  if (memo === undefined) byEncoding.set(tokenizer.encoding, (memo = memoizedTokenizer(tokenizer)));
  return memo;
}

/**
 * Runs one inspection. Used by the worker and, where workers are unavailable (tests), in the page.
 * Token figures: the specs' ÷4 when the user picks it, else core's counter — exact with OpenAI's
 * tokenizer for an OpenAI request (loaded on first use), an estimate otherwise. The tokenizer is
 * loaded before the inspection when the provider setting or the request's model says OpenAI, and
 * the report's provider decides: a wrong guess is inspected once more (never with a tokenizer
 * for another provider, which would add a mismatch note).
 * `listCap` cuts the report's lists (the worker's first, quick report); default every list whole.
 * A figures-only job's report comes without its request (see `InspectJob.figuresOnly`).
 */
export async function runInspectJob(job: InspectJob, listCap = DEVTOOLS_LIST_CAP): Promise<InspectionReport> {
  const report = await inspectJob(job, listCap);
  return job.figuresOnly ? { ...report, request: null } : report;
}

async function inspectJob(job: InspectJob, listCap: number): Promise<InspectionReport> {
  const { settings } = job;
  const previous = previousOption(job.previous);
  // The header's caps replace the request's own context budget; empty caps keep the request's.
  const contextBudget =
    settings.maxInputTokens !== null || settings.maxInputBytes !== null
      ? {
          ...(settings.maxInputTokens !== null ? { maxInputTokens: settings.maxInputTokens } : {}),
          ...(settings.maxInputBytes !== null ? { maxInputBytes: settings.maxInputBytes } : {}),
        }
      : undefined;
  const options: InspectOptions = {
    listCap,
    ...(settings.layout !== null ? { layout: settings.layout } : {}),
    ...(previous !== undefined ? { previous } : {}),
    ...(settings.provider !== "auto" ? { provider: settings.provider } : {}),
    ...(settings.model !== "" ? { model: settings.model } : {}),
    ...(settings.estimator === "quarter" ? { tokenEstimator: estimateTextTokens } : {}),
    ...(contextBudget ? { contextBudget: { ...contextBudget, reportOmissions: true } } : {}),
    ...(/\S/.test(job.response) ? { response: job.response } : {}),
  };
  const run = (tokenizer: OpenAITokenizer | null) =>
    inspect(job.input, tokenizer ? { ...options, tokenizer } : options);
  if (settings.estimator === "quarter") return run(null);
  const hint =
    settings.provider === "auto" ? openaiModelHint(job.input) : settings.provider === "openai" ? settings.model : null;
  let tokenizer = hint !== null ? await tokenizerFor(job, settings.model || hint) : null;
  const report = await run(tokenizer);
  if (report.provider !== "openai") return tokenizer ? run(null) : report;
  // The request's own model picks the encoding (the hint may have named another one).
  if (tokenizer?.encoding === openaiEncoding(report.model)) return report;
  tokenizer = await tokenizerFor(job, report.model);
  return run(tokenizer);
}
