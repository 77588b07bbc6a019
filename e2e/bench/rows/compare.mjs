// compareRequests on the shape that made window-shift detection quadratic: previous is
// [first, (user, assistant) × m, END-A], next is [(user, assistant) × m, END-B] — next looks like
// previous with its first message dropped until the very last message, so a search that restarts
// at every candidate offset walks the whole history once per offset.
import { measure, perCall } from "../measure.mjs";
import { formatBytes, formatCount, formatStats } from "../table.mjs";
import { missing, notAvailable, ratioRow } from "./common.mjs";

const OPTIONS = { provider: "openai" };

/** The two turns as Strata requests (objects) and as JSON text. */
export function windowShiftTurns(messages) {
  const pairs = Math.max(1, Math.floor((messages - 2) / 2));
  const msg = (role, text) => ({ role, content: [{ type: "text", text }] });
  const history = [];
  for (let i = 0; i < pairs; i++) history.push(msg("user", "Same question?"), msg("assistant", "Same answer."));
  const base = { model: { provider: "openai", model: "gpt-4o" }, tools: [] };
  const previous = { ...base, messages: [msg("user", "The first message."), ...history, msg("user", "END-A")] };
  const next = { ...base, messages: [...history, msg("user", "END-B")] };
  return { previous, next, previousText: JSON.stringify(previous), nextText: JSON.stringify(next) };
}

export async function run({ core, quick }) {
  const sizes = quick ? [2000, 20000] : [10000, 100000];
  const absent = missing(core, ["compareRequests"]);
  if (absent.length > 0)
    return sizes.map((n) => notAvailable("compare", "window-shift shape", `${formatCount(n)} msgs`, absent));
  const rows = [];
  for (const n of sizes) {
    const t = windowShiftTurns(n);
    const cause = core.compareRequests(t.previous, t.next, OPTIONS).divergence?.cause;
    const stats = await measure(
      {
        strata: () => core.compareRequests(t.previous, t.next, OPTIONS),
        parse: () => [JSON.parse(t.previousText), JSON.parse(t.nextText)],
      },
      quick ? { rounds: 1, iterations: 2, warmup: 1 } : { rounds: 3, iterations: n > 10000 ? 2 : 5, warmup: 1 },
    );
    rows.push(
      ratioRow({
        group: "compare",
        name: '`compareRequests(previous, next, { provider: "openai" })`',
        input: `window-shift shape · ${formatCount(t.previous.messages.length)} msgs · ${formatBytes(t.previousText.length + t.nextText.length)} both (cause ${cause})`,
        stats,
        subjectKey: "strata",
        baselineKey: "parse",
        baselineName: "`JSON.parse` of both texts",
        goal: { max: 8, text: "≤ 8×" },
        profile: n === sizes[0] ? "compare-small" : "compare-large",
      }),
    );
  }
  // The scaling row times its own samples, as the assembly scaling row does (rows/assembly.mjs):
  // one sample of the small side is `large / small` comparisons in a row, of as many different
  // pairs of turns (distinct objects), so both sides' samples compare as many messages and take
  // their share of garbage collection. A single 10,000-message comparison ran in 8.4 ms when no
  // scavenge landed in it and ~16 ms when one did, and the median of 15 such samples fell on
  // either side from run to run: the row read 12.0× to 24.4× with the same code (2026-12-04).
  const [small, large] = sizes;
  const batch = large / small;
  const pairs = Array.from({ length: batch }, () => windowShiftTurns(small));
  const largePair = windowShiftTurns(large);
  const scaled = await measure(
    {
      [small]: () => {
        for (const t of pairs) core.compareRequests(t.previous, t.next, OPTIONS);
      },
      [large]: () => core.compareRequests(largePair.previous, largePair.next, OPTIONS),
    },
    quick ? { rounds: 1, iterations: 2, warmup: 1 } : { rounds: 4, iterations: 3, warmup: 1 },
  );
  const stats = { [small]: perCall(scaled[small], batch), [large]: scaled[large] };
  const ratio = stats[large].median / stats[small].median;
  rows.push({
    group: "compare",
    name: "window-shift comparison, scaling",
    input: `${formatCount(small)} → ${formatCount(large)} msgs`,
    subject: `${formatStats(stats[large])} (${formatCount(large)})`,
    baselineName: `same at ${formatCount(small)} msgs (per call, timed ${batch} in a row on ${batch} pairs of turns)`,
    baseline: formatStats(stats[small]),
    ratio,
    ratioText: `${ratio.toFixed(2)}× (linear = ${large / small}×)`,
    goal: { max: 1.2 * (large / small), text: `≤ ${1.2 * (large / small)}×` },
    profile: "compare-large",
    profileAgainst: "compare-small",
  });
  return rows;
}

export const profiles = {
  // As in the scaling row: each call takes the next of ten pairs of turns.
  "compare-small": async ({ core, quick }) => {
    const pairs = Array.from({ length: 10 }, () => windowShiftTurns(quick ? 2000 : 10000));
    let next = 0;
    return () => {
      const t = pairs[next++ % pairs.length];
      return core.compareRequests(t.previous, t.next, OPTIONS);
    };
  },
  "compare-large": async ({ core, quick }) => {
    const t = windowShiftTurns(quick ? 20000 : 100000);
    return () => core.compareRequests(t.previous, t.next, OPTIONS);
  },
};
