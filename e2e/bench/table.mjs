// Formats bench rows as one markdown table, with the machine it ran on.
import { cpus, loadavg } from "node:os";
import { summarize } from "./measure.mjs";

/**
 * @typedef {import("./measure.mjs").Stats} Stats
 * @typedef {{
 *   group: string, name: string, input: string,
 *   subject?: string, baselineName?: string, baseline?: string,
 *   ratio?: number, ratioText?: string,
 *   goal?: { max: number, text: string }, verdict?: string,
 *   measured?: number,
 *   note?: string, profile?: string,
 * }} Row
 */

/** 3 significant digits, in ms or µs. */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms < 1) return `${trim3(ms * 1000)} µs`;
  if (ms >= 10_000) return `${trim3(ms / 1000)} s`;
  return `${trim3(ms)} ms`;
}

function trim3(n) {
  if (n >= 100) return Math.round(n).toString();
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

/** `min / median / max` of a Stats. */
export const formatStats = (s) => `${formatMs(s.min)} / **${formatMs(s.median)}** / ${formatMs(s.max)}`;

export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

export const formatCount = (n) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * The figure a row's goal is about: `measured` when the goal is an absolute figure (e.g. a median
 * in ms), else the ratio.
 */
export const goalFigure = (row) => row.measured ?? row.ratio;

/** The verdict of a ratio (or `goalFigure`) against a "≤ max" goal. */
export function judge(ratio, goal) {
  if (!goal) return "no goal";
  if (ratio === undefined || !Number.isFinite(ratio)) return "n/a";
  return ratio <= goal.max ? "met" : `**missed** (${(ratio / goal.max).toFixed(2)}× the goal)`;
}

export function machine() {
  const cpu = cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    node: process.version,
    cpu: cpu[0]?.model.trim() ?? "unknown CPU",
    cores: cpu.length,
    load: loadavg()
      .map((n) => n.toFixed(2))
      .join(" "),
  };
}

/**
 * What one 4 KB page of memory the process has not touched yet costs on first write, in µs: the
 * best of three passes over a fresh 64 MB buffer, one write per page (a minor page fault each).
 * A heap that grows during a call pays this per page. It is the host's figure, not Strata's:
 * 10.6-11.3 µs on the Firecracker VM this was written on (a C program touching fresh `mmap`
 * pages measured the same), so rows whose calls promote megabytes to the old generation or
 * allocate large arrays move with the host, and their notes say how many faults a call takes.
 */
export function freshPageMicros() {
  const bytes = 64 << 20;
  const page = 4096;
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 3; pass++) {
    const start = performance.now();
    const buffer = new Uint8Array(bytes);
    for (let i = 0; i < bytes; i += page) buffer[i] = 1;
    best = Math.min(best, performance.now() - start);
  }
  return (best * 1000) / (bytes / page);
}

/**
 * Median minor page faults per call of `fn` over `calls` calls, after two calls that are not
 * counted (the heap then settles to `fn`'s own pattern, whatever ran before).
 */
export async function faultsPerCall(fn, calls = 5) {
  await fn();
  await fn();
  const counts = [];
  for (let k = 0; k < calls; k++) {
    const before = process.resourceUsage().minorPageFault;
    await fn();
    counts.push(process.resourceUsage().minorPageFault - before);
  }
  return summarize(counts).median;
}

/**
 * This machine's fresh-page cost: the figure `run.mjs` measured at the start of the run (handed
 * to each row process in `STRATA_BENCH_PAGE_US`), else measured here.
 */
export function pageMicros() {
  const given = Number(process.env.STRATA_BENCH_PAGE_US);
  return Number.isFinite(given) && given > 0 ? given : freshPageMicros();
}

/** A note on a row's page faults per call, priced at this machine's fresh-page cost. */
export function faultNote(label, faults) {
  const micros = pageMicros();
  const ms = (faults * micros) / 1000;
  return `${label}: ${formatCount(faults)} minor page faults per call (median of 5), ≈ ${formatMs(ms)} at ${micros.toFixed(1)} µs per fresh 4 KB page`;
}

/**
 * @param {Row[]} rows
 * @param {{ date: string, node: string, cpu: string, cores: number, loadBefore: string, loadAfter: string, mode: string, pageMicros: number }} meta
 */
export function renderTable(rows, meta) {
  const lines = [
    `**${meta.date}** · Node ${meta.node} · ${meta.cpu} × ${meta.cores} cores · ${meta.mode} · ` +
      `load average (1/5/15 min) before ${meta.loadBefore}, after ${meta.loadAfter} · ` +
      `first write to a fresh 4 KB page ${meta.pageMicros.toFixed(1)} µs (see \`freshPageMicros\`)`,
    "",
    "| Benchmark | Input | Strata: min / **median** / max | Baseline (same run) | Baseline: min / **median** / max | Ratio (medians) | Goal | Verdict |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const r of rows) {
    const ratio = r.ratioText ?? (r.ratio === undefined ? "—" : `${r.ratio.toFixed(2)}×`);
    const verdict = r.verdict ?? judge(goalFigure(r), r.goal);
    lines.push(
      `| ${r.group}: ${r.name} | ${r.input} | ${r.subject ?? "—"} | ${r.baselineName ?? "—"} | ${r.baseline ?? "—"} | ${ratio} | ${r.goal?.text ?? "—"} | ${verdict} |`,
    );
  }
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.group}: ${r.name} — ${r.note}`);
  if (notes.length > 0) lines.push("", ...notes);
  return lines.join("\n");
}
