// CPU profile of one bench scenario: top frames by self time, mapped back to core/*.ts through
// the bundle's source map. Usage:
//   node e2e/bench/profile.mjs <scenario> [--quick] [--seconds=4]     (list scenarios: no argument)
// The scenario runs in a child process; V8's sampling profiler (the one behind `node --cpu-prof`,
// driven through node:inspector so that input generation and warm-up stay out of the profile)
// records only the measured loop. The raw .cpuprofile is kept in e2e/.out/bench/ for DevTools.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { SourceMap } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadCore, outDir, root } from "./core-bundle.mjs";
import { ROW_MODULES } from "./rows/index.mjs";

const self = fileURLToPath(import.meta.url);

export function scenarios() {
  return Object.assign({}, ...ROW_MODULES.map((m) => m.profiles));
}

/** Runs `name` in a child under the profiler; returns the report text (top `top` frames by self time). */
export function profileScenario(name, { quick = false, seconds = 4, top = 12 } = {}) {
  const child = spawnSync(process.execPath, [self, "--child", name, `--seconds=${seconds}`, ...(quick ? ["--quick"] : [])], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) return `profile of ${name} failed (exit ${child.status})`;
  const { file, calls, elapsed } = JSON.parse(child.stdout);
  return summarizeProfile(file, { top, title: `${name}: ${calls} calls in ${(elapsed / 1000).toFixed(1)} s` });
}

function sourceMapOf(url, cache) {
  if (cache.has(url)) return cache.get(url);
  let map = null;
  try {
    const text = readFileSync(fileURLToPath(url), "utf8");
    const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(text);
    if (m) map = new SourceMap(JSON.parse(Buffer.from(m[1], "base64").toString("utf8")));
  } catch {}
  cache.set(url, map);
  return map;
}

function location(frame, maps) {
  const { url, lineNumber, columnNumber } = frame;
  if (!url) return "";
  if (url.startsWith("file://")) {
    const map = sourceMapOf(url, maps);
    const entry = map?.findEntry(lineNumber, columnNumber);
    if (entry && entry.originalSource) {
      // esbuild wrote no outfile, so its `sources` are relative to the working directory (the repository root).
      const source = entry.originalSource.startsWith("file://") ? fileURLToPath(entry.originalSource) : join(root, entry.originalSource);
      return `${relative(root, source)}:${entry.originalLine + 1}`;
    }
    return `${relative(root, fileURLToPath(url))}:${lineNumber + 1}`;
  }
  return `${url}:${lineNumber + 1}`;
}

/** Top frames by self time of a .cpuprofile, as a markdown list. */
export function summarizeProfile(file, { top = 12, title = file } = {}) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = timeDeltas[i + 1] ?? 0;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + dt);
  }
  const maps = new Map();
  const frames = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    const key = `${frame.functionName || "(anonymous)"}  ${location(frame, maps)}`;
    frames.set(key, (frames.get(key) ?? 0) + us);
    total += us;
  }
  const rows = [...frames].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `Profile ${title} — top ${rows.length} frames by self time (${(total / 1000).toFixed(0)} ms sampled):`,
    "",
    "| self | share | function and source |",
    "| --- | --- | --- |",
    ...rows.map(([key, us]) => `| ${(us / 1000).toFixed(1)} ms | ${((100 * us) / total).toFixed(1)}% | \`${key.replace(/\|/g, "\\|")}\` |`),
  ].join("\n");
}

async function child(name, seconds, quick) {
  const core = await import(pathToFileURL(join(outDir, "core.mjs")).href);
  const make = scenarios()[name];
  if (!make) throw new Error(`unknown scenario ${name}`);
  const fn = await make({ core, quick });
  for (let i = 0; i < 3; i++) await fn();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const t0 = performance.now();
  let calls = 0;
  while (performance.now() - t0 < seconds * 1000 || calls < 3) {
    await fn();
    calls++;
  }
  const elapsed = performance.now() - t0;
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  const file = join(outDir, `${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  process.stdout.write(JSON.stringify({ file, calls, elapsed }));
}

const argv = process.argv.slice(2);
if (process.argv[1] === self) {
  const seconds = Number(argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 4);
  const quick = argv.includes("--quick");
  if (argv[0] === "--child") {
    await child(argv[1], seconds, quick);
  } else if (argv[0] && !argv[0].startsWith("--")) {
    await loadCore();
    console.log(profileScenario(argv[0], { quick, seconds }));
  } else {
    console.log(`scenarios: ${Object.keys(scenarios()).join(", ")}`);
  }
}
