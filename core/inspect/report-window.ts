/**
 * The report's `window` section: the request against its model's context window, from the model
 * table (`findModel`, formats/models.ts). OpenAI and Anthropic count the output cap against the
 * window (Anthropic: "the sum of prompt tokens and max_tokens" may not exceed it); Gemini limits
 * input tokens alone (its output limit is separate).
 */
import type { CacheProvider } from "../cache/types.ts";
import { MODEL_SOURCES, findModel, type ModelRow, type ModelSourceId } from "../formats/models.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ReportModelRow, ReportProblem, ReportWindow } from "./types.ts";

/** `1234567` → `1,234,567` (fixed, locale-free). */
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const OUTPUT_FIELDS = ["max_completion_tokens", "max_tokens", "max_output_tokens"] as const;

/** The request's own output cap and the field it sits in. */
function outputCap(request: NormalizedRequest): { value: number; field: string } | null {
  const o = request.providerOptions ?? {};
  for (const f of OUTPUT_FIELDS) {
    const v = o[f];
    if (typeof v === "number" && Number.isFinite(v)) return { value: v, field: f };
  }
  const g = o["generationConfig"];
  if (g !== null && typeof g === "object" && !Array.isArray(g)) {
    const v = (g as Record<string, unknown>)["maxOutputTokens"];
    if (typeof v === "number" && Number.isFinite(v)) return { value: v, field: "generationConfig.maxOutputTokens" };
  }
  return null;
}

function rowOf(row: ModelRow, matched: ReportModelRow["matched"]): ReportModelRow {
  return {
    id: row.id,
    family: row.family,
    provider: row.provider,
    contextWindow: row.contextWindow,
    maxOutputTokens: row.maxOutputTokens,
    matched,
    sources: row.sources.map((s: ModelSourceId) => MODEL_SOURCES[s]),
  };
}

export function reportWindow(
  request: NormalizedRequest,
  model: string,
  provider: CacheProvider,
  inputTokens: number,
  problems: ReportProblem[],
): ReportWindow {
  const cap = outputCap(request);
  const outputCounts = provider !== "gemini";
  const usedTokens = inputTokens + (outputCounts && cap ? cap.value : 0);
  const base = {
    model,
    inputTokens,
    maxOutputTokens: cap?.value ?? null,
    maxOutputField: cap?.field ?? null,
    outputCounts,
    usedTokens,
  };
  if (model === "") {
    problems.push({
      stage: "cache",
      code: "missing_model",
      severity: "warning",
      message:
        "The request names no model (a Gemini body carries it in the URL): pick one in the header's Model field, so cache rules and the context window apply.",
      path: "model",
    });
    return { ...base, row: null, nearest: [], usedRatio: null, summary: "The request names no model: pick one." };
  }
  const found = findModel(model, provider);
  if (found.row === null) {
    const nearest = found.nearest.map((r) => rowOf(r, null));
    return {
      ...base,
      row: null,
      nearest,
      usedRatio: null,
      summary: `${model} is not in the model table${nearest.length > 0 ? `; nearest: ${nearest.map((r) => r.family).join(", ")}` : ""}.`,
    };
  }
  const row = rowOf(found.row, found.matched);
  const usedRatio = Math.round((usedTokens / row.contextWindow) * 10_000) / 10_000;
  const reserved = cap
    ? outputCounts
      ? `, with ${cap.field} ${grouped(cap.value)} reserved`
      : ` (${cap.field} ${grouped(cap.value)} is limited apart)`
    : "";
  const summary = `uses ${Math.round(usedRatio * 100)}% of ${model}'s ${grouped(row.contextWindow)}-token window${reserved}`;
  if (usedTokens > row.contextWindow)
    problems.push({
      stage: "budget",
      code: "context_window_exceeded",
      severity: "error",
      message: `The request needs ${grouped(usedTokens)} tokens (${grouped(inputTokens)} input${outputCounts && cap ? ` + ${grouped(cap.value)} ${cap.field}` : ""}) but ${model}'s window is ${grouped(row.contextWindow)}: the provider rejects it. Trim ${grouped(usedTokens - row.contextWindow)} tokens (a context budget in the header shows what to drop).`,
      path: null,
    });
  return { ...base, row, nearest: [], usedRatio, summary };
}
