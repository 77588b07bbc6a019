// A/B of two core bundles on one bench scenario (the profile scenarios: `node e2e/bench/profile.mjs`
// lists them). Usage:
//   node e2e/bench/ab.mjs <a-core.mjs> <b-core.mjs> <scenario> [--rounds=8] [--iterations=6]
// A core bundle of the working tree is what `loadCore()` in core-bundle.mjs writes
// (e2e/.out/bench/core.mjs): copy it aside, change the code, build again, compare.
//
// Each round runs A and B in fresh child processes, in alternating order, each timing
// `iterations` calls after two warm-up calls. Two bundles in one process are not comparable: an
// A/A run there favoured whichever loaded first by ~12%; alternating children gave A/A 0.98–0.99×.
// Prints the minimum and the median of the per-process medians of each side, and B/A for both.
// Shared machines are noisy: read the minimum first, and run twice before believing a few percent.
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { scenarios } from "./profile.mjs";

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);

async function child(file, name, iterations) {
  const core = await import(pathToFileURL(resolve(file)).href);
  const make = scenarios()[name];
  if (!make) throw new Error(`unknown scenario ${name}; node e2e/bench/profile.mjs lists them`);
  const fn = await make({ core, quick: false });
  const times = [];
  for (let i = 0; i < iterations + 2; i++) {
    const t0 = performance.now();
    await fn();
    if (i >= 2) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ min: times[0], median: times[times.length >> 1] }));
}

function main() {
  const [a, b, name] = args.filter((x) => !x.startsWith("--"));
  if (!a || !b || !name) {
    console.log("usage: node e2e/bench/ab.mjs <a-core.mjs> <b-core.mjs> <scenario> [--rounds=8] [--iterations=6]");
    console.log(`scenarios: ${Object.keys(scenarios()).join(", ")}`);
    return;
  }
  const rounds = option("rounds", 8);
  const iterations = String(option("iterations", 6));
  const runs = { A: [], B: [] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ["A", "B"] : ["B", "A"];
    for (const side of order) {
      const out = execFileSync(process.execPath, [self, "--child", side === "A" ? a : b, name, iterations], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      });
      runs[side].push(JSON.parse(out));
    }
  }
  const min = (side) => Math.min(...runs[side].map((x) => x.min));
  const median = (side) => {
    const m = runs[side].map((x) => x.median).sort((p, q) => p - q);
    return m[m.length >> 1];
  };
  const f = (ms) => `${ms.toFixed(1)} ms`;
  console.log(
    `${name}: A min ${f(min("A"))}, median ${f(median("A"))} | B min ${f(min("B"))}, median ${f(median("B"))} | ` +
      `B/A ${(min("B") / min("A")).toFixed(3)} (min), ${(median("B") / median("A")).toFixed(3)} (median)`,
  );
}

if (args[0] === "--child") await child(args[1], args[2], Number(args[3]));
else main();
