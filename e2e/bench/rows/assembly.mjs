// Assembly (time ÷ JSON.stringify of the result) and scaling (10× the history with a budget
// that evicts half: the time ratio shows whether assembly + eviction stay linear).
import { BENCH_MODEL, CURRENT_INPUT, SYSTEM_INSTRUCTIONS, generateHistory, generateTools } from "../inputs.mjs";
import { measure, perCall } from "../measure.mjs";
import { faultNote, faultsPerCall, formatBytes, formatCount, formatStats } from "../table.mjs";
import { missing, notAvailable, ratioRow, tokensOf } from "./common.mjs";

const tools = generateTools();

export function assemblyOptions(history, extra = {}) {
  return {
    model: BENCH_MODEL,
    input: CURRENT_INPUT,
    systemInstructions: SYSTEM_INSTRUCTIONS,
    history,
    tools,
    ...extra,
  };
}

/** A budget (÷4 tokens) that keeps instructions + input + about half of `history`. */
export function halfBudget(history) {
  return Math.floor(tokensOf(history) / 2) + 64;
}

export async function run({ core, quick }) {
  const absent = missing(core, ["assembleProviderInput"]);
  if (absent.length > 0) return [notAvailable("Assembly", "assembleProviderInput", "2,000 / 20,000 msgs", absent)];
  const rows = [];
  for (const [count, rounds, iterations] of quick
    ? [
        [2000, 1, 10],
        [20000, 1, 3],
      ]
    : [
        [2000, 3, 20],
        [20000, 3, 5],
      ]) {
    const history = generateHistory(count, { seed: count });
    const bytes = JSON.stringify(history).length;
    const options = assemblyOptions(history);
    const request = await core.assembleProviderInput(options);
    const stats = await measure(
      {
        strata: { fn: () => core.assembleProviderInput(options), async: true },
        stringify: () => JSON.stringify(request),
      },
      { rounds, iterations, warmup: Math.max(2, iterations >> 1) },
    );
    rows.push(
      ratioRow({
        group: "Assembly",
        name: "assembleProviderInput",
        input: `${formatCount(count)} msgs · ${formatBytes(bytes)}`,
        stats,
        subjectKey: "strata",
        baselineKey: "stringify",
        baselineName: "`JSON.stringify(result)`",
        goal: { max: 1.5, text: "≤ 1.5×" },
        profile: count === 2000 ? "assembly-1mb" : "assembly-10mb",
      }),
    );
  }
  return rows;
}

/** Options for `histories` different histories of `count` messages (seeds 11, 12, …), each with a budget that evicts about half. */
function scalingOptions(count, histories) {
  return Array.from({ length: histories }, (_, k) => {
    const history = generateHistory(count, { seed: 11 + k });
    return assemblyOptions(history, { contextBudget: { maxInputTokens: halfBudget(history) } });
  });
}

export async function runScaling({ core, quick }) {
  const absent = missing(core, ["assembleProviderInput"]);
  if (absent.length > 0)
    return [notAvailable("Scaling", "assembly + eviction of half", "10,000 vs 100,000 msgs", absent)];
  const [small, large] = quick ? [2000, 20000] : [10000, 100000];
  const plans = quick ? { rounds: 1, iterations: 3 } : { rounds: 4, iterations: 4 };
  // One sample of the small side is `large / small` calls in a row, so both sides' samples take
  // about as long and assemble as many messages: on a shared machine a short sample often runs
  // without being preempted and a long one never does, and a median of single small calls skips
  // the garbage collections that land in every large call. Its figures are shown per call.
  // The calls of a small sample assemble `batch` different histories (same generator, other
  // seeds), so both sides read as much distinct data per sample: ten calls on one 5 MB history
  // found it in the CPU caches from the call before, which the 50 MB history never is, and the
  // row then measured the caches (2.9 vs 5.1 ms per small call with identical code, by how busy
  // the host was) rather than how assembly scales.
  const batch = large / small;
  const jobs = {};
  const kept = {};
  for (const count of [small, large]) {
    const calls = count === small ? batch : 1;
    const options = scalingOptions(count, calls);
    const request = await core.assembleProviderInput(options[0]);
    kept[count] = request.messages.length - 2; // minus instructions and input
    jobs[count] = {
      fn: async () => {
        for (let k = 0; k < calls; k++) await core.assembleProviderInput(options[k]);
      },
      async: true,
    };
  }
  const measured = await measure(jobs, { ...plans, warmup: 2 });
  // Per assembly, after the timed rounds: the small side's calls take their memory from the young
  // generation; the large side's arrays of 100,000 entries are fresh pages every call.
  const faults = {};
  for (const count of [small, large])
    faults[count] = (await faultsPerCall(jobs[count].fn)) / (count === small ? batch : 1);
  const stats = { [small]: perCall(measured[small], batch), [large]: measured[large] };
  const ratio = stats[large].median / stats[small].median;
  return [
    {
      group: "Scaling",
      name: "assembleProviderInput + contextBudget (evicts ~half)",
      input: `${formatCount(small)} → ${formatCount(large)} msgs (kept ${formatCount(kept[small])} / ${formatCount(kept[large])})`,
      subject: `${formatStats(stats[large])} (${formatCount(large)})`,
      baselineName: `same at ${formatCount(small)} msgs (per call, timed ${batch} in a row on ${batch} histories)`,
      baseline: formatStats(stats[small]),
      ratio,
      ratioText: `${ratio.toFixed(2)}× (linear = ${large / small}×)`,
      // Linear is 10×; the goal leaves 5% for what a 10× larger heap costs (caches, garbage collection).
      goal: { max: 1.05 * (large / small), text: `≤ ${(1.05 * (large / small)).toFixed(1)}×` },
      note: `${faultNote(`${formatCount(large)} msgs`, faults[large])}; at ${formatCount(small)} msgs: ${formatCount(Math.round(faults[small]))}`,
      profile: "scaling-large",
      profileAgainst: "scaling-small",
    },
  ];
}

export const profiles = {
  "assembly-1mb": async ({ core }) => {
    const options = assemblyOptions(generateHistory(2000, { seed: 2000 }));
    return () => core.assembleProviderInput(options);
  },
  "assembly-10mb": async ({ core }) => {
    const options = assemblyOptions(generateHistory(20000, { seed: 20000 }));
    return () => core.assembleProviderInput(options);
  },
  // As in the row: each call takes the next of ten histories, so none is still in the caches.
  "scaling-small": async ({ core, quick }) => {
    const options = scalingOptions(quick ? 2000 : 10000, 10);
    let next = 0;
    return () => core.assembleProviderInput(options[next++ % options.length]);
  },
  "scaling-large": async ({ core, quick }) => {
    const [options] = scalingOptions(quick ? 20000 : 100000, 1);
    return () => core.assembleProviderInput(options);
  },
};
