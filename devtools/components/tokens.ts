/**
 * Token figures as the report counted them: every figure says whether it is exact or an estimate.
 * An estimate carries the request's relative band (`report.tokens.band`, the ± of every figure):
 * `≈ 1,240 ± 6%`; an exact count reads `1,240 exact`; a custom estimator (chars/4) has no band.
 */
import type { InspectionReport } from "../../core/inspect/index.ts";
import { fmtInt } from "./format.ts";

type Tokens = InspectionReport["tokens"];

/** `± 6%` for an estimate with a band, "" otherwise. */
export function bandText(t: Tokens): string {
  if (!t || t.method === "exact" || t.band === null) return "";
  const pct = Math.round(t.band * 100);
  return pct === 0 ? "± <1%" : `± ${pct}%`;
}

/** One token figure: `1,240 exact`, `≈ 1,240 ± 6%`, or `≈ 1,240` (chars/4). */
export function fmtTokens(n: number, t: Tokens): string {
  if (t?.method === "exact") return `${fmtInt(n)} exact`;
  const band = bandText(t);
  return `≈ ${fmtInt(n)}${band ? ` ${band}` : ""}`;
}

/** A figure with its unit: `1,240 tokens (exact)`, `≈ 1,240 ± 6% tokens`. */
export function fmtTokenCount(n: number, t: Tokens): string {
  return t?.method === "exact" ? `${fmtInt(n)} tokens (exact)` : `${fmtTokens(n, t)} tokens`;
}

/** For a table's column head: `exact` or `≈ ± 6%` (or `≈ chars/4`). */
export function tokenColumn(t: Tokens): string {
  if (t?.method === "exact") return "exact";
  if (t?.counter === "tokenEstimator") return "≈ chars/4";
  const band = bandText(t);
  return band ? `≈ ${band}` : "≈";
}

const PROVIDER_BASIS: Record<string, string> = {
  openai: "calibrated for OpenAI (exact needs its tokenizer, loaded for OpenAI models)",
  anthropic: "calibrated for Anthropic (Claude has no client-side tokenizer)",
  gemini: "calibrated for Gemini (no client-side tokenizer)",
};

/** How the figures were counted, in one line. */
export function tokenBasis(report: InspectionReport): string {
  const t = report.tokens;
  if (!t) return "No request to count.";
  if (t.counter === "tokenEstimator") return "Token figures are chars/4 estimates (ceil(UTF-16 length / 4)), no band.";
  if (t.method === "exact")
    return `Token figures are exact: OpenAI's ${t.encoding ?? "tokenizer"} with the ${t.format ?? "provider's"} framing.`;
  const range =
    t.low !== null && t.high !== null
      ? `; the billed count is ${fmtInt(t.low)}–${fmtInt(t.high)} for about 9 requests in 10`
      : "";
  return `Token figures are estimates ${bandText(t)}, ${PROVIDER_BASIS[report.provider] ?? "calibrated"}${range}.`;
}
