import { inspect, type InspectionReport } from "../../core/inspect/index.ts";
import { looksLikeBundle, parseBundle } from "../share/bundle.ts";
import { loadGptTokenizer } from "./estimator.ts";
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
 * `listCap` cuts the report's lists (the worker's first, quick report); default every list whole.
 */
export async function runInspectJob(job: InspectJob, listCap = DEVTOOLS_LIST_CAP): Promise<InspectionReport> {
  const { settings } = job;
  const previous = previousOption(job.previous);
  const tokenEstimator = settings.estimator === "gpt-tokenizer" ? await loadGptTokenizer() : undefined;
  // The header's caps replace the request's own context budget; empty caps keep the request's.
  const contextBudget =
    settings.maxInputTokens !== null || settings.maxInputBytes !== null
      ? {
          ...(settings.maxInputTokens !== null ? { maxInputTokens: settings.maxInputTokens } : {}),
          ...(settings.maxInputBytes !== null ? { maxInputBytes: settings.maxInputBytes } : {}),
        }
      : undefined;
  return inspect(job.input, {
    listCap,
    ...(settings.layout !== null ? { layout: settings.layout } : {}),
    ...(previous !== undefined ? { previous } : {}),
    ...(settings.provider !== "auto" ? { provider: settings.provider } : {}),
    ...(settings.model !== "" ? { model: settings.model } : {}),
    ...(tokenEstimator ? { tokenEstimator } : {}),
    ...(contextBudget ? { contextBudget: { ...contextBudget, reportOmissions: true } } : {}),
  });
}
