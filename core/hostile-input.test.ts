/**
 * The hostile corpus (test-support/samples-hostile.ts) through `inspect`, in every runtime: each
 * body gets a report or a typed error in bounded time (2 s at the calibrated speed here; the 1 s
 * goal is held by the bench), and no prototype is polluted. The suite runs
 * each runtime in a child process with a time limit, so a hang fails instead of stalling; the
 * edge worker test POSTs the same bodies into workerd with a per-request timeout.
 */
import { describe, expect, it } from "vitest";
import { inspect } from "./inspect/index.ts";
import { slowdown } from "./test-support/machine-speed.ts";
import { StrataError } from "./util/errors.ts";
import { type HostileSample, hostileComparisonSamples, hostileSamples } from "./test-support/samples-hostile.ts";

/**
 * The goal is 1 s per sample, and `npm run bench` (hostile rows) holds every sample to it. This
 * test is there for the 10–1000× blowups the corpus was collected for, on a shared machine where
 * other suites run at the same time: twice the goal, stretched by the machine's measured slowdown.
 */
const BOUND_MS = 2_000;

/** Report size limit: at most 4× the request bytes plus this constant. */
const REPORT_SLACK = 65_536;

async function outcome(sample: HostileSample, body: string, previous: string | undefined) {
  const start = performance.now();
  try {
    const report = await inspect(body, previous === undefined ? {} : { previous });
    const ms = performance.now() - start;
    return {
      ms,
      problems: report.problems.map((p) => p.code),
      history: report.history.issues.map((i) => i.code),
      error: undefined,
      reportChars: JSON.stringify(report).length,
    };
  } catch (error) {
    return { ms: performance.now() - start, problems: [], history: [], error, reportChars: 0 };
  }
}

describe("hostile requests", () => {
  it.each([...hostileSamples, ...hostileComparisonSamples].map((s) => [s.id, s] as const))(
    "%s: a typed outcome in bounded time",
    async (_id, sample) => {
      const body = sample.body();
      const previous = sample.previous?.();
      // The machine's speed around the run (before and after): load on a shared machine changes fast.
      const timed = async () => {
        const before = slowdown();
        const result = await outcome(sample, body, previous);
        return { ...result, bound: BOUND_MS * Math.max(before, slowdown()) };
      };
      let result = await timed();
      // A shared machine can stall one run; a second run over the bound is a real failure.
      if (result.ms > result.bound) result = await timed();
      const bound = result.bound;
      if (result.error !== undefined) {
        expect(result.error).toBeInstanceOf(StrataError);
        expect(sample.expect.throws ?? []).toContain((result.error as StrataError).code);
      } else if ((sample.expect.problems ?? []).length > 0) {
        expect(
          result.problems.some((code) => sample.expect.problems!.includes(code)),
          result.problems.join(),
        ).toBe(true);
      }
      if (sample.expect.history) {
        expect(result.error).toBeUndefined();
        expect(new Set(result.history)).toEqual(new Set([...result.history, ...sample.expect.history]));
      }
      expect(result.ms, `bound ${Math.round(bound)} ms`).toBeLessThan(bound);
      // A report is a small multiple of what it reports on (of both turns with a previous one).
      expect(result.reportChars).toBeLessThanOrEqual(4 * (body.length + (previous?.length ?? 0)) + REPORT_SLACK);
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
    },
    30_000,
  );
});
