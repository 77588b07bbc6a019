// Timing with tinybench, interleaved: a subject and its baseline run in alternating rounds
// (A B, B A, A B …) and their samples are pooled, so a burst of load from another process on
// this shared machine hits both sides instead of skewing the ratio.
import { Bench } from "tinybench";

/**
 * @typedef {{ min: number, median: number, max: number, samples: number }} Stats  milliseconds
 * @typedef {{ fn: () => unknown, async?: boolean }} Job
 */

/** Median of a sorted copy. */
function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** @returns {Stats} */
export function summarize(samples) {
  return { min: Math.min(...samples), median: median(samples), max: Math.max(...samples), samples: samples.length };
}

/** `stats` of samples that each ran `calls` calls in a row, as figures per call (`samples` unchanged). */
export const perCall = (stats, calls) => ({
  ...stats,
  min: stats.min / calls,
  median: stats.median / calls,
  max: stats.max / calls,
});

/**
 * Measures several jobs in the same process, interleaved by round.
 * @param {Record<string, Job | (() => unknown)>} jobs
 * @param {{ rounds: number, iterations: number, warmup: number }} plan
 *   per round: `warmup` unmeasured calls, then `iterations` measured calls of each job
 * @returns {Promise<Record<string, Stats>>}
 */
export async function measure(jobs, plan) {
  const names = Object.keys(jobs);
  const pooled = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const job = jobs[name];
      const fn = typeof job === "function" ? job : job.fn;
      const bench = new Bench({
        iterations: plan.iterations,
        time: 0,
        warmup: plan.warmup > 0,
        warmupIterations: plan.warmup,
        warmupTime: 0,
        retainSamples: true,
        throws: true,
      });
      bench.add(name, fn, typeof job === "object" && job.async !== undefined ? { async: job.async } : {});
      const [task] = await bench.run();
      const result = task.result;
      if (result.state !== "completed") throw new Error(`${name}: tinybench state ${result.state}`);
      pooled[name].push(...result.latency.samples);
    }
  }
  return Object.fromEntries(names.map((n) => [n, summarize(pooled[n])]));
}
