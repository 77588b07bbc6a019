// Size of an entry point as an app pays for it on import: esbuild bundles it with code splitting
// (as every app bundler does for `import()`), and the figure is min+gzip of the entry chunk plus
// every chunk it imports statically. Chunks reached only through `import()` (the Jinja engine,
// loaded by `inspect` for a request with a template) are loaded on demand and listed apart.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";

/**
 * @param {import("esbuild").BuildOptions} options  bundle options; `stdin` or one entry point
 * @returns {Promise<{ min: number, gzip: number, lazy: { file: string, gzip: number }[], inputs: Map<string, number> } | Error>}
 *   `inputs`: minified bytes per input file in the chunks loaded on import
 */
export async function entryChunkSize(options) {
  const result = await build({
    ...options,
    bundle: true,
    format: "esm",
    splitting: true,
    outdir: "/entry-size-out",
    write: false,
    metafile: true,
    logLevel: "silent",
  }).catch((error) => error);
  if (result instanceof Error) return result;
  const outputs = Object.fromEntries(Object.entries(result.metafile.outputs).map(([k, v]) => [outName(k), v]));
  const code = new Map(result.outputFiles.map((f) => [outName(f.path), f.contents]));
  const entryOutput = Object.keys(outputs).find((k) => outputs[k].entryPoint !== undefined && k.endsWith(".js"));
  const eager = new Set();
  const visit = (file) => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const i of outputs[file].imports)
      if (i.kind === "import-statement" && outputs[outName(i.path)]) visit(outName(i.path));
  };
  visit(entryOutput);
  let min = 0;
  let gzip = 0;
  const lazy = [];
  for (const [file, bytes] of code) {
    if (!file.endsWith(".js")) continue;
    const gz = gzipSync(bytes, { level: 9 }).length;
    if (eager.has(file)) {
      min += bytes.length;
      gzip += gz;
    } else lazy.push({ file, gzip: gz });
  }
  const inputs = new Map();
  for (const file of eager)
    for (const [path, info] of Object.entries(outputs[file].inputs))
      inputs.set(path, (inputs.get(path) ?? 0) + info.bytesInOutput);
  return { min, gzip, lazy, inputs };
}

/** An output's file name: esbuild's paths are absolute in `outputFiles` and relative to the cwd in the metafile. */
function outName(path) {
  const i = path.indexOf("entry-size-out/");
  return i < 0 ? path : path.slice(i + "entry-size-out/".length);
}
