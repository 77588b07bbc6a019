// CPU profile of one bench scenario: top frames by self time, mapped back to core/*.ts through
// the bundle's source map. Usage:
//   node e2e/bench/profile.mjs <scenario> [--against=<scenario>] [--quick] [--seconds=4]
//   node e2e/bench/profile.mjs            (lists the scenarios)
// The scenario runs in a child process; V8's sampling profiler (the one behind `node --cpu-prof`,
// driven through node:inspector so that input generation and warm-up stay out of the profile)
// records only the measured loop. The raw .cpuprofile is kept in e2e/.out/bench/ for DevTools.
// STRATA_BENCH_CORE=<file.mjs> profiles another core bundle (as in run-row.mjs).
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

function runChild(name, quick, seconds) {
  const child = spawnSync(
    process.execPath,
    [self, "--child", name, `--seconds=${seconds}`, ...(quick ? ["--quick"] : [])],
    {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (child.status !== 0) throw new Error(`profile of ${name} failed (exit ${child.status})`);
  return JSON.parse(child.stdout);
}

/**
 * Runs `name` in a child under the profiler; returns the report text (top `top` frames by self
 * time). With `against`, also profiles that scenario and adds a table of where `name` spends
 * more per call than `against` does (e.g. 100,000 vs 10,000 messages, or Strata vs the raw library).
 */
export function profileScenario(name, { quick = false, seconds = 4, top = 12, against } = {}) {
  try {
    const a = runChild(name, quick, seconds);
    const parts = [
      summarizeProfile(a.file, { top, title: `${name}: ${a.calls} calls in ${(a.elapsed / 1000).toFixed(1)} s` }),
    ];
    if (against) {
      const b = runChild(against, quick, seconds);
      parts.push(compareProfiles({ ...a, name }, { ...b, name: against }, { top }));
    }
    return parts.join("\n\n");
  } catch (error) {
    return String(error.message);
  }
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
      const source = entry.originalSource.startsWith("file://")
        ? fileURLToPath(entry.originalSource)
        : join(root, entry.originalSource);
      return `${relative(root, source)}:${entry.originalLine + 1}`;
    }
    return `${relative(root, fileURLToPath(url))}:${lineNumber + 1}`;
  }
  return `${url}:${lineNumber + 1}`;
}

/** Self time (µs) by "function  source:line" of a .cpuprofile, and the total. */
function selfTimes(file) {
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
  return { frames, total };
}

const code = (key) => `\`${key.replace(/\|/g, "\\|")}\``;

/** Top frames by self time of a .cpuprofile, as a markdown list. */
export function summarizeProfile(file, { top = 12, title = file } = {}) {
  const { frames, total } = selfTimes(file);
  const rows = [...frames].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `Profile ${title} — top ${rows.length} frames by self time (${(total / 1000).toFixed(0)} ms sampled):`,
    "",
    "| self | share | function and source |",
    "| --- | --- | --- |",
    ...rows.map(([key, us]) => `| ${(us / 1000).toFixed(1)} ms | ${((100 * us) / total).toFixed(1)}% | ${code(key)} |`),
  ].join("\n");
}

/** Per-call self time of two profiles side by side, sorted by how much more `a` spends. */
export function compareProfiles(a, b, { top = 12 } = {}) {
  const A = selfTimes(a.file);
  const B = selfTimes(b.file);
  const perCall = (t, calls) => t / calls / 1000;
  const rows = [...new Set([...A.frames.keys(), ...B.frames.keys()])]
    .map((key) => [key, perCall(A.frames.get(key) ?? 0, a.calls), perCall(B.frames.get(key) ?? 0, b.calls)])
    .sort((x, y) => y[1] - y[2] - (x[1] - x[2]))
    .slice(0, top);
  const ratio = (x, y) => (y > 0 ? `${(x / y).toFixed(1)}×` : "only here");
  return [
    `Where ${a.name} spends more than ${b.name}, per call (self time; ${perCall(A.total, a.calls).toFixed(2)} ms vs ${perCall(B.total, b.calls).toFixed(2)} ms in total, ` +
      `${ratio(A.total / a.calls, B.total / b.calls)}):`,
    "",
    `| ${a.name} | ${b.name} | difference | ratio | function and source |`,
    "| --- | --- | --- | --- | --- |",
    ...rows.map(
      ([key, x, y]) =>
        `| ${x.toFixed(3)} ms | ${y.toFixed(3)} ms | +${(x - y).toFixed(3)} ms | ${ratio(x, y)} | ${code(key)} |`,
    ),
  ].join("\n");
}

async function child(name, seconds, quick) {
  const core = await import(pathToFileURL(process.env.STRATA_BENCH_CORE ?? join(outDir, "core.mjs")).href);
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
    if (!process.env.STRATA_BENCH_CORE) await loadCore();
    const against = argv.find((a) => a.startsWith("--against="))?.slice(10);
    console.log(profileScenario(argv[0], { quick, seconds, ...(against ? { against } : {}) }));
  } else {
    console.log(`scenarios: ${Object.keys(scenarios()).join(", ")}`);
  }
}
