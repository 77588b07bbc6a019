// Core guard: every entry point (e2e/package/entries.mjs) must bundle for a neutral platform (no
// Node built-ins can resolve there) and core/ must not mention eval-like or WASM APIs. Prints the
// min+gzip size of each entry (the entry chunk and its static imports, see entry-size.mjs).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ENTRIES, importName } from "../package/entries.mjs";
import { entryChunkSize } from "../package/entry-size.mjs";
import { root } from "./bundle.mjs";

const sizes = [];
for (const entry of ENTRIES) {
  const result = await entryChunkSize({
    entryPoints: [join(root, entry.file)],
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["worker", "browser"],
    minify: true,
  });
  if (result instanceof Error) throw result;
  sizes.push(`${importName(entry)} ${(result.gzip / 1024).toFixed(1)} KB`);
}
console.log(`core guard: every entry bundles for a neutral platform (min+gzip): ${sizes.join(", ")}`);

const forbidden = [/\bnew\s+Function\s*\(/, /(^|[^.\w])eval\s*\(/, /\bWebAssembly\b/];
const offenders = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) {
      const text = readFileSync(p, "utf8");
      for (const re of forbidden) if (re.test(text)) offenders.push(`${p}: matches ${re}`);
    }
  }
};
walk(join(root, "core"));
if (offenders.length > 0) {
  console.error(`core guard: forbidden APIs in core/:\n  ${offenders.join("\n  ")}`);
  process.exit(1);
}

// Self-test of the guards: a probe file full of forbidden API uses, placed at core/ under a
// scratch root with the repo's own .oxlintrc.json and tsconfig.core.json, must trip on
// every line — so a loosened lint rule or tsconfig `lib` cannot go unnoticed.
const PROBES = [
  `import { readFileSync } from "node:fs";`,
  `import path from "path";`,
  `export const p1 = document.title;`,
  `export const p2 = localStorage.getItem("k");`,
  `export const p3 = sessionStorage.length;`,
  `export const p4 = window.location;`,
  `export const p5 = process.env;`,
  `export const p6 = Buffer.from("x");`,
  `export const p7 = require("x");`,
  `export const p8 = __dirname;`,
  `export const p9 = setImmediate;`,
  `export const p10 = WebAssembly.Module;`,
  `export const p11 = eval("1");`,
  `export const p12 = new Function("return 1");`,
  `export const p13 = globalThis.document;`,
  `export const p14 = self.localStorage;`,
];
const probeRoot = join(root, "e2e/.out/guard-probe");
rmSync(probeRoot, { recursive: true, force: true });
mkdirSync(join(probeRoot, "core"), { recursive: true });
writeFileSync(join(probeRoot, "core/probe.ts"), `${PROBES.join("\n")}\nexport { readFileSync, path };\n`);
const lintConfig = JSON.parse(readFileSync(join(root, ".oxlintrc.json"), "utf8"));
delete lintConfig.$schema;
writeFileSync(join(probeRoot, ".oxlintrc.json"), JSON.stringify(lintConfig));
writeFileSync(
  join(probeRoot, "tsconfig.json"),
  JSON.stringify({
    extends: join(root, "tsconfig.core.json"),
    compilerOptions: { noEmit: true, rootDir: "." },
    include: ["core"],
    exclude: [],
  }),
);
const flaggedLines = (command, args, pattern) => {
  const out = spawnSync(command, args, { cwd: probeRoot, encoding: "utf8" });
  if (out.error) throw out.error;
  return new Set([...`${out.stdout}\n${out.stderr}`.matchAll(pattern)].map((m) => Number(m[1])));
};
const byLint = flaggedLines(
  join(root, "node_modules/.bin/oxlint"),
  ["-c", ".oxlintrc.json", "--format", "unix", "core/probe.ts"],
  /core\/probe\.ts:(\d+):\d+:/g,
);
const byTsc = flaggedLines(
  process.execPath,
  [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
  /core\/probe\.ts\((\d+),\d+\): error/g,
);
const missed = PROBES.filter((_, i) => !byLint.has(i + 1) && !byTsc.has(i + 1));
if (missed.length > 0) {
  console.error(
    `core guard: these forbidden uses in core/ trip neither oxlint nor tsconfig.core.json:\n  ${missed.join("\n  ")}`,
  );
  process.exit(1);
}
const onlyTsc = PROBES.filter((_, i) => !byLint.has(i + 1)).length;
console.log(
  `core guard: all ${PROBES.length} forbidden-API probes trip (oxlint ${byLint.size}, tsc ${byTsc.size}; ${onlyTsc} caught by tsc alone)`,
);
