import {
  createInspection,
  type Inspection,
  type InspectionReport,
  type InspectOptions,
} from "../../core/inspect/index.ts";
import { estimateTextTokens } from "../../core/tokens/index.ts";
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
  const { first } = await inspectJob(job, listCap);
  return job.figuresOnly ? { ...first, request: null } : first;
}

/** A job's first report, and its whole report made from the same inspection (nothing is counted again). */
export interface StagedJob {
  /** Lists cut to the cap asked for. */
  readonly first: InspectionReport;
  /** Every list whole (`DEVTOOLS_LIST_CAP`). */
  readonly whole: () => InspectionReport;
}

/**
 * Runs one inspection (see `runInspectJob`) for a report in two steps: `first` with its lists cut to
 * `listCap`, quick to make and to send, then `whole` from the same analysis — only the lists are
 * made again, where a second inspection would parse, segment and count it all once more.
 */
export async function runStagedInspectJob(job: InspectJob, listCap: number): Promise<StagedJob> {
  const { inspection, first } = await inspectJob(job, listCap);
  return { first, whole: () => inspection.report(DEVTOOLS_LIST_CAP) };
}

interface Inspected {
  readonly inspection: Inspection;
  readonly first: InspectionReport;
}

/**
 * OpenAI's tokenizer for `job`, loaded before its inspection when its settings or its text name an
 * OpenAI model (only a hint: the report's provider decides, see `inspectJob`); null for the chars/4
 * estimator or another provider. The warm-up loads the tokenizer its jobs will use through this.
 */
export function expectedTokenizer(job: InspectJob): Promise<OpenAITokenizer | null> {
  const { settings } = job;
  if (settings.estimator === "quarter") return Promise.resolve(null);
  const hint =
    settings.provider === "auto" ? openaiModelHint(job.input) : settings.provider === "openai" ? settings.model : null;
  return hint !== null ? loadOpenAITokenizer(settings.model || hint) : Promise.resolve(null);
}

async function inspectJob(job: InspectJob, listCap: number): Promise<Inspected> {
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
  const run = async (tokenizer: OpenAITokenizer | null): Promise<Inspected> => {
    const inspection = await createInspection(job.input, tokenizer ? { ...options, tokenizer } : options);
    return { inspection, first: inspection.report(listCap) };
  };
  if (settings.estimator === "quarter") return run(null);
  let tokenizer = await expectedTokenizer(job);
  const inspected = await run(tokenizer);
  const { provider, model } = inspected.first;
  if (provider !== "openai") return tokenizer ? run(null) : inspected;
  // The request's own model picks the encoding (the hint may have named another one).
  if (tokenizer?.encoding === openaiEncoding(model)) return inspected;
  tokenizer = await loadOpenAITokenizer(model);
  return run(tokenizer);
}
