// Formats bench rows as one markdown table, with the machine it ran on.
import { cpus, loadavg } from "node:os";

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
 * @param {Row[]} rows
 * @param {{ date: string, node: string, cpu: string, cores: number, loadBefore: string, loadAfter: string, mode: string }} meta
 */
export function renderTable(rows, meta) {
  const lines = [
    `**${meta.date}** · Node ${meta.node} · ${meta.cpu} × ${meta.cores} cores · ${meta.mode} · ` +
      `load average (1/5/15 min) before ${meta.loadBefore}, after ${meta.loadAfter}`,
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
