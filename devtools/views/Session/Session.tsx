import { useMemo, useRef, useState } from "react";
import { useFileDrop } from "../../components/useFileDrop.ts";
import type { BustCause, SessionBust, SessionReport } from "../../../core/session/index.ts";
import { navigate } from "../../app/useRouting.ts";
import { fmtBytes, fmtInt, fmtPct } from "../../components/format.ts";
import { PROVIDER_NAMES } from "../../components/names.ts";
import { fetchSampleBlob, useSessionSamples } from "../../queries/sessionSamples.ts";
import { buildSessionLink, type ShareLink } from "../../share/links.ts";
import { useSession } from "../../store/session.ts";
import { exportCsv, exportJson, loadSessionFile, openTurn } from "./actions.ts";
import { fmtUsd } from "./model.ts";
import { Timeline } from "./Timeline.tsx";
import { BustList, ThreadList, TurnTable } from "./Turns.tsx";
import "./Session.css";

/** Drop zone, file picker and bundled samples; progress while a file is read. */
function LoadPanel() {
  const status = useSession((s) => s.status);
  const source = useSession((s) => s.source);
  const progress = useSession((s) => s.progress);
  const error = useSession((s) => s.error);
  const report = useSession((s) => s.report);
  const samples = useSessionSamples();
  const fileInput = useRef<HTMLInputElement>(null);
  const { dragging, dropProps } = useFileDrop((file) => void loadSessionFile(file, file.name));
  const shownSample = source?.kind === "sample" ? (samples.data?.find((s) => s.title === source.name)?.id ?? "") : "";
  return (
    <section
      className={`panel ss-load${dragging ? " dragging" : ""}`}
      data-testid="session-load"
      aria-label="Load a session"
      {...dropProps}
    >
      <div className="panel-head">
        <h2>Session</h2>
        <span className="muted">
          A whole conversation's cache story: a HAR saved from the browser's network panel or a proxy, or a JSONL log of
          requests (bodies or {"{ request, response, time }"} records). Read here, in a worker; nothing is sent.
        </span>
      </div>
      <div className="ss-drop" data-testid="session-drop">
        <span>Drop a .har, .jsonl or .json file here, or</span>
        <button type="button" data-testid="session-open-file" onClick={() => fileInput.current?.click()}>
          Open file…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".har,.jsonl,.ndjson,.json,application/json"
          hidden
          data-testid="session-file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void loadSessionFile(file, file.name);
            e.target.value = "";
          }}
        />
        <label>
          <span className="sr-only">Bundled sample session</span>
          <select
            data-testid="session-sample-picker"
            value={shownSample}
            onChange={(e) => {
              const entry = samples.data?.find((s) => s.id === e.target.value);
              if (entry) void fetchSampleBlob(entry.file).then((blob) => loadSessionFile(blob, entry.title, "sample"));
            }}
          >
            <option value="">Sample session…</option>
            {samples.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      {status === "loading" && progress ? (
        <div className="ss-progress" data-testid="session-progress" role="status">
          <progress
            value={progress.total > 0 ? progress.bytes : undefined}
            max={progress.total > 0 ? progress.total : undefined}
          />
          <span className="muted">
            Reading {source?.name}:{" "}
            {progress.total > 0 ? `${fmtBytes(progress.bytes)} of ${fmtBytes(progress.total)} · ` : ""}
            {fmtInt(progress.records)} records · {fmtInt(progress.turns)} turns · {fmtInt(progress.skipped)} skipped
          </span>
        </div>
      ) : null}
      {status === "error" ? (
        <p className="error" role="alert" data-testid="session-error">
          {error}
        </p>
      ) : null}
      {status === "ready" && report && source ? (
        <p className="muted" data-testid="session-source" data-kind={report.input.kind}>
          {source.name} ·{" "}
          {report.input.kind === "fingerprints"
            ? "hash-only session (no prompt text)"
            : report.input.kind.toUpperCase()}{" "}
          · {fmtInt(report.input.records)} records · {fmtInt(report.input.turns)} turns
        </p>
      ) : null}
    </section>
  );
}

/** Totals, exports and the hash-only share link. */
function Summary({ report }: { readonly report: SessionReport }) {
  const source = useSession((s) => s.source);
  const fingerprints = useSession((s) => s.fingerprints);
  const [link, setLink] = useState<ShareLink | null>(null);
  const t = report.totals;
  const name = source?.name ?? "session";
  const share = async () => {
    if (!fingerprints) return;
    const built = await buildSessionLink(fingerprints).catch(
      (e): ShareLink => ({ ok: false, reason: `Could not build the link: ${String(e)}` }),
    );
    if (built.ok) await navigator.clipboard?.writeText(built.url).catch(() => undefined);
    setLink(built);
  };
  return (
    <section className="panel" data-testid="session-summary" data-turns={t.turns} data-busts={t.busts}>
      <div className="panel-head">
        <h2>Totals</h2>
        <span className="muted">
          {report.threads.length} thread(s) · prices of {report.prices.date}
          {report.prices.unpriced.length > 0 ? ` · not priced: ${report.prices.unpriced.join(", ")}` : ""}
        </span>
      </div>
      <dl className="ss-facts">
        <div>
          <dt>Turns</dt>
          <dd>{fmtInt(t.turns)}</dd>
        </div>
        <div>
          <dt>Busts</dt>
          <dd className={t.busts > 0 ? "error" : undefined}>{fmtInt(t.busts)}</dd>
        </div>
        <div>
          <dt>Read from cache (predicted)</dt>
          <dd data-testid="session-hit-rate">
            {fmtPct(t.predicted.hitRate)} <span className="muted">of {fmtInt(t.predicted.input)} tokens</span>
          </dd>
        </div>
        <div>
          <dt>Read from cache (actual)</dt>
          <dd>
            {t.actual ? (
              <>
                {fmtPct(t.actual.hitRate)} <span className="muted">over {fmtInt(t.actual.turns)} turns</span>
              </>
            ) : (
              <span className="muted">no usage in the responses</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Cost with caching</dt>
          <dd data-testid="session-cost">
            {fmtUsd(t.cost.withCaching)} <span className="muted">({t.cost.basis})</span>
          </dd>
        </div>
        <div>
          <dt>Without caching</dt>
          <dd>
            {fmtUsd(t.cost.withoutCaching)} <span className="muted">saves {fmtUsd(t.cost.savings)}</span>
          </dd>
        </div>
      </dl>
      <div className="ss-actions">
        <button type="button" data-testid="session-export-json" onClick={() => exportJson(report, name)}>
          Export JSON
        </button>
        <button type="button" data-testid="session-export-csv" onClick={() => exportCsv(report, name)}>
          Export CSV
        </button>
        <button
          type="button"
          data-testid="session-share"
          disabled={!fingerprints}
          title="A link with the session's hashes, sizes, times and usage: no prompt text"
          onClick={() => void share()}
        >
          Hash-only link
        </button>
      </div>
      {link ? (
        <div className="ss-link" data-testid="session-share-panel">
          {link.ok ? (
            <input
              readOnly
              data-testid="session-share-url"
              value={link.url}
              aria-label="Session share URL"
              onFocus={(e) => e.currentTarget.select()}
            />
          ) : (
            <p className="error">{link.reason}</p>
          )}
        </div>
      ) : null}
      {report.problems.map((p, i) => (
        <p key={i} className="ss-problem" role="alert" data-testid="session-problem" data-code={p.code}>
          <span className="badge badge-error">{p.code.replaceAll("_", " ")}</span> {p.message}
        </p>
      ))}
      {report.skipped.count > 0 ? (
        <details className="ss-skipped" data-testid="session-skipped" data-count={report.skipped.count}>
          <summary>
            {fmtInt(report.skipped.count)} record(s) left out:{" "}
            {report.skipped.reasons.map((r) => `${fmtInt(r.count)} ${r.code.replaceAll("_", " ")}`).join(", ")}
          </summary>
          <ul>
            {report.skipped.records.map((s) => (
              <li key={s.index}>{s.message}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** A recorded session: threads, a timeline per thread, every turn, the busts; a turn opens in the request views. */
export function SessionView() {
  const status = useSession((s) => s.status);
  const report = useSession((s) => s.report);
  const selected = useSession((s) => s.thread);
  const [openError, setOpenError] = useState<string | null>(null);
  const thread = report?.threads.find((t) => t.id === selected) ?? report?.threads[0] ?? null;
  const busts = useMemo(() => {
    const map = new Map<number, BustCause>();
    for (const b of report?.busts ?? []) if (b.thread === thread?.id) map.set(b.turn, b.cause);
    return map;
  }, [report, thread]);
  const open = async (threadId: string, turn: number) => {
    if (!report) return;
    const r = await openTurn(report, threadId, turn);
    setOpenError(r.ok ? null : r.reason);
    if (r.ok) navigate("cache");
  };
  return (
    <>
      <LoadPanel />
      {status === "ready" && report ? (
        <>
          <Summary report={report} />
          {openError ? (
            <p className="error" role="alert" data-testid="session-open-error">
              {openError}
            </p>
          ) : null}
          {report.threads.length > 1 ? (
            <ThreadList
              report={report}
              selected={thread?.id ?? null}
              onSelect={(id) => useSession.setState({ thread: id })}
            />
          ) : null}
          {thread ? (
            <section className="panel" data-testid="session-thread-panel" data-thread={thread.id}>
              <div className="panel-head">
                <h2>Timeline of {thread.id}</h2>
                <span className="muted">
                  {PROVIDER_NAMES[thread.provider]} · {thread.model} · rule {thread.ruleId} · {thread.turns.length}{" "}
                  turns
                </span>
              </div>
              <Timeline thread={thread} busts={busts} onOpen={(turn) => void open(thread.id, turn)} />
              <p className="ss-legend muted">
                <span>
                  <span className="ss-swatch ss-read" /> read from cache
                </span>
                <span>
                  <span className="ss-swatch ss-write" /> written
                </span>
                <span>
                  <span className="ss-swatch ss-uncached" /> uncached
                </span>
                <span>· the narrow bar beside a turn: the response's actual usage</span>
                <span>· red: a bust and its cause</span>
                <span>· click a turn to open it with its previous one</span>
              </p>
            </section>
          ) : null}
          {thread ? <TurnTable thread={thread} onOpen={(turn) => void open(thread.id, turn)} /> : null}
          <BustList report={report} onOpen={(b: SessionBust) => void open(b.thread, b.turn)} />
        </>
      ) : null}
      {status === "empty" ? (
        <section className="panel ss-empty" data-testid="session-empty">
          <h2>No session yet</h2>
          <p className="muted">
            Save a HAR from your browser's network panel (right-click → Save all as HAR) while your app talks to OpenAI,
            Anthropic, Gemini or Bedrock, or log each request body (with its response and time) as one JSON line. Strata
            threads the conversations, simulates the cache turn by turn with the real gaps between them, sets the
            responses' usage against the prediction, prices every turn and lists where the cache was lost and why.
          </p>
        </section>
      ) : null}
    </>
  );
}
