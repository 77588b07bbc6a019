// `npm run check`: core/ is a one-way stack. A file may import from its own folder and from the
// folders below it, never from one above; no two files may import each other, even through others
// (type-only imports count: they still make a reader jump up and down). Tests and test-support
// are not part of the stack: they may import any layer (an integration test sits where it likes).
//
//   node e2e/checks/layers.mjs          check, print each violation, exit 1 if any
//   node e2e/checks/layers.mjs --print  also print the stack with each layer's file count
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Bottom up. Keep README.md's diagram in step with this list. */
export const STACK = [
  "util",
  "messages",
  "formats",
  "tokens",
  "tokenizers",
  "templates",
  "assembly",
  "composer",
  "conversation",
  "request",
  "cache",
  "inspect",
  "session",
  "monitor",
];
const ROOT_ENTRY = "index.ts";

const core = resolve(dirname(fileURLToPath(import.meta.url)), "../../core");
const isTest = (f) => /\.test\.ts$/.test(f) || f.startsWith("test-support/") || f.includes("/test-support/");
const layerOf = (f) => (f === ROOT_ENTRY || !f.includes("/") ? "(root)" : f.split("/")[0]);
const rank = (layer) => (layer === "(root)" ? STACK.length : STACK.indexOf(layer));

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".ts")) files.push(relative(core, p));
  }
};
walk(core);

const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm;
const problems = [];
const edges = new Map();
for (const file of files) {
  const layer = layerOf(file);
  if (!isTest(file) && layer !== "(root)" && rank(layer) < 0)
    problems.push(`core/${file}: folder "${layer}" is not in the stack (e2e/checks/layers.mjs STACK)`);
  const source = readFileSync(join(core, file), "utf8");
  const targets = [];
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith(".")) continue;
    const target = relative(core, resolve(dirname(join(core, file)), spec));
    if (target.startsWith("..") && !isTest(file)) {
      problems.push(`core/${file}: imports ${spec}, outside core/`);
      continue;
    }
    targets.push(target);
    const to = layerOf(target);
    if (isTest(file)) continue;
    if (isTest(target)) {
      problems.push(`core/${file}: imports test code ${target}`);
      continue;
    }
    if (to === "(root)")
      problems.push(`core/${file}: imports the root entry; import the file that defines the name instead`);
    else if (rank(to) > rank(layer) && layer !== "(root)")
      problems.push(
        `core/${file} (${layer}) imports core/${target} (${to}), a layer above it: move the shared code down`,
      );
  }
  if (!isTest(file))
    edges.set(
      file,
      targets.filter((t) => !isTest(t)),
    );
}

// File-level cycles: Tarjan's strongly connected components over non-test files.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
const strong = (v) => {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!edges.has(w)) continue;
    if (!index.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) cycles.push(scc.sort());
  }
};
for (const v of [...edges.keys()].sort()) if (!index.has(v)) strong(v);
for (const scc of cycles) problems.push(`import cycle between ${scc.map((f) => `core/${f}`).join(", ")}`);

if (process.argv.includes("--print")) {
  for (const layer of [...STACK].reverse())
    console.log(`${layer.padEnd(14)} ${files.filter((f) => layerOf(f) === layer && !isTest(f)).length} files`);
}
if (problems.length > 0) {
  console.error(`core layers: ${problems.length} problem(s)\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`core layers: ${STACK.join(" → ")}; no upward import, no cycle (${files.length} files)`);
