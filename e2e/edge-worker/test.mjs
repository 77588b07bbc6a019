// Tests e2e/edge-worker/worker.ts the way a user would run it: the package is built
// (`npm run build:core`) and packed (`npm pack`), the tarball is unpacked into a scratch
// app's node_modules/prompt-strata, worker.ts is copied there unchanged, type-checked
// against the packed .d.ts, bundled with esbuild the way wrangler bundles (worker
// conditions), and run in workerd through Miniflare WITHOUT nodejs_compat. Real HTTP
// requests are then dispatched into it.
//
//   node e2e/edge-worker/test.mjs          (also run by e2e/runtimes/all.mjs)
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { root } from "../runtimes/bundle.mjs";
import { report } from "../runtimes/report.mjs";
import { buildCore, packInto, run } from "../package/pack.mjs";
import { makeCases, makeHostileCases } from "./cases.mjs";

/** The hostile corpus and the machine-speed probe, bundled from core's TypeScript test support. */
async function hostileCorpus() {
  const result = await build({
    stdin: {
      contents: [
        'export { hostileSamples, hostileComparisonSamples } from "./core/test-support/samples-hostile.ts";',
        'export { slowdown } from "./core/test-support/machine-speed.ts";',
      ].join("\n"),
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "error",
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
}

const require = createRequire(import.meta.url);
const workDir = join(root, "e2e/.out/edge-worker");

/**
 * The worker runs with the settings of the wrangler.toml users copy (compatibility date,
 * flags, vars), so the example cannot drift from what is tested. Reads the small TOML
 * subset that file uses: comments, `[section]`, `key = "string"` and `key = [...]`.
 */
export function readWranglerToml() {
  const config = { vars: {} };
  let sectionName = "";
  for (const raw of readFileSync(join(root, "e2e/edge-worker/wrangler.toml"), "utf8").split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      sectionName = header[1];
      continue;
    }
    const pair = /^(\w+)\s*=\s*(".*"|\[.*\])$/.exec(line);
    if (!pair) throw new Error(`wrangler.toml: cannot read "${raw}"`);
    const value = JSON.parse(pair[2]);
    if (sectionName === "vars") config.vars[pair[1]] = value;
    else if (sectionName === "") config[pair[1]] = value;
    else throw new Error(`wrangler.toml: section [${sectionName}] is not understood by the test`);
  }
  if (config.main !== "worker.ts") throw new Error(`wrangler.toml: main must be "worker.ts", is ${config.main}`);
  if (!config.compatibility_date) throw new Error("wrangler.toml: compatibility_date is missing");
  return config;
}

/**
 * build:core → npm pack → unpack into a scratch app in `dir`; `worker` (a path from the repo root)
 * is copied there, type-checked against the packed types and bundled; returns the bundle's source.
 */
export async function prepareWorker({ worker = "e2e/edge-worker/worker.ts", dir = workDir } = {}) {
  buildCore();
  const { appDir, pkgDir, tarball } = packInto(dir);
  copyFileSync(join(root, worker), join(appDir, "worker.ts"));

  // Type-check as a user project: web-standard + worker globals only, types from the tarball.
  writeFileSync(
    join(appDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        lib: ["ES2023", "WebWorker"],
        types: [],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        noEmit: true,
      },
      files: ["worker.ts"],
    }),
  );
  try {
    run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(appDir, "tsconfig.json")], appDir);
  } catch (error) {
    throw new Error(`worker.ts does not type-check against the packed package: ${error.message}`);
  }

  const bundled = await build({
    entryPoints: [join(appDir, "worker.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "error",
  });
  return { code: bundled.outputFiles[0].text, tarball, pkgDir };
}

/** Runs every case against the worker in workerd; returns { runtime, version, result } like the suite runners. */
export async function runEdgeWorkerTests() {
  const { code, pkgDir } = await prepareWorker();
  writeFileSync(join(workDir, "worker.bundle.js"), code);
  // Node-side reference: the same packed package, so a 200 body must equal inspect() run here.
  const pkg = await import(pathToFileURL(join(pkgDir, "dist/inspect/index.js")).href);

  const wrangler = readWranglerToml();
  const maxBodyBytes = Number(wrangler.vars.MAX_BODY_BYTES);
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: wrangler.compatibility_date,
    compatibilityFlags: wrangler.compatibility_flags ?? [],
    bindings: wrangler.vars,
  });
  const failures = [];
  let passed = 0;
  const corpus = await hostileCorpus();
  const cases = [
    ...makeCases(maxBodyBytes),
    ...makeHostileCases([...corpus.hostileSamples, ...corpus.hostileComparisonSamples], corpus.slowdown),
  ];
  try {
    for (const c of cases) {
      try {
        const before = c.before?.();
        const init = c.init();
        const start = performance.now();
        const answer = (async () => {
          for (let attempt = 0; ; attempt++) {
            try {
              // A body stream is read once: a retried case makes its request again.
              const response = await mf.dispatchFetch(
                `http://worker.test/${c.query ?? ""}`,
                attempt === 0 ? init : c.init(),
              );
              return { response, text: await response.text() };
            } catch (error) {
              const transport = error instanceof Error && error.message === "fetch failed";
              if (!transport || attempt >= (c.transportRetries ?? 0)) throw error;
            }
          }
        })();
        const { response, text } = await (c.timeoutMs === undefined
          ? answer
          : Promise.race([
              answer,
              new Promise((_, reject) =>
                setTimeout(() => reject(new Error(`no answer within ${c.timeoutMs} ms`)), c.timeoutMs).unref(),
              ),
            ]));
        const elapsedMs = performance.now() - start;
        await c.check({ response, text, body: safeJson(text), pkg, elapsedMs, before });
        passed++;
      } catch (error) {
        failures.push({
          name: `edge worker > ${c.name}`,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  } finally {
    await mf.dispose();
  }
  return {
    runtime: "edge-worker",
    version: `workerd ${require("workerd/package.json").version}`,
    result: { passed, failed: failures.length, skipped: 0, failures, files: ["e2e/edge-worker/worker.ts"] },
  };
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runtime, version, result } = await runEdgeWorkerTests();
  report(runtime, version, result.files, result);
}
