/**
 * `sessionReportCsv(report)`: one row per turn (RFC 4180: comma-separated, CRLF line ends, fields
 * with a comma, quote or line break quoted, quotes doubled), for a spreadsheet. Numbers are
 * written as JSON writes them; an absent value (no time, no actual usage, no price) is empty.
 */
import type { SessionReport, SessionTurn } from "./types.ts";

const COLUMNS: readonly [string, (t: SessionTurn, thread: string) => string | number | boolean | null][] = [
  ["thread", (_t, thread) => thread],
  ["turn", (t) => t.turn],
  ["entry", (t) => t.entry],
  ["at", (t) => t.at],
  ["time", (t) => t.time],
  ["gap_seconds", (t) => t.gapSeconds],
  ["model", (t) => t.model],
  ["cause", (t) => t.cause],
  ["busts_cache", (t) => t.bustsCache],
  ["shared_prefix_tokens", (t) => t.sharedPrefix?.tokens ?? null],
  ["predicted_input", (t) => t.predicted.input],
  ["predicted_cache_read", (t) => t.predicted.cacheRead],
  ["predicted_cache_write", (t) => t.predicted.cacheWrite],
  ["predicted_uncached", (t) => t.predicted.uncached],
  ["expired", (t) => t.predicted.expired],
  ["actual_input", (t) => t.actual?.input ?? null],
  ["actual_cache_read", (t) => t.actual?.cacheRead ?? null],
  ["actual_cache_write", (t) => t.actual?.cacheWrite ?? null],
  ["actual_output", (t) => t.actual?.output ?? null],
  ["difference_input", (t) => t.difference?.input ?? null],
  ["difference_cache_read", (t) => t.difference?.cacheRead ?? null],
  ["cost_basis", (t) => t.cost?.basis ?? null],
  ["cost_usd", (t) => t.cost?.total ?? null],
  ["cost_without_caching_usd", (t) => t.cost?.withoutCaching ?? null],
  ["detail", (t) => t.detail],
];

function field(v: string | number | boolean | null): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The report's turns as CSV, thread by thread, with a header row. */
export function sessionReportCsv(report: SessionReport): string {
  const lines = [COLUMNS.map(([name]) => name).join(",")];
  for (const thread of report.threads)
    for (const t of thread.turns) lines.push(COLUMNS.map(([, get]) => field(get(t, thread.id))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
