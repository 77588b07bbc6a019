// The bench measures core/ as users ship it: the TypeScript sources bundled by esbuild into one
// ESM file (dependencies included, not minified so CPU profiles keep readable names), written to
// e2e/.out/bench/ and imported by Node. No `npm run build:core` step, no stale dist/.
import { build } from "esbuild";
import { allEntriesSource } from "../package/entries.mjs";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { entryChunkSize } from "../package/entry-size.mjs";

export const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const outDir = join(root, "e2e/.out/bench");

const shared = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  conditions: ["worker", "browser"],
  target: "es2022",
  write: false,
  logLevel: "error",
};

/** Bundles every entry point and imports it. @returns {Promise<Record<string, any>>} the public API */
export async function loadCore() {
  const result = await build({
    ...shared,
    stdin: { contents: allEntriesSource(root), resolveDir: root, sourcefile: "all-entries.ts", loader: "ts" },
    sourcemap: "inline",
  });
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, "core.mjs");
  writeFileSync(file, result.outputFiles[0].contents);
  return import(pathToFileURL(file).href);
}

/**
 * min+gzip bytes of an entry, tree-shaken and code-split as an app bundler would.
 * @param {string} contents  ESM source of the entry, resolved from the repository root
 * @param {{ platform?: "neutral" | "browser" }} [options]  peers that need Node built-ins get "browser"
 */
export async function minGzipSize(contents, { platform = "neutral" } = {}) {
  // Measured as the package check measures it: the entry chunk and its static imports (see entry-size.mjs).
  const { bundle: _b, format: _f, write: _w, logLevel: _l, ...options } = shared;
  const result = await entryChunkSize({
    ...options,
    platform,
    stdin: { contents, resolveDir: root, sourcefile: "bench-size-entry.ts", loader: "ts" },
    minify: true,
    treeShaking: true,
  });
  if (result instanceof Error) throw result;
  return { min: result.min, gzip: result.gzip };
}
