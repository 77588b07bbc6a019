// Bundles every core/**/*.test.ts, unchanged, into one ESM module for runtimes that
// cannot run vitest: "vitest" resolves to ./harness.ts. The bundle exports `run()`
// and, for module workers, a `fetch` handler that runs the suite and answers JSON.
import { build } from "esbuild";
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export function coreTestFiles() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".test.ts")) out.push(relative(root, path));
    }
  };
  walk(join(root, "core"));
  return out.sort();
}

/** @param {{ platform?: "neutral" | "browser" }} [options] */
export async function bundleCoreSuite(options = {}) {
  const files = coreTestFiles();
  const entry = [
    ...files.map((f) => `import "./${f.replaceAll("\\", "/")}";`),
    `import { run } from "./e2e/runtimes/harness.ts";`,
    `export { run };`,
    `export const testFiles = ${JSON.stringify(files)};`,
    `export default { async fetch() { return new Response(JSON.stringify(await run()), { headers: { "content-type": "application/json" } }); } };`,
  ].join("\n");
  const result = await build({
    stdin: { contents: entry, resolveDir: root, sourcefile: "core-suite-entry.ts", loader: "ts" },
    bundle: true,
    format: "esm",
    platform: options.platform ?? "neutral",
    mainFields: ["module", "main"],
    conditions: ["worker", "browser"],
    target: "es2022",
    write: false,
    logLevel: "error",
    // package.json says "sideEffects": false; test files are nothing but side effects.
    ignoreAnnotations: true,
    // tinyrainbow reads process.env on import (Deno without --allow-env throws): plain text instead.
    alias: { vitest: join(root, "e2e/runtimes/harness.ts"), tinyrainbow: join(root, "e2e/runtimes/no-colors.ts") },
  });
  return { code: result.outputFiles[0].text, files };
}
