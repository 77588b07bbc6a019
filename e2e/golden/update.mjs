// Regenerates e2e/golden/hashes.json from e2e/golden/corpus.ts — on purpose only.
//
//   node e2e/golden/update.mjs           rewrite hashes.json, list what changed
//   node e2e/golden/update.mjs --check   change nothing; exit 1 if hashes.json is out of date
//
// Outputs are also written to e2e/.out/golden/<case>.txt so a change can be read, not
// just seen as a new hash. Hashing here uses node:crypto, an implementation independent
// of the one the test runners use.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "../runtimes/bundle.mjs";

const check = process.argv.includes("--check");
const hashesFile = join(root, "e2e/golden/hashes.json");
const outDir = join(root, "e2e/.out/golden");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const bundled = join(outDir, "corpus.mjs");
await build({
  entryPoints: [join(root, "e2e/golden/corpus.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  outfile: bundled,
  logLevel: "error",
});
const { goldenCases } = await import(pathToFileURL(bundled).href);

const next = {};
for (const golden of goldenCases) {
  if (golden.name in next) throw new Error(`duplicate golden case name: ${golden.name}`);
  let output;
  try {
    output = await golden.output();
  } catch (error) {
    // Expected errors are pinned through outcome(); anything thrown here is a corpus bug.
    console.error(`golden: case "${golden.name}" threw — wrap expected errors in outcome():\n${error?.stack ?? error}`);
    process.exit(1);
  }
  if (typeof output !== "string")
    throw new Error(`${golden.name}: output() must return a string, got ${typeof output}`);
  next[golden.name] = createHash("sha256").update(output, "utf8").digest("hex");
  writeFileSync(join(outDir, `${golden.name.replace(/[^\w.-]+/g, "_")}.txt`), output);
}

const previous = existsSync(hashesFile) ? JSON.parse(readFileSync(hashesFile, "utf8")) : {};
const added = Object.keys(next).filter((n) => !(n in previous));
const removed = Object.keys(previous).filter((n) => !(n in next));
const changed = Object.keys(next).filter((n) => n in previous && previous[n] !== next[n]);
for (const [label, names] of [
  ["added", added],
  ["changed", changed],
  ["removed", removed],
]) {
  for (const n of names) console.log(`  ${label.padEnd(7)} ${n}`);
}
const text = `${JSON.stringify(next, null, 2)}\n`;
const stale = existsSync(hashesFile) ? readFileSync(hashesFile, "utf8") !== text : true;
console.log(
  `golden: ${goldenCases.length} cases — ${added.length} added, ${changed.length} changed, ${removed.length} removed` +
    (stale && added.length + changed.length + removed.length === 0 ? " (order or formatting differs)" : ""),
);
if (check) {
  if (stale) {
    console.error(
      "golden: hashes.json is out of date — run `node e2e/golden/update.mjs` and review the outputs in e2e/.out/golden/",
    );
    process.exitCode = 1;
  }
} else if (stale) {
  writeFileSync(hashesFile, text);
  console.log(`golden: wrote ${hashesFile}; outputs to read: ${outDir}`);
}
