/**
 * The report's `usage` section: what the provider reported for the request (`readUsage` on the
 * response body, SSE text or bare `usage` object) beside what the report predicted. Loaded by
 * `import()` only when `inspect` is given a response.
 */
import type { CacheSimulation } from "../cache/types.ts";
import type { RequestFormat } from "../request/parse-request.ts";
import { readUsage, type UsageFormat } from "../tokens/usage.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { ReportProblem, ReportTokens, ReportUsage } from "./types.ts";

/** The response format of a request: its own wire format, or (an assembled request) its provider's. */
function usageFormat(format: RequestFormat, tokens: ReportTokens, provider: string): UsageFormat {
  if (format !== "strata") return format;
  if (tokens.format !== null) return tokens.format;
  return provider === "openai" ? "openai-chat" : provider === "gemini" ? "gemini" : "anthropic";
}

const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

export function usageSection(
  response: unknown,
  format: RequestFormat,
  provider: string,
  tokens: ReportTokens,
  cache: CacheSimulation | null,
  warm: boolean,
  problems: ReportProblem[],
): ReportUsage {
  const fmt = usageFormat(format, tokens, provider);
  if (response === null || (typeof response !== "string" && typeof response !== "object"))
    throw new InvalidInputError(
      "response",
      "must be the provider's response: its JSON body (text or parsed), its SSE stream as text, or its usage object.",
    );
  const actual = readUsage(fmt, response);
  const last = cache?.turns[cache.turns.length - 1];
  const predicted = {
    input: tokens.total,
    low: tokens.low,
    high: tokens.high,
    method: tokens.method,
    cacheRead: last?.cachedReadTokens ?? 0,
    cacheWrite: last?.cacheWriteTokens ?? 0,
  };
  const notes: string[] = [];
  if (actual === null) {
    problems.push({
      stage: "usage",
      code: "usage_not_found",
      severity: "warning",
      message: `The response holds no ${fmt} usage: paste the whole response body (a stream needs its last event; OpenAI Chat streams report usage only with stream_options.include_usage), or its usage object.`,
      path: "response",
    });
    return { format: fmt, actual, predicted, difference: null, withinBand: null, notes };
  }
  const input = actual.input - predicted.input;
  const difference = {
    input,
    inputPct: actual.input === 0 ? null : Math.round((input / actual.input) * 1000) / 10,
    cacheRead: actual.cacheRead - predicted.cacheRead,
    cacheWrite: actual.cacheWrite - predicted.cacheWrite,
  };
  const withinBand =
    predicted.low === null || predicted.high === null
      ? null
      : actual.input >= predicted.low && actual.input <= predicted.high;
  if (!warm && actual.cacheRead > 0)
    notes.push(
      `The provider read ${grouped(actual.cacheRead)} tokens from its cache, written by an earlier request: the prediction assumes a cold cache. Give that request as the previous turn to simulate the read.`,
    );
  if (withinBand === false)
    notes.push(
      `The reported ${grouped(actual.input)} input tokens lie outside the predicted band ${grouped(predicted.low!)}–${grouped(predicted.high!)}.`,
    );
  return { format: fmt, actual, predicted, difference, withinBand, notes };
}
