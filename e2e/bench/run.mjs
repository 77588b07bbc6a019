// `npm run bench`: Strata against the floor and against peers, side by side in one process run.
// Prints one markdown table; on a full run also writes e2e/bench/RESULTS.md. Not part of `npm test`.
//
//   npm run bench                       full run (several minutes)
//   npm run bench -- --quick            smaller inputs, fewer samples
//   npm run bench -- --only=assembly,composer   a subset (ids: see rows/index.mjs)
//   --skip-build     reuse dist-site/ for the devtools rows instead of running `vite build`
//   --profile / --no-profile   profile rows that miss their goal (default: on for full runs)
//   --no-write       do not write RESULTS.md
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadCore, root } from "./core-bundle.mjs";
import { profileScenario } from "./profile.mjs";
import { ROW_MODULES } from "./rows/index.mjs";
import { freshPageMicros, goalFigure, judge, machine, renderTable } from "./table.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const only = argv
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const skipBuild = argv.includes("--skip-build");
const profile = argv.includes("--profile") || (!quick && !argv.includes("--no-profile"));
const write = !quick && !only && !argv.includes("--no-write");
const log = (...a) => console.error("[bench]", ...a);

// A full run takes minutes and rewrites RESULTS.md: an unknown flag or row stops here instead.
const FLAGS = ["--quick", "--skip-build", "--profile", "--no-profile", "--no-write", "--help"];
const ROW_IDS = ROW_MODULES.map((m) => m.id);
const unknownFlags = argv.filter((a) => !FLAGS.includes(a) && !a.startsWith("--only="));
const unknownRows = (only ?? []).filter((id) => !ROW_IDS.includes(id));
if (argv.includes("--help") || unknownFlags.length > 0 || unknownRows.length > 0) {
  const wrong = [...unknownFlags.map((f) => `unknown option ${f}`), ...unknownRows.map((r) => `unknown row ${r}`)];
  for (const w of wrong) console.error(`[bench] ${w}`);
  console.error(
    [
      "usage: npm run bench -- [options]   (no option: every row, profiles of missed goals, RESULTS.md rewritten)",
      "  --quick          smaller inputs, fewer samples; prints only",
      `  --only=a,b       these rows only; prints only (rows: ${ROW_IDS.join(", ")})`,
      "  --skip-build     reuse the last devtools build for the Chromium rows",
      "  --profile        profile missed goals in a quick run too;  --no-profile  never",
      "  --no-write       leave RESULTS.md as it is",
    ].join("\n"),
  );
  process.exit(wrong.length > 0 ? 2 : 0);
}

// The fresh-page cost once, at the start: the row notes price their page faults with it.
const start = { ...machine(), pageMicros: freshPageMicros() };
await loadCore();
const rows = [];
for (const module of ROW_MODULES) {
  if (only && !only.includes(module.id)) continue;
  log(`${module.id} …`);
  const t0 = performance.now();
  // Each row in a fresh process (see run-row.mjs); subject and baseline share that process.
  const child = spawnSync(
    process.execPath,
    [
      join(root, "e2e/bench/run-row.mjs"),
      module.id,
      ...(quick ? ["--quick"] : []),
      ...(skipBuild ? ["--skip-build"] : []),
    ],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, STRATA_BENCH_PAGE_US: String(start.pageMicros) },
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  try {
    rows.push(...JSON.parse(child.stdout));
  } catch {
    rows.push({
      group: module.id,
      name: "(failed)",
      input: "—",
      subject: `error: the row process exited with ${child.status} (see stderr)`,
      verdict: "n/a",
    });
  }
  log(`${module.id} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const end = machine();

const table = renderTable(rows, {
  ...start,
  loadBefore: start.load,
  loadAfter: end.load,
  mode: quick ? "quick run (`--quick`: smaller inputs, fewer samples)" : "full run",
});

const missed = rows.filter((r) => r.goal && goalFigure(r) !== undefined && judge(goalFigure(r), r.goal) !== "met");
const profiles = [];
if (profile) {
  for (const row of missed) {
    if (!row.profile) continue;
    log(`profiling ${row.profile} (missed goal: ${row.group} ${row.name}) …`);
    profiles.push(
      profileScenario(row.profile, { quick, ...(row.profileAgainst ? { against: row.profileAgainst } : {}) }),
    );
  }
}

const report = [table, ...profiles].join("\n\n");
console.log(report);
if (write) {
  const md = [
    "# Benchmark results",
    "",
    "The latest full run of `npm run bench` (written by `e2e/bench/run.mjs`; run it again to refresh this file).",
    "",
    report,
    "",
    "## How to read and reproduce",
    "",
    "- `npm run bench` (several minutes; builds the devtools for the Chromium rows) or `npm run bench -- --quick` (smaller inputs, fewer samples, prints only). " +
      "`--only=assembly,scaling,eviction,composer,templates,inspect,devtools,bundle` runs a subset (each row runs in a fresh Node process); " +
      "`node e2e/bench/profile.mjs <scenario> [--against=<scenario>]` profiles one scenario (no argument lists them); " +
      "`node e2e/bench/ab.mjs <a-core.mjs> <b-core.mjs> <scenario>` compares two core bundles on one, in alternating child processes.",
    "- Core is bundled from `core/index.ts` by esbuild (dependencies included, not minified) into `e2e/.out/bench/core.mjs` and imported by Node: the code users ship, no `dist/` step.",
    "- Inputs are generated by a seeded PRNG (`e2e/bench/inputs.mjs`): histories of user/assistant turns with tool exchanges (some parallel), ~500 bytes of JSON per message, a few non-ASCII words.",
    "- Each row runs its subject and its baseline in the same process, in alternating rounds (A B, B A, …) after warm-up calls; samples are pooled per side. " +
      "Ratios are median ÷ median. The machine is shared with other work (2 cores): single figures can be noisy, so compare ratios and note the load average above the table.",
    "- Eviction: LangChain gets the same ÷4 counter over the same text Strata measures (checked against `messageMeasureText`), memoized per message, " +
      'with `strategy: "last"`, `includeSystem: true` and `startOn: "human"` (its documented way to keep tool pairs valid).',
    "- Devtools rows come from the app's own User Timing measures `strata:paste-to-rendered` and `strata:view-switch` (devtools/perf/marks.ts), read in headless Chromium " +
      "against `vite preview` of a fresh `vite build` (same config as `npm run build`, written to `e2e/.out/bench/site/`), after a real clipboard paste into the request editor; the first paste of each size is a warm-up. Main-thread long tasks (over 50 ms) are split at the app's `strata:paste-read` mark, when the pasted text reaches it: before it the main thread is the browser's, making the pasted string (the same task `navigator.clipboard.readText()` alone makes, timed in the clipboard row); the goal is on the app's longest task from the mark on.",
    "- The header gives what the first write to a fresh 4 KB page costs on this machine (`freshPageMicros` in table.mjs, best of three passes over 64 MB). " +
      "A call whose heap grows pays it once per page: objects promoted to V8's old generation, arrays of more than ~16,000 entries (large-object space), fresh typed arrays. " +
      "It is the host's figure (a C program touching fresh `mmap` pages measures the same), so the inspect and scaling notes give each call's minor page faults and what they cost at that price.",
    "- Where a goal is missed, the run profiles that scenario (V8's sampling CPU profiler) and lists the top frames by self time, mapped to `core/*.ts` lines; " +
      "for scaling and templates it also compares per-call self time with the small input / the raw library, which shows where the extra time goes.",
    "",
  ].join("\n");
  writeFileSync(join(root, "e2e/bench/RESULTS.md"), md);
  log("wrote e2e/bench/RESULTS.md");
}
