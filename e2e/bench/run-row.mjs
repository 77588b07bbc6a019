// Runs one bench row module in a fresh process (spawned by run.mjs) and prints its rows as JSON.
// A fresh process per row keeps rows independent: JIT feedback and heap left by one row (e.g.
// 100,000-message histories) must not speed up or slow down the next one.
//   node e2e/bench/run-row.mjs <row id> [--quick] [--skip-build]
// STRATA_BENCH_CORE=<file.mjs> measures another core bundle (e.g. one with a proposed fix).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { outDir } from "./core-bundle.mjs";
import { ROW_MODULES } from "./rows/index.mjs";

const [id, ...flags] = process.argv.slice(2);
const module = ROW_MODULES.find((m) => m.id === id);
if (!module) throw new Error(`unknown row ${id}; rows: ${ROW_MODULES.map((m) => m.id).join(", ")}`);
const core = await import(pathToFileURL(process.env.STRATA_BENCH_CORE ?? join(outDir, "core.mjs")).href);
const rows = await module.run({ core, quick: flags.includes("--quick"), skipBuild: flags.includes("--skip-build") });
process.stdout.write(JSON.stringify(rows));
