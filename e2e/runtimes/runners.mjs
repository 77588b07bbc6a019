// One function per runtime. Each takes the core suite bundle (the ESM text and the
// file it was written to), runs it there, and returns { runtime, version, result }
// with result = the harness's RunReport. A runtime that cannot start throws.
import { EdgeVM } from "@edge-runtime/vm";
import { build, transform } from "esbuild";
import { Miniflare } from "miniflare";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ENTRIES, allEntriesSource } from "../package/entries.mjs";
import { root } from "./bundle.mjs";

const require = createRequire(import.meta.url);
const RESULT_MARK = "STRATA_RESULT ";
const CHILD_TIMEOUT_MS = 90_000;

/** workerd through Miniflare, as a module worker; `compat` adds the nodejs_compat flag. */
export async function runWorkerd(code, { compat = false } = {}) {
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: compat ? ["nodejs_compat"] : [],
  });
  try {
    const response = await mf.dispatchFetch("http://localhost/");
    const text = await response.text();
    if (!response.ok) throw new Error(`worker answered ${response.status}: ${text.slice(0, 2000)}`);
    return {
      runtime: compat ? "workerd+nodejs_compat" : "workerd",
      version: require("workerd/package.json").version,
      result: JSON.parse(text),
    };
  } finally {
    await mf.dispose();
  }
}

/**
 * Vercel's @edge-runtime/vm: a Node vm context holding only the edge globals, with
 * code generation (eval, new Function) disabled. It evaluates scripts, not modules,
 * so the same bundle is rewrapped as an IIFE (esbuild transform, no re-bundling).
 */
export async function runEdgeRuntime(code) {
  const script = await transform(code, {
    format: "iife",
    globalName: "__strataCoreSuite",
    target: "es2022",
    logLevel: "error",
  });
  const vm = new EdgeVM();
  vm.evaluate(script.code);
  const result = await vm.evaluate("__strataCoreSuite.run()");
  return {
    runtime: "edge-runtime",
    version: `${require("@edge-runtime/vm/package.json").version} (EdgeRuntime=${vm.evaluate("typeof EdgeRuntime === 'string' ? EdgeRuntime : 'missing'")})`,
    // The report comes from another realm: copy it into this one.
    result: JSON.parse(JSON.stringify(result)),
  };
}

/** Writes the entry Deno and Bun run next to the bundle; it prints one marked JSON line. */
export function writeCliEntry(bundleFile) {
  const entry = join(dirname(bundleFile), "cli-entry.mjs");
  writeFileSync(
    entry,
    [
      `import { run } from "./${bundleFile.split(/[\\/]/).pop()}";`,
      `const result = await run();`,
      `const version = typeof Deno !== "undefined" ? Deno.version.deno + " (V8 " + Deno.version.v8 + ")" : typeof Bun !== "undefined" ? Bun.version + " (" + Bun.revision.slice(0, 9) + ")" : "unknown";`,
      `console.log(${JSON.stringify(RESULT_MARK)} + JSON.stringify({ version, result }));`,
      ``,
    ].join("\n"),
  );
  return entry;
}

function runChild(runtime, command, args, cwd) {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let child;
    try {
      child = spawn(command, args, {
        cwd,
        env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      reject(new Error(`${runtime} could not start: ${error.message}`));
      return;
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${runtime} did not finish within ${CHILD_TIMEOUT_MS / 1000}s`));
    }, CHILD_TIMEOUT_MS);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${runtime} could not start (${command}): ${error.message}`));
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      const line = stdout.split("\n").find((l) => l.startsWith(RESULT_MARK));
      if (!line) {
        reject(
          new Error(
            `${runtime} exited with ${signal ?? status} without a result\n${(stderr || stdout).trim().slice(0, 3000)}`,
          ),
        );
        return;
      }
      const { version, result } = JSON.parse(line.slice(RESULT_MARK.length));
      resolve({ runtime, version, result });
    });
  });
}

/** Deno from the `deno` npm package (or $DENO_BIN), with NO permissions: no env, no read, no net. */
export function runDeno(bundleFile) {
  const entry = writeCliEntry(bundleFile);
  const args = ["run", "--no-config", "--no-lock", "--no-npm", "--no-remote", "--no-prompt", "--quiet", entry];
  return runChild("deno", process.env.DENO_BIN || join(root, "node_modules/.bin/deno"), args, dirname(entry));
}

/** Bun from the `bun` npm package (or $BUN_BIN). */
export function runBun(bundleFile) {
  const entry = writeCliEntry(bundleFile);
  return runChild(
    "bun",
    process.env.BUN_BIN || join(root, "node_modules/.bin/bun"),
    ["--no-install", entry],
    dirname(entry),
  );
}

/**
 * @edge-runtime/vm (what `next dev` and the edge-runtime test environments use) builds
 * `Response.json()` and `structuredClone()` results with the host realm's prototypes
 * (nodejs/node#55554). A handler doing `inspect(await request.json())` hands core such
 * objects, so core must treat them exactly like `JSON.parse` output. Each probe runs the
 * public API on both and requires the same JSON out.
 */
const JSON_INPUT_PROBES = [
  ["parseRequest", `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`, "(S, v) => S.parseRequest(v)"],
  [
    "inspect",
    `{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`,
    "(S, v) => S.inspect(v)",
  ],
  [
    "renderPromptTemplate",
    `{"name":"Ada","list":[1,{"b":2,"a":1}]}`,
    `(S, v) => S.renderPromptTemplate("{{name}} {{list}}", v)`,
  ],
  [
    "renderJinjaTemplate",
    `{"name":"Ada","items":["x","y"]}`,
    `(S, v) => S.renderJinjaTemplate("{{ name }}{% for i in items %} {{ i }}{% endfor %}", v, { onError: "throw" })`,
  ],
  ["buildPromptContext", `{"topic":"tides"}`, `(S, v) => S.buildPromptContext({ now: new Date(0), args: v })`],
  [
    "assembleProviderInput",
    `{"model":{"provider":"openai","model":"gpt-4o"},"input":"hi","history":[{"role":"user","content":[{"type":"text","text":"a"}]}]}`,
    "(S, v) => S.assembleProviderInput(v)",
  ],
];

export async function runEdgeRuntimeJsonInput() {
  const bundled = await build({
    stdin: { contents: allEntriesSource(root), resolveDir: root, sourcefile: "all-entries.ts", loader: "ts" },
    bundle: true,
    format: "iife",
    globalName: "__strata",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["worker", "browser"],
    target: "es2022",
    write: false,
    logLevel: "error",
  });
  const vm = new EdgeVM();
  vm.evaluate(bundled.outputFiles[0].text);
  // Code generation is off in the VM (as on the edge), so the probes are defined as source.
  vm.evaluate(
    `globalThis.__probes = { ${JSON_INPUT_PROBES.map(([name, , call]) => `${JSON.stringify(name)}: ${call}`).join(", ")} };`,
  );
  vm.evaluate(`globalThis.__probe = async (name, text) => {
    const fn = __probes[name];
    const run = async (v) => { try { return "ok " + JSON.stringify(await fn(__strata, v)); } catch (e) { return "threw " + e.message; } };
    return [await run(JSON.parse(text)), await run(await new Response(text).json())];
  };`);
  const failures = [];
  let passed = 0;
  for (const [name, text] of JSON_INPUT_PROBES) {
    const [fromParse, fromResponse] = await vm.evaluate(`__probe(${JSON.stringify(name)}, ${JSON.stringify(text)})`);
    if (fromParse === fromResponse && fromParse.startsWith("ok ")) passed++;
    else
      failures.push({
        name: `${name} accepts a Response.json() value like a JSON.parse one`,
        error: `JSON.parse: ${fromParse.slice(0, 300)}\nResponse.json(): ${fromResponse.slice(0, 300)}`,
      });
  }
  return {
    runtime: "edge-runtime-json",
    version: require("@edge-runtime/vm/package.json").version,
    result: { passed, failed: failures.length, skipped: 0, failures, files: ENTRIES.map((e) => e.file) },
  };
}
