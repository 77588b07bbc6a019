// `npm run test:package` (after `npm run build:core`): is prompt-strata fit to publish?
//   1. dist/ holds no tests; the tarball holds only what a user needs (dist, README, package.json, LICENSE)
//   2. publint (strict) reports nothing
//   3. @arethetypeswrong/cli, profile esm-only (the package is ESM-only on purpose), reports nothing
//   4. dist imports only declared dependencies, and Node can import the packed entry
//   5. size: min+gzip of each entry point (entries.mjs), bundled by esbuild from the unpacked
//      tarball as a user's bundler would, with code splitting: the entry chunk and the chunks it
//      imports statically (what an import costs); `import()` chunks are listed apart. Fails over
//      an entry's budget
//   6. the CLI: `npx prompt-strata …` from the unpacked tarball, on the bundled samples
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "../runtimes/bundle.mjs";
import { ENTRIES, importName } from "./entries.mjs";
import { entryChunkSize } from "./entry-size.mjs";
import { packInto, run } from "./pack.mjs";

const problems = [];
const fail = (what) => problems.push(what);
const section = (title) => console.log(`\n— ${title}`);

// 1. What is built and what is packed.
section("dist/ and tarball contents");
const distDir = join(root, "dist");
if (!existsSync(join(distDir, "index.js"))) {
  console.error("dist/index.js is missing: run `npm run build:core` first (npm run test:package does).");
  process.exit(1);
}
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
const TEST_FILE = /(\.test\.|[\\/]test-support[\\/]|[\\/]__(tests|mocks|fixtures)__[\\/])/;
for (const file of walk(distDir)) if (TEST_FILE.test(file)) fail(`dist/ contains a test file: ${relative(root, file)}`);

const { tarball, packed, appDir, pkgDir } = packInto(join(root, "e2e/.out/package"));
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICEN[CS]E(\.md|\.txt)?$/,
  /^dist\/.+\.js$/,
  /^dist\/.+\.d\.ts$/,
  /^cli\/[\w-]+\.mjs$/,
];
const paths = packed.files.map((f) => f.path);
for (const p of paths) {
  if (TEST_FILE.test(`/${p}`)) fail(`tarball contains a test file: ${p}`);
  else if (!ALLOWED.some((re) => re.test(p))) fail(`tarball contains a file a user does not need: ${p}`);
}
for (const p of paths.filter((x) => x.endsWith(".js"))) {
  if (!paths.includes(p.replace(/\.js$/, ".d.ts"))) fail(`tarball has ${p} without its declaration file`);
}
if (!paths.some((p) => /^LICEN[CS]E/.test(p)))
  console.log("  note: no LICENSE file in the tarball (package.json says MIT)");
console.log(
  `  ${packed.files.length} files, ${(packed.size / 1024).toFixed(1)} KB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KB unpacked (${relative(root, tarball)})`,
);

// 2. publint, strict, all levels; it packs with npm itself so it can tell "exists but unpublished".
section("publint");
const { publint } = await import("publint");
const { formatMessage } = await import("publint/utils");
const lint = await publint({ pkgDir: root, level: "suggestion", strict: true, pack: "npm" });
for (const m of lint.messages) fail(`publint ${m.type}: ${formatMessage(m, lint.pkg, { color: false })}`);
console.log(`  ${lint.messages.length} message(s)`);

// 3. Are the types wrong? Offline (no DefinitelyTyped lookup), on the exact tarball.
section("are the types wrong (profile esm-only)");
try {
  run(process.execPath, [
    join(root, "node_modules/@arethetypeswrong/cli/dist/index.js"),
    tarball,
    "--profile",
    "esm-only",
    "--no-definitely-typed",
    "--no-emoji",
    "--no-color",
    "--format",
    "table-flipped",
  ]);
  console.log("  no problems");
} catch (error) {
  fail(`attw found problems: ${error.message}`);
}

// 4. Imports: only declared dependencies, and the entry loads in Node.
section("imports");
const pkgJson = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const declared = new Set(Object.keys({ ...pkgJson.dependencies, ...pkgJson.peerDependencies }));
// esbuild resolves every import of the packed dist and lists the packages it left external.
const graph = await build({
  entryPoints: ENTRIES.map((e) => join(pkgDir, `dist/${e.file.slice("core/".length).replace(/\.ts$/, ".js")}`)),
  bundle: true,
  packages: "external",
  outdir: join(pkgDir, ".imports-check"),
  format: "esm",
  platform: "neutral",
  write: false,
  metafile: true,
  logLevel: "silent",
});
const bare = new Set();
for (const [file, input] of Object.entries(graph.metafile.inputs)) {
  for (const imported of input.imports.filter((i) => i.external)) {
    const spec = imported.path;
    const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    bare.add(name);
    if (name.startsWith("node:") || !declared.has(name))
      fail(`${file} imports "${spec}", which is not a declared dependency`);
  }
}
const loaded = [];
for (const e of ENTRIES) {
  const file = join(pkgDir, `dist/${e.file.slice("core/".length).replace(/\.ts$/, ".js")}`);
  const mod = await import(pathToFileURL(file).href);
  loaded.push(`${importName(e)} ${Object.keys(mod).length}`);
}
console.log(`  packages imported by dist: ${[...bare].sort().join(", ") || "(none)"}`);
console.log(`  Node loads every entry (exports): ${loaded.join(", ")}`);

// 5. Size, measured like a user's bundler would: from the installed package, deps included.
section("size (esbuild, minified, gzip -9)");
async function measure(label, contents, budget) {
  const result = await entryChunkSize({
    stdin: { contents, resolveDir: appDir, sourcefile: `${label}.js`, loader: "js" },
    platform: "neutral",
    conditions: ["worker", "browser"],
    mainFields: ["module", "main"],
    target: "es2022",
    minify: true,
  });
  if (result instanceof Error) {
    fail(`${label}: could not bundle — ${result.errors?.map((e) => e.text).join("; ") ?? result.message}`);
    return undefined;
  }
  const gz = result.gzip;
  const byPackage = new Map();
  for (const [path, bytes] of result.inputs) {
    if (bytes === 0) continue;
    const short = path.replace(/^.*node_modules\//, "");
    const name = short.startsWith("prompt-strata/")
      ? "prompt-strata"
      : short.startsWith("@")
        ? short.split("/").slice(0, 2).join("/")
        : short.split("/")[0];
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytes);
  }
  const parts = [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .map(([n, b]) => `${n} ${(b / 1024).toFixed(1)}`)
    .join(", ");
  const verdict = gz <= budget ? "within" : "OVER";
  console.log(
    `  ${label}: ${(result.min / 1024).toFixed(1)} KB min, ${(gz / 1024).toFixed(2)} KB min+gzip (${gz} B) — ${verdict} budget ${(budget / 1024).toFixed(1)} KB`,
  );
  console.log(`    minified KB by package (loaded on import): ${parts}`);
  if (result.lazy.length > 0)
    console.log(
      `    loaded on demand (import()): ${result.lazy.map((l) => `${l.file} ${(l.gzip / 1024).toFixed(1)} KB min+gzip`).join(", ")}`,
    );
  if (gz > budget) fail(`${label} is ${gz} B min+gzip, over its ${budget} B budget`);
  return gz;
}
for (const e of ENTRIES) await measure(importName(e), `export * from "${importName(e)}";`, e.budget);

// 6. The CLI from the tarball, as `npx prompt-strata` runs it after an install (npm links the bin
//    into node_modules/.bin and makes it executable; the unpacked tarball gets the same by hand).
section("CLI (npx prompt-strata, from the tarball)");
const binDir = join(appDir, "node_modules/.bin");
mkdirSync(binDir, { recursive: true });
const binTarget = join(pkgDir, pkgJson.bin["prompt-strata"]);
chmodSync(binTarget, 0o755);
symlinkSync(relative(binDir, binTarget), join(binDir, "prompt-strata"));
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const samples = join(root, "public/samples");
const CLI_CASES = [
  ["check (identical)", ["check", `${samples}/conversation-turn-1.json`, `${samples}/conversation-turn-1.json`], 0],
  ["check (appended)", ["check", `${samples}/conversation-turn-1.json`, `${samples}/conversation-turn-2.json`], 0],
  ["check (busted)", ["check", `${samples}/conversation-turn-2.json`, `${samples}/conversation-turn-3.json`], 1],
  ["session", ["session", `${samples}/sessions/dispatch.har`], 0],
  ["inspect", ["inspect", `${samples}/anthropic.json`], 0],
  ["missing file", ["check", "missing.json", `${samples}/anthropic.json`], 3],
];
/**
 * Each case takes well under a second. Bounded all the same: on this shared host one run of the
 * missing-file case once never ended (2026-12-05: its only pending work a file read the thread
 * pool had finished with, the event loop never woken), and without a timeout the whole CI run
 * waits for it. A run that times out is said so and run once more; its exit code is checked as
 * any other.
 */
const CLI_TIMEOUT_MS = 60_000;
const runCli = (args) =>
  // --no: never install from the registry; the bin must come from the tarball.
  spawnSync(npx, ["--no", "--", "prompt-strata", ...args], {
    cwd: appDir,
    encoding: "utf8",
    timeout: CLI_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
for (const [label, args, expected] of CLI_CASES) {
  let r = runCli(args);
  if (r.error?.code === "ETIMEDOUT") {
    console.warn(
      `  npx prompt-strata ${label}: no answer in ${CLI_TIMEOUT_MS / 1000} s (killed); running it once more`,
    );
    r = runCli(args);
  }
  if (r.error) fail(`npx prompt-strata ${label}: ${r.error.message}`);
  else if (r.status !== expected)
    fail(`npx prompt-strata ${label}: exit ${r.status}, expected ${expected}\n${(r.stderr || r.stdout).slice(0, 600)}`);
  else console.log(`  npx prompt-strata ${args[0]} (${label}): exit ${r.status}`);
}

if (problems.length > 0) {
  console.error(`\npackage: ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
  process.exitCode = 1;
} else {
  console.log("\npackage: ok");
}
