// `npm run test:runtimes`: the same core suite bundle, unchanged, in every runtime
// we claim — workerd without and with nodejs_compat, @edge-runtime/vm, Deno, Bun —
// then core fed `Response.json()` values inside @edge-runtime/vm (runners.mjs says why)
// and the copyable edge and fleet workers inside workerd. One at a time (the machine has two
// cores). A runtime that cannot start is a failure, never a skip.
//
//   node e2e/runtimes/all.mjs                 everything
//   node e2e/runtimes/all.mjs deno bun        only the named runners
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runEdgeWorkerTests } from "../edge-worker/test.mjs";
import { runFleetWorkerTests } from "../fleet-worker/test.mjs";
import { bundleCoreSuite, root } from "./bundle.mjs";
import { report } from "./report.mjs";
import { runBun, runDeno, runEdgeRuntime, runEdgeRuntimeJsonInput, runWorkerd } from "./runners.mjs";

const started = performance.now();
const outDir = join(root, "e2e/.out/runtimes");
mkdirSync(outDir, { recursive: true });
const { code, files } = await bundleCoreSuite().catch((error) => {
  // Every runner needs the bundle: without it nothing ran, which is a failure, not a skip.
  console.error(`core suite: could not bundle core/**/*.test.ts — no runtime ran.\n${error.message}`);
  process.exit(1);
});
const bundleFile = join(outDir, "core-suite.mjs");
writeFileSync(bundleFile, code);
const bundleSeconds = (performance.now() - started) / 1000;

/** @type {{ name: string, run: () => Promise<{ runtime: string, version: string, result: import("./harness.ts").RunReport }>, suite: boolean }[]} */
const runners = [
  { name: "workerd", suite: true, run: () => runWorkerd(code, { compat: false }) },
  { name: "workerd+nodejs_compat", suite: true, run: () => runWorkerd(code, { compat: true }) },
  { name: "edge-runtime", suite: true, run: () => runEdgeRuntime(code) },
  { name: "deno", suite: true, run: () => runDeno(bundleFile) },
  { name: "bun", suite: true, run: () => runBun(bundleFile) },
  { name: "edge-runtime-json", suite: false, run: () => runEdgeRuntimeJsonInput() },
  { name: "edge-worker", suite: false, run: () => runEdgeWorkerTests() },
  { name: "fleet-worker", suite: false, run: () => runFleetWorkerTests() },
];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = wanted.filter((w) => !runners.some((r) => r.name === w));
if (unknown.length > 0) {
  console.error(`unknown runner(s): ${unknown.join(", ")}; known: ${runners.map((r) => r.name).join(", ")}`);
  process.exit(2);
}

const rows = [];
for (const runner of runners) {
  if (wanted.length > 0 && !wanted.includes(runner.name)) continue;
  const t0 = performance.now();
  let row;
  try {
    const { runtime, version, result } = await runner.run();
    report(runtime, version, runner.suite ? files : (result.files ?? []), result);
    const ok = result.failed === 0 && result.passed > 0;
    row = { runtime, version, ...pick(result), ok, note: ok ? "" : "tests failed" };
  } catch (error) {
    // Could not start, crashed, or timed out: that is a failure of the runtime claim.
    console.error(`${runner.name}: FAILED TO RUN — ${error instanceof Error ? error.message : String(error)}`);
    row = { runtime: runner.name, version: "?", passed: 0, failed: 0, skipped: 0, ok: false, note: "did not run" };
  }
  row.seconds = (performance.now() - t0) / 1000;
  row.suite = runner.suite;
  rows.push(row);
}

// Every runtime ran the same bundle, so every runtime must have seen the same cases.
const suiteRows = rows.filter((r) => r.suite && r.note !== "did not run");
const counts = new Set(suiteRows.map((r) => r.passed + r.failed + r.skipped));
if (counts.size > 1) {
  for (const r of suiteRows) r.note ||= `saw ${r.passed + r.failed + r.skipped} cases`;
  console.error(`runtimes disagree on the number of cases: ${[...counts].join(" vs ")}`);
  process.exitCode = 1;
}

printTable(rows);
const total = (performance.now() - started) / 1000;
console.log(
  `core suite: ${files.length} test files, bundled in ${bundleSeconds.toFixed(1)}s; all runners ${total.toFixed(1)}s`,
);
if (rows.some((r) => !r.ok)) process.exitCode = 1;

function pick(result) {
  return { passed: result.passed, failed: result.failed, skipped: result.skipped };
}

function printTable(rows) {
  const header = ["runtime", "version", "passed", "failed", "skipped", "time", "status"];
  const body = rows.map((r) => [
    r.runtime,
    r.version,
    String(r.passed),
    String(r.failed),
    String(r.skipped),
    `${r.seconds.toFixed(1)}s`,
    r.ok ? "ok" : `FAIL${r.note ? ` (${r.note})` : ""}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const b of body) console.log(line(b));
  console.log("");
}
