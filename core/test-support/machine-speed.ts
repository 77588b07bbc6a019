/**
 * How much slower than the calibrated speed this machine runs right now (≥ 1): 200,000 units of
 * plain expression work, assumed 0.1 µs each (see limits.ts), timed at its best of three. Tests of
 * time bounds on hostile input stretch their bound by this factor on a loaded shared machine; a
 * mispriced operation (the 10-1000x the hostile corpus was collected for) still fails them.
 */
import { renderJinjaTemplate } from "../templates/jinja/render.ts";

export function slowdown(): number {
  const template = "{% for i in range(100000) %}{% set x = i * 2 + 1 - i // 3 %}{% endfor %}";
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    try {
      renderJinjaTemplate(template, {}, { limits: { maxWork: 200_000 } });
    } catch {
      // the work limit, as intended
    }
    best = Math.min(best, performance.now() - start);
  }
  return Math.max(1, best / 20);
}
