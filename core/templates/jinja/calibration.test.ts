/**
 * The work unit's calibration: for every kind of operation, the time one unit of charged work
 * takes. Each case runs until the work limit stops it at two limits; the difference of the two
 * times over the difference of the limits is its cost per unit (the fixed cost of converting the
 * arguments cancels out). The limits assume a unit costs about 0.1 µs (limits.ts), so that the
 * default maxWork is reached in about 150–250 ms whatever a template does: an operation dearer than
 * FACTOR × 0.1 µs per unit is mispriced. A loaded machine stretches the bound by its measured
 * slowdown (test-support/machine-speed.ts), checked again at each measurement.
 *
 * The bound was once FACTOR × an expression node's own unit, measured in the same run. Strata now
 * runs the library with its class fields assigned (vendor/), which made nodes about 5× cheaper
 * (~0.015–0.02 µs) while the dearest operations only halved (≤ 0.07 µs): every operation reaches
 * the limit sooner than before, but against the nodes they looked 3–5× dear.
 * V8 in Node only: other engines differ in speed, and timing belongs to one engine's calibration.
 */
import { describe, expect, it } from "vitest";
import { TemplateLimitError } from "./limits.ts";
import { compileJinjaTemplate } from "./compile.ts";
import { renderCompiledJinjaTemplate } from "./render.ts";
import { WORK_CASES, type WorkCase, workArgs, workTemplate } from "./test-support/work-calibration.ts";
import { slowdown } from "../../test-support/machine-speed.ts";

const g = globalThis as { process?: { release?: { name?: string } }; Bun?: unknown; Deno?: unknown };
const node = g.process?.release?.name === "node" && g.Bun === undefined && g.Deno === undefined;

/** How much dearer per unit than the assumed 0.1 µs an operation may be (noise included). */
const FACTOR = 2;
/** Microseconds one unit is assumed to cost on the calibrated machine (limits.ts). */
const UNIT_US = 0.1;
const LOW = 50_000;
const HIGH = 250_000;

function timeToLimit(c: WorkCase, maxWork: number): number {
  const compiled = compileJinjaTemplate(workTemplate(c), {
    limits: { maxWork, maxLoopIterations: 1e12, maxOutputChars: 1e8 },
  });
  const args = workArgs(c);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    try {
      renderCompiledJinjaTemplate(compiled, args);
      throw new Error(`${c.id}: finished without reaching the work limit`);
    } catch (error) {
      if (!(error instanceof TemplateLimitError) || error.limit !== "maxWork") throw error;
    }
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Microseconds per unit of work. */
function perUnit(c: WorkCase): number {
  return ((timeToLimit(c, HIGH) - timeToLimit(c, LOW)) * 1000) / (HIGH - LOW);
}

describe.skipIf(!node)("the work unit's calibration (Node)", () => {
  it(`prices every operation within ${FACTOR}× of the ${UNIT_US} µs unit the limits assume`, () => {
    timeToLimit(WORK_CASES[0]!, HIGH); // warm up
    const allowed = () => FACTOR * UNIT_US * slowdown();
    const dear: string[] = [];
    for (const c of WORK_CASES) {
      const cost = perUnit(c);
      const bound = allowed();
      // Measured twice before it counts as mispriced: one slow moment of a shared machine is not.
      if (cost > bound && perUnit(c) > allowed())
        dear.push(`${c.id}: ${cost.toFixed(3)} µs/unit vs ${bound.toFixed(3)}`);
    }
    expect(dear).toEqual([]);
  }, 300_000);
});
