/**
 * The work unit's calibration: for every kind of operation, the time one unit of charged work
 * takes. Each case runs until the work limit stops it at two limits; the difference of the two
 * times over the difference of the limits is its cost per unit (the fixed cost of converting the
 * arguments cancels out). Timed against the plainest work there is — expression nodes — measured
 * in the same run, so a loaded machine slows both alike: an operation that costs more than
 * FACTOR × a node's unit is mispriced (the default maxWork would take longer than assumed).
 * V8 in Node only: other engines differ in speed, and timing belongs to one engine's calibration.
 */
import { describe, expect, it } from "vitest";
import { TemplateLimitError } from "./limits.ts";
import { compileJinjaTemplate } from "./compile.ts";
import { renderCompiledJinjaTemplate } from "./render.ts";
import { WORK_CASES, type WorkCase, workArgs, workTemplate } from "./test-support/work-calibration.ts";

const g = globalThis as { process?: { release?: { name?: string } }; Bun?: unknown; Deno?: unknown };
const node = g.process?.release?.name === "node" && g.Bun === undefined && g.Deno === undefined;

/** How much dearer per unit than an expression node an operation may be (noise included). */
const FACTOR = 3;
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

const REFERENCE = WORK_CASES.find((c) => c.id === "arithmetic and set")!;

describe.skipIf(!node)("the work unit's calibration (Node)", () => {
  it(`prices every operation within ${FACTOR}× of an expression node's unit`, () => {
    timeToLimit(REFERENCE, HIGH); // warm up
    const reference = perUnit(REFERENCE);
    const dear: string[] = [];
    for (const c of WORK_CASES) {
      const cost = perUnit(c);
      // Measured twice before it counts as mispriced: one slow moment of a shared machine is not.
      if (cost > FACTOR * reference && perUnit(c) > FACTOR * perUnit(REFERENCE))
        dear.push(`${c.id}: ${cost.toFixed(3)} µs/unit vs ${reference.toFixed(3)}`);
    }
    expect(dear).toEqual([]);
  }, 300_000);
});
