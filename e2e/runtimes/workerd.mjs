// Runs the core suite inside workerd (Miniflare). By default WITHOUT nodejs_compat,
// so a Node API that slipped into core/ fails here. `--nodejs-compat` runs it with the flag.
import { bundleCoreSuite } from "./bundle.mjs";
import { report } from "./report.mjs";
import { runWorkerd } from "./runners.mjs";

const { code, files } = await bundleCoreSuite();
const { runtime, version, result } = await runWorkerd(code, { compat: process.argv.includes("--nodejs-compat") });
report(runtime, version, files, result);
