// @ts-check
// The three commands. Each returns the exit code; what to print goes to `out` (stdout) and
// `err` (stderr, for progress and warnings). Input errors are thrown as CliError with code 3.
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { StrataError } from "prompt-strata";
import { inspect } from "prompt-strata/inspect";
import { parseRequest } from "prompt-strata/request";
import { createSessionInspector, sessionReportCsv } from "prompt-strata/session";
import { int, pairs, pct, signed, table, usd } from "./tables.mjs";

export const EXIT = { ok: 0, failed: 1, usage: 2, input: 3 };

export class CliError extends Error {
  /** @param {string} message @param {number} exitCode */
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** @param {unknown} e */
const code = (e) => (e && typeof e === "object" && "code" in e ? String(e.code) : "");

/** A file's text, or a CliError that says what is wrong with the path. @param {string} file */
export async function readText(file) {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    const why =
      code(e) === "ENOENT"
        ? "no such file"
        : code(e) === "EISDIR"
          ? "it is a directory"
          : code(e) === "EACCES"
            ? "permission denied"
            : String(e instanceof Error ? e.message : e);
    throw new CliError(`cannot read ${file}: ${why}.`, EXIT.input);
  }
}

/** A request file → its parsed form, or a CliError naming the file, the line and column, the path. */
function parsedRequest(file, text) {
  try {
    return parseRequest(text);
  } catch (e) {
    if (e instanceof StrataError) {
      const issue = /** @type {{ issues?: { line?: number; column?: number }[] }} */ (e).issues?.[0];
      const where = issue?.line ? ` (line ${issue.line}, column ${issue.column})` : "";
      throw new CliError(`${file}${where}: ${e.message}`, EXIT.input);
    }
    throw e;
  }
}

const FORMAT_NAMES = {
  strata: "Strata AssemblyRequest",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini generateContent",
};

/**
 * `inspect request.json [--previous prev.json]`: the report's summary.
 * @param {{ file: string; previous?: string; provider?: "openai" | "anthropic" | "gemini"; model?: string; json: boolean }} args
 * @param {(text: string) => void} out
 */
export async function inspectCommand({ file, previous, provider, model, json }, out) {
  const text = await readText(file);
  parsedRequest(file, text);
  const prevText = previous === undefined ? undefined : await readText(previous);
  if (prevText !== undefined) parsedRequest(previous, prevText);
  const report = await inspect(text, {
    ...(prevText !== undefined ? { previous: prevText } : {}),
    ...(provider ? { provider } : {}),
    ...(model ? { model } : {}),
  });
  if (json) {
    out(JSON.stringify(report, null, 2));
    return EXIT.ok;
  }
  const seg = report.segments;
  const rule = report.cache?.rule;
  const p = report.prefix;
  const rows = [
    [
      "provider",
      `${report.provider}${rule ? ` (rule ${rule.id}: ${rule.mode}, minimum ${int(rule.minTokens)} tokens)` : ""}`,
    ],
    [
      "size",
      seg
        ? `${int(seg.totalTokens)} tokens (estimate) · ${int(seg.totalBytes)} bytes · ${seg.segments.length} segments`
        : "—",
    ],
  ];
  if (p) {
    const share = p.next.tokens === 0 ? 0 : p.commonPrefix.tokens / p.next.tokens;
    rows.push([
      "previous",
      `${previous}: ${p.identical ? "identical" : p.divergence?.cause}${p.divergence?.bustsCache ? " (busts the cache)" : ""} — shared prefix ${int(p.commonPrefix.tokens)} of ${int(p.next.tokens)} tokens (${pct(share)})`,
    ]);
    if (p.divergence) rows.push(["", `${p.divergence.path}: ${p.divergence.detail}`]);
  }
  if (report.breakpoints)
    rows.push([
      "breakpoints",
      report.breakpoints.length === 0 ? "none suggested" : report.breakpoints.map((b) => b.path).join(", "),
    ]);
  rows.push(["history", report.history.issues.length === 0 ? "no issues" : `${report.history.issues.length} issue(s)`]);
  rows.push([
    "problems",
    report.problems.length === 0 ? "none" : report.problems.map((x) => `${x.stage}: ${x.message}`).join("; "),
  ]);
  out(`${file} — ${FORMAT_NAMES[report.format] ?? report.format} · ${report.model || "(no model)"}`);
  out(pairs(rows));
  if (report.cache) {
    const n = report.cache.turns.length;
    out(`\ncache simulation (${report.cache.rule.id})`);
    out(
      table(
        [
          ["turn", "total", "read", "written", "uncached", "relative cost"],
          ...report.cache.turns.map((t) => [
            `${t.turn} (${t.turn === n ? "this" : "previous"})`,
            int(t.totalTokens),
            int(t.cachedReadTokens),
            int(t.cacheWriteTokens),
            int(t.uncachedTokens),
            `${t.relativeCost.toFixed(2)}×`,
          ]),
        ],
        ["l", "r", "r", "r", "r", "r"],
      ),
    );
  }
  return report.problems.some((x) => x.severity === "error" && x.stage === "previous") ? EXIT.input : EXIT.ok;
}

/**
 * `check before.json after.json`: does the change keep the cache-stable prefix?
 * @param {{ before: string; after: string; provider?: "openai" | "anthropic" | "gemini"; model?: string; json: boolean; maxBustTokens?: number }} args
 * @param {(text: string) => void} out
 */
export async function checkCommand({ before, after, provider, model, json, maxBustTokens }, out) {
  const beforeText = await readText(before);
  const afterText = await readText(after);
  parsedRequest(before, beforeText);
  parsedRequest(after, afterText);
  const report = await inspect(afterText, {
    previous: beforeText,
    nextTurn: false,
    ...(provider ? { provider } : {}),
    ...(model ? { model } : {}),
  });
  const p = report.prefix;
  if (!p) {
    const why = report.problems.map((x) => x.message).join("; ") || "the requests could not be compared";
    throw new CliError(`cannot compare ${before} with ${after}: ${why}`, EXIT.input);
  }
  const cause = p.identical ? "identical" : (p.divergence?.cause ?? "identical");
  const busts = p.divergence?.bustsCache ?? false;
  // What the change costs the cache, with <before> sent just before <after>: the tokens <before>
  // left in the cache that <after> cannot read (the simulation's figures, blocks and breakpoints
  // included); without a simulation, the tokens of <before> that <after> no longer starts with.
  let lostTokens = Math.max(0, p.previous.tokens - p.commonPrefix.tokens);
  const sim = report.cache;
  if (sim && sim.turns.length === 2) {
    const [b, a] = /** @type {[any, any]} */ (sim.turns);
    const cachedByBefore =
      sim.rule.mode === "automatic"
        ? b.prevented.belowMinimum
          ? 0
          : b.totalTokens
        : b.cachedReadTokens + b.cacheWriteTokens;
    lostTokens = Math.max(0, Math.min(cachedByBefore, a.totalTokens) - a.cachedReadTokens);
  }
  const keeps = cause === "identical" || cause === "appended";
  const allowed = maxBustTokens !== undefined && lostTokens <= maxBustTokens;
  const failed = !keeps && (busts || cause === "truncated" || lostTokens > 0) && !allowed;
  const verdict = failed ? "fail" : "pass";
  if (json) {
    out(
      JSON.stringify(
        {
          verdict,
          cause,
          bustsCache: busts,
          lostTokens,
          maxBustTokens: maxBustTokens ?? null,
          provider: report.provider,
          model: report.model,
          sharedPrefix: p.commonPrefix,
          before: p.previous,
          after: p.next,
          divergence: p.divergence
            ? { path: p.divergence.path, previousPath: p.divergence.previousPath, detail: p.divergence.detail }
            : null,
        },
        null,
        2,
      ),
    );
  } else {
    out(`check ${before} → ${after} (${report.provider}, ${report.model || "no model"})`);
    const rows = [
      ["cause", `${cause}${busts ? " (busts the cache)" : ""}`],
      [
        "shared prefix",
        `${int(p.commonPrefix.tokens)} of ${int(p.previous.tokens)} tokens of ${before} · ${int(lostTokens)} cached tokens lost`,
      ],
    ];
    if (p.divergence) rows.push(["at", `${p.divergence.path}: ${p.divergence.detail}`]);
    rows.push([
      "verdict",
      failed
        ? `FAIL: ${busts ? "the change busts the cache" : "the cache-stable prefix shrinks"}, ${int(lostTokens)} cached tokens lost${maxBustTokens === undefined ? "" : ` (more than --max-bust-tokens ${int(maxBustTokens)})`}`
        : keeps
          ? "pass: the cache-stable prefix holds"
          : `pass: ${cause}, ${int(lostTokens)} cached tokens lost, within --max-bust-tokens ${int(maxBustTokens ?? 0)}`,
    ]);
    out(pairs(rows));
  }
  return failed ? EXIT.failed : EXIT.ok;
}

const MB = 1024 * 1024;

/**
 * `session file.har`: the per-turn table and the busts. Progress on stderr for files of 8 MB and more.
 * @param {{ file: string; json: boolean; csv: boolean; quiet: boolean }} args
 * @param {(text: string, newline?: boolean) => void} out
 * @param {(text: string, newline?: boolean) => void} err
 * @param {boolean} isTTY
 */
export async function sessionCommand({ file, json, csv, quiet }, out, err, isTTY) {
  let size;
  try {
    size = (await stat(file)).size;
  } catch {
    await readText(file); // throws the CliError that names the problem
    size = 0;
  }
  const inspector = createSessionInspector();
  const showProgress = !quiet && size >= 8 * MB;
  let read = 0;
  let lastShown = 0;
  const progress = (final) => {
    const { records, turns, skipped } = inspector.progress;
    const line = `reading ${file}: ${(read / MB).toFixed(1)} of ${(size / MB).toFixed(1)} MB · ${int(records)} records · ${int(turns)} turns · ${int(skipped)} skipped`;
    if (isTTY) err(`\r${line}${final ? "\n" : ""}`, false);
    else err(line);
  };
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: MB });
  try {
    for await (const chunk of stream) {
      read += Buffer.byteLength(chunk);
      inspector.push(chunk);
      if (showProgress && Date.now() - lastShown > (isTTY ? 200 : 2000)) {
        lastShown = Date.now();
        progress(false);
      }
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`, EXIT.input);
  }
  const report = inspector.finish();
  if (showProgress) progress(true);
  for (const p of report.problems)
    err(`warning: ${p.message}${p.line !== null ? ` (line ${p.line}, column ${p.column})` : ""}`);
  if (report.input.turns === 0 && report.problems.length > 0) {
    if (json) out(JSON.stringify(report, null, 2));
    return EXIT.input;
  }
  if (json) {
    out(JSON.stringify(report, null, 2));
    return EXIT.ok;
  }
  if (csv) {
    out(sessionReportCsv(report), false);
    return EXIT.ok;
  }
  const t = report.totals;
  out(
    `${file}: ${report.input.kind.toUpperCase()} · ${int(report.input.records)} records · ${int(t.turns)} turns in ${report.threads.length} thread(s) · ${int(report.skipped.count)} skipped`,
  );
  for (const thread of report.threads) {
    const tt = thread.totals;
    out(
      `\nthread ${thread.id} · ${thread.provider} · ${thread.model}${thread.key ? ` · key ${thread.key}` : ""} · ${thread.turns.length} turn(s) · hit rate ${pct(tt.predicted.hitRate)}${tt.actual ? ` (actual ${pct(tt.actual.hitRate)})` : ""} · ${usd(tt.cost.withCaching)} (without caching ${usd(tt.cost.withoutCaching)})`,
    );
    out(
      table(
        [
          [
            "turn",
            "entry",
            "time",
            "gap",
            "cause",
            "input",
            "read",
            "written",
            "uncached",
            "actual read",
            "Δ input",
            "cost",
          ],
          ...thread.turns.map((x) => [
            String(x.turn),
            x.at,
            x.time ? x.time.slice(11, 19) : "—",
            x.gapSeconds === null ? "—" : `${Math.round(x.gapSeconds)}s`,
            `${x.cause}${x.bustsCache ? " ✗" : ""}${x.predicted.expired ? " (expired)" : ""}`,
            int(x.predicted.input),
            int(x.predicted.cacheRead),
            int(x.predicted.cacheWrite),
            int(x.predicted.uncached),
            x.actual ? int(x.actual.cacheRead) : "—",
            x.difference ? signed(x.difference.input) : "—",
            x.cost ? usd(x.cost.total) : "—",
          ]),
        ],
        ["r", "l", "l", "r", "l", "r", "r", "r", "r", "r", "r", "r"],
      ),
    );
  }
  out(report.busts.length === 0 ? "\nbusts: none" : "\nbusts:");
  for (const b of report.busts)
    out(
      `  ${b.thread} turn ${b.turn} (${report.threads.find((x) => x.id === b.thread)?.turns[b.turn - 1]?.at}) after turn ${b.previousTurn}: ${b.cause}, ${int(b.lostTokens)} tokens lost — ${b.detail}`,
    );
  if (report.skipped.count > 0)
    out(
      `\nskipped: ${report.skipped.reasons.map((r) => `${int(r.count)} ${r.code.replaceAll("_", " ")}`).join(", ")} (first: ${report.skipped.reasons[0]?.example})`,
    );
  out(
    `\ntotals: hit rate ${pct(t.predicted.hitRate)} predicted${t.actual ? `, ${pct(t.actual.hitRate)} actual over ${int(t.actual.turns)} turn(s)` : ""} · cost ${usd(t.cost.withCaching)} with caching, ${usd(t.cost.withoutCaching)} without (${t.cost.basis})${report.prices.unpriced.length > 0 ? ` · not priced: ${report.prices.unpriced.join(", ")}` : ""}`,
  );
  return EXIT.ok;
}
