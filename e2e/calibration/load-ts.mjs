// Bundles a TypeScript module of the repository (core code the calibration scripts need) for a neutral
// platform with esbuild, writes it to e2e/.out/<name>.mjs and imports it. One place for the build
// options every calibration script uses.
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/**
 * @param {{ entry?: string, contents?: string }} source a repository-relative entry file, or TypeScript source
 * @param {string} name the output's file name in e2e/.out (without `.mjs`)
 */
export async function loadTs(source, name) {
  const bundled = await build({
    ...(source.entry
      ? { entryPoints: [join(root, source.entry)] }
      : { stdin: { contents: source.contents, resolveDir: root, sourcefile: `${name}.ts`, loader: "ts" } }),
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    logLevel: "error",
  });
  mkdirSync(join(root, "e2e/.out"), { recursive: true });
  const file = join(root, "e2e/.out", `${name}.mjs`);
  writeFileSync(file, bundled.outputFiles[0].contents);
  return import(pathToFileURL(file).href);
}
