/**
 * What a turn costs, from the model table's prices (`findModel`, USD per 1M tokens at the standard
 * tier; dated and sourced in formats/models.ts): uncached input, cache writes by lifetime (Anthropic
 * 5-minute and 1-hour rates, OpenAI GPT-5.6's write price; elsewhere writes cost the input price),
 * cache reads (Gemini: the implicit-cache price) and output. A request above a row's long-context
 * threshold is priced at the long-context rates, for the whole request, as the providers bill it.
 */
import type { CacheProvider } from "../cache/types.ts";
import { findModel, type ModelPrices } from "../formats/models.ts";
import type { TurnCost } from "./types.ts";

export interface CostTokens {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly cacheWrite1h: number;
  readonly output: number;
}

/** The prices of `model`, or null when the table has no row for it. */
export function pricesFor(model: string, provider: CacheProvider): ModelPrices | null {
  const found = findModel(model, provider);
  return found.row ? found.row.prices : null;
}

/** USD to 9 decimals (a billionth of a dollar): no float noise such as 0.30000000000000004 in the report. */
export const usd = (x: number) => Math.round(x * 1e9) / 1e9;

export function turnCost(prices: ModelPrices, tokens: CostTokens, basis: TurnCost["basis"]): TurnCost {
  const long = prices.longContext && tokens.input > prices.longContext.aboveInputTokens ? prices.longContext : null;
  const input = long?.input ?? prices.input;
  const output = long?.output ?? prices.output;
  const read = long?.cacheRead ?? prices.implicitCacheRead ?? prices.cacheRead ?? input;
  const write5m = long?.cacheWrite5m ?? long?.cacheWrite ?? prices.cacheWrite5m ?? prices.cacheWrite ?? input;
  const write1h = long?.cacheWrite1h ?? prices.cacheWrite1h ?? write5m;
  const uncached = Math.max(0, tokens.input - tokens.cacheRead - tokens.cacheWrite);
  const parts = {
    input: (uncached * input) / 1e6,
    cacheWrite: ((tokens.cacheWrite - tokens.cacheWrite1h) * write5m + tokens.cacheWrite1h * write1h) / 1e6,
    cacheRead: (tokens.cacheRead * read) / 1e6,
    output: (tokens.output * output) / 1e6,
  };
  return {
    basis,
    input: usd(parts.input),
    cacheWrite: usd(parts.cacheWrite),
    cacheRead: usd(parts.cacheRead),
    output: usd(parts.output),
    total: usd(parts.input + parts.cacheWrite + parts.cacheRead + parts.output),
    withoutCaching: usd((tokens.input * input + tokens.output * output) / 1e6),
  };
}
