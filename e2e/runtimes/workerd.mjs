// Runs the core suite inside workerd (Miniflare). By default WITHOUT nodejs_compat,
// so a Node API that slipped into core/ fails here. `--nodejs-compat` runs it with the flag.
import { Miniflare } from "miniflare";
import { createRequire } from "node:module";
import { bundleCoreSuite } from "./bundle.mjs";
import { report } from "./report.mjs";

const compat = process.argv.includes("--nodejs-compat");
const { code, files } = await bundleCoreSuite();
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
  const version = createRequire(import.meta.url)("workerd/package.json").version;
  report(compat ? "workerd+nodejs_compat" : "workerd", version, files, JSON.parse(text));
} finally {
  await mf.dispose();
}
