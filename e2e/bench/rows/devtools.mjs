// Devtools rows: runs e2e/bench/devtools.mjs (Playwright + headless Chromium against
// `vite preview` of dist-site/) in a child process and turns its JSON into table rows.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "../core-bundle.mjs";
import { summarize } from "../measure.mjs";
import { formatBytes, formatMs, formatStats } from "../table.mjs";

const GROUP = "Devtools";

/** Goals by size (MB): paste → every view rendered (median ms), and the longest main-thread task. */
const PASTE_GOALS = { 5: { max: 400, text: "≤ 0.4 s" }, 20: { max: 1200, text: "≤ 1.2 s" } };
const LONG_TASK_GOALS = { 20: { max: 100, text: "≤ 100 ms" } };

/** The phases of a paste (devtools.mjs `pastePhases`), in the order they come. */
const PHASES = [
  ["clipboard", "clipboard (the browser)"],
  ["beforePost", "page until the job is posted"],
  ["messages", "messages to the worker and back"],
  ["worker", "the worker's inspect"],
  ["painted", "report received → painted"],
];

/** "where the time goes": each phase's median over the pastes (medians of parts need not add up to the whole's). */
function phaseNote(phases) {
  const parts = PHASES.map(([key, label]) => `${label} ${formatMs(summarize(phases.map((p) => p[key])).median)}`);
  return `where the time goes, median of each phase over ${phases.length} pastes: ${parts.join(" · ")}`;
}

export async function run({ quick, skipBuild }) {
  const args = [
    join(root, "e2e/bench/devtools.mjs"),
    ...(quick ? ["--quick"] : []),
    ...(skipBuild ? ["--skip-build"] : []),
  ];
  const child = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  let out;
  try {
    out = JSON.parse(child.stdout);
  } catch {
    out = { ok: false, error: `devtools.mjs printed no JSON (exit ${child.status})` };
  }
  if (!out.ok) {
    const reason = String(out.error).split("\n")[0];
    return [
      {
        group: GROUP,
        name: "paste-to-rendered / view-switch",
        input: "1 MB, 5 MB",
        subject: `n/a (${reason})`,
        verdict: "n/a",
      },
    ];
  }
  const rows = [];
  for (const r of out.results) {
    if (r.error) {
      rows.push({
        group: GROUP,
        name: "paste-to-rendered / view-switch",
        input: `${r.mb} MB OpenAI Chat request`,
        subject: `n/a (${r.error})`,
        verdict: "n/a",
      });
      continue;
    }
    const input = `OpenAI Chat request · ${formatBytes(r.bytes)} · headless Chromium`;
    const parse = r.parse ? summarize(r.parse) : undefined;
    const floor = parse
      ? { baselineName: "`JSON.parse` of the same text, same page", baseline: formatStats(parse) }
      : {};
    if (r.missing) {
      rows.push({
        group: GROUP,
        name: "paste-to-rendered",
        input,
        subject: "n/a (devtools marks missing)",
        verdict: "n/a",
      });
      rows.push({ group: GROUP, name: "view-switch", input, subject: "n/a (devtools marks missing)", verdict: "n/a" });
      continue;
    }
    const paste = summarize(r.pastes);
    const pasteGoal = PASTE_GOALS[r.mb];
    rows.push({
      group: GROUP,
      name: "paste-to-rendered",
      input,
      subject: formatStats(paste),
      ...floor,
      ...(parse ? { ratio: paste.median / parse.median } : {}),
      ...(pasteGoal ? { goal: pasteGoal, measured: paste.median } : {}),
      ...(r.phases?.length > 0 ? { note: `${formatBytes(r.bytes)}: ${phaseNote(r.phases)}` } : {}),
    });
    if (r.clipboard?.length > 0) {
      const clipboard = summarize(r.clipboard);
      const task = r.clipboardLongest?.length > 0 ? summarize(r.clipboardLongest).median : undefined;
      rows.push({
        group: GROUP,
        name: "clipboard read alone (`navigator.clipboard.readText()`, as the app reads a paste)",
        input,
        subject: formatStats(clipboard),
        note:
          `${formatBytes(r.bytes)}: the browser hands over the pasted text in ${formatMs(clipboard.median)} (median), ${Math.round((100 * clipboard.median) / paste.median)}% of paste-to-rendered, before the app sees a byte` +
          (task === undefined
            ? ""
            : task === 0
              ? "; no main-thread task over 50 ms"
              : `; its longest main-thread task alone: ${formatMs(task)} (median), the page making the string`),
      });
    }
    if (r.longest?.length > 0) {
      const longest = summarize(r.longest);
      const taskGoal = LONG_TASK_GOALS[r.mb];
      const blocked = `main thread blocked by long tasks (> 50 ms) for ${formatMs(summarize(r.blocked).median)} per paste (median)`;
      if (r.longestApp?.length > 0) {
        // The goal is the app's: the task that makes the pasted string is the browser's, the same
        // for any page that reads the paste (its own row above shows it read alone).
        const app = summarize(r.longestApp);
        rows.push({
          group: GROUP,
          name: "longest main-thread task of the app, from the pasted text's arrival (`strata:paste-read`) to rendered",
          input,
          subject: formatStats(app),
          ...(taskGoal ? { goal: taskGoal, measured: app.median } : {}),
          note: `${formatBytes(r.bytes)}: tasks over 50 ms only (0: none; a task the text arrived in counts from the mark on); before the text arrived, the browser's own task making the string took ${formatMs(summarize(r.longestBrowser).median)} (median); longest task of the whole paste ${formatMs(longest.median)}; ${blocked}`,
        });
      } else {
        rows.push({
          group: GROUP,
          name: "longest main-thread task, paste to rendered",
          input,
          subject: formatStats(longest),
          ...(taskGoal ? { goal: taskGoal, measured: longest.median } : {}),
          note: `${formatBytes(r.bytes)}: ${blocked} (the app did not mark the text's arrival: the browser's share is not told apart)`,
        });
      }
    }
    if (r.whole?.length > 0) {
      const worker = r.wholeWorker?.length > 0 ? summarize(r.wholeWorker) : undefined;
      rows.push({
        group: GROUP,
        name: "whole report: job posted to the worker → the whole report received (it follows the first, lists cut at 1,000)",
        input,
        subject: formatStats(summarize(r.whole)),
        note:
          `${formatBytes(r.bytes)}: the first report's inspection reported again with every list whole (\`createInspection\`), not a second inspection` +
          (worker ? `; the worker made it in ${formatMs(worker.median)} (median)` : "") +
          (r.wholeLongest?.length > 0
            ? `; longest main-thread task from the first report rendered until the whole report was in: ${formatMs(summarize(r.wholeLongest).median)} (median), ${formatMs(Math.max(...r.wholeLongest))} (max)`
            : ""),
      });
    }
    const all = Object.values(r.switches).flat();
    if (r.switchMissing || all.length === 0) {
      rows.push({ group: GROUP, name: "view-switch", input, subject: "n/a (devtools marks missing)", verdict: "n/a" });
    } else {
      const perView = Object.entries(r.switches)
        .map(([name, d]) => `${name.replace(/^(view-tab-|nav-)/, "")} ${formatMs(summarize(d).median)}`)
        .join(", ");
      rows.push({
        group: GROUP,
        name: "view-switch (all views pooled)",
        input,
        subject: formatStats(summarize(all)),
        note: `${formatBytes(r.bytes)}: median per view: ${perView}`,
      });
    }
  }
  return rows;
}

export const profiles = {};
