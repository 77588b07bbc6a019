/** The error band of a count: calibrated estimates and media formulas' own ranges. */
import type { EstimateModel } from "./coefficients.ts";
import type { MediaCost } from "./media.ts";

export const mediaBand = (media: readonly MediaCost[]) => {
  let below = 0;
  let above = 0;
  for (const m of media) {
    below += m.tokens - m.low;
    above += m.high - m.tokens;
  }
  return { below, above };
};

/** `[low, high]` for a total whose `estimated` part is a calibrated estimate and whose media have their own ranges. */
export function band(
  total: number,
  estimated: number,
  b: EstimateModel["band"],
  media: { below: number; above: number },
): { low: number; high: number } {
  if (estimated <= 0 && media.below === 0 && media.above === 0) return { low: total, high: total };
  const below = estimated > 0 ? estimated * b.below + b.slack : 0;
  const above = estimated > 0 ? estimated * b.above + b.slack : 0;
  return {
    low: Math.max(0, Math.floor(total - below - media.below)),
    high: Math.ceil(total + above + media.above),
  };
}
