// compareRequests on the shape that made window-shift detection quadratic: previous is
// [first, (user, assistant) × m, END-A], next is [(user, assistant) × m, END-B] — next looks like
// previous with its first message dropped until the very last message, so a search that restarts
// at every candidate offset walks the whole history once per offset.
import { measure } from "../measure.mjs";
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
  const medians = {};
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
    medians[n] = stats.strata;
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
  const [small, large] = sizes;
  const ratio = medians[large].median / medians[small].median;
  rows.push({
    group: "compare",
    name: "window-shift comparison, scaling",
    input: `${formatCount(small)} → ${formatCount(large)} msgs`,
    subject: `${formatStats(medians[large])} (${formatCount(large)})`,
    baselineName: `same at ${formatCount(small)} msgs`,
    baseline: formatStats(medians[small]),
    ratio,
    ratioText: `${ratio.toFixed(2)}× (linear = ${large / small}×)`,
    goal: { max: 1.2 * (large / small), text: `≤ ${1.2 * (large / small)}×` },
    profile: "compare-large",
    profileAgainst: "compare-small",
  });
  return rows;
}

export const profiles = {
  "compare-small": async ({ core, quick }) => {
    const t = windowShiftTurns(quick ? 2000 : 10000);
    return () => core.compareRequests(t.previous, t.next, OPTIONS);
  },
  "compare-large": async ({ core, quick }) => {
    const t = windowShiftTurns(quick ? 20000 : 100000);
    return () => core.compareRequests(t.previous, t.next, OPTIONS);
  },
};
