// Core guard: core/index.ts must bundle for a neutral platform (no Node built-ins can
// resolve there) and must not mention eval-like or WASM APIs. Prints min+gzip size.
import { build } from "esbuild";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./bundle.mjs";

const result = await build({
  entryPoints: [join(root, "core/index.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  conditions: ["worker", "browser"],
  minify: true,
  write: false,
  logLevel: "error",
  metafile: true,
});
const code = result.outputFiles[0].contents;
console.log(`core guard: neutral bundle OK — ${(code.length / 1024).toFixed(1)} KB min, ${(gzipSync(code).length / 1024).toFixed(1)} KB min+gzip`);

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
