import type { SessionBust, SessionReport, SessionThread, SessionTurn } from "../../../core/session/index.ts";
import { fmtInt, fmtPct } from "../../components/format.ts";
import { VirtualList } from "../../components/VirtualList.tsx";
import { BUST_CAUSE_LABELS, causeTone, fmtClock, fmtGap, fmtUsd, TURN_CAUSE_LABELS } from "./model.ts";

const signed = (n: number) => (n > 0 ? `+${fmtInt(n)}` : fmtInt(n));

function TurnRow({ t, onOpen }: { readonly t: SessionTurn; readonly onOpen: (turn: number) => void }) {
  const tone = causeTone(t);
  return (
    <div
      className="ss-row ss-turn-row"
      data-testid="session-turn-row"
      data-turn={t.turn}
      data-entry={t.entry}
      data-cause={t.cause}
      data-read={t.predicted.cacheRead}
      data-write={t.predicted.cacheWrite}
      data-expired={t.predicted.expired}
    >
      <span className="num">{t.turn}</span>
      <code className="ss-at" title={t.at}>
        {t.at}
      </code>
      <span className="num" title={t.time ?? undefined}>
        {fmtClock(t.time)}
      </span>
      <span className="num">{fmtGap(t.gapSeconds)}</span>
      <span className="ss-cause">
        <span className={`badge${tone === "plain" ? "" : ` badge-${tone}`}`} title={t.detail}>
          {TURN_CAUSE_LABELS[t.cause]}
        </span>
        {t.predicted.expired ? <span className="badge badge-warn">expired</span> : null}
      </span>
      <span className="num">{fmtInt(t.predicted.input)}</span>
      <span className="num">{fmtInt(t.predicted.cacheRead)}</span>
      <span className="num">{fmtInt(t.predicted.cacheWrite)}</span>
      <span className="num">{fmtInt(t.predicted.uncached)}</span>
      <span
        className="num"
        title={t.actual ? `actual input ${fmtInt(t.actual.input)}, output ${fmtInt(t.actual.output)}` : undefined}
      >
        {t.actual ? `${fmtInt(t.actual.cacheRead)} / ${fmtInt(t.actual.input)}` : "—"}
      </span>
      <span className="num">{t.difference ? signed(t.difference.input) : "—"}</span>
      <span
        className="num"
        title={t.cost ? `${t.cost.basis}; without caching ${fmtUsd(t.cost.withoutCaching)}` : "not in the model table"}
      >
        {t.cost ? fmtUsd(t.cost.total) : "—"}
      </span>
      <span>
        <button type="button" className="link" data-testid="session-open-turn" onClick={() => onOpen(t.turn)}>
          Open
        </button>
      </span>
    </div>
  );
}

/** Every turn of a thread: cause, predicted read / written / uncached, actual usage and the difference, cost. */
export function TurnTable({
  thread,
  onOpen,
}: {
  readonly thread: SessionThread;
  readonly onOpen: (turn: number) => void;
}) {
  return (
    <section className="panel" data-testid="session-turns" aria-label={`Turns of thread ${thread.id}`}>
      <div className="panel-head">
        <h2>Turns of {thread.id}</h2>
        <span className="muted">
          Predicted tokens are estimates (countRequestTokens, calibrated per provider); “actual” is what the response
          reported (read / input). Open loads the turn and its previous one into the request slots and shows Cache
          prefix.
        </span>
      </div>
      <div className="ss-grid" role="table">
        <div className="ss-row ss-head" role="row">
          <span className="num">Turn</span>
          <span>Entry</span>
          <span className="num">Time</span>
          <span className="num">Gap</span>
          <span>Cause</span>
          <span className="num">Input</span>
          <span className="num">Read</span>
          <span className="num">Written</span>
          <span className="num">Uncached</span>
          <span className="num">Actual</span>
          <span className="num">Δ input</span>
          <span className="num">Cost</span>
          <span />
        </div>
        <VirtualList
          items={thread.turns}
          rowHeight={30}
          testId="session-turn-list"
          getKey={(t) => t.turn}
          renderRow={(t) => <TurnRow t={t} onOpen={onOpen} />}
        />
      </div>
    </section>
  );
}

/** Turns that lost cache their predecessor built, with the root cause; each opens the pair. */
export function BustList({
  report,
  onOpen,
}: {
  readonly report: SessionReport;
  readonly onOpen: (bust: SessionBust) => void;
}) {
  const at = (b: SessionBust, turn: number) =>
    report.threads.find((t) => t.id === b.thread)?.turns[turn - 1]?.at ?? `turn ${turn}`;
  return (
    <section className="panel" data-testid="session-busts" data-count={report.busts.length}>
      <div className="panel-head">
        <h2>Busts</h2>
        <span className="muted">
          {report.busts.length === 0
            ? "No turn lost the cache its previous turn built."
            : "Turns that lost the cache their previous turn built, and why."}
        </span>
      </div>
      {report.busts.length > 0 ? (
        <VirtualList
          items={report.busts}
          rowHeight={48}
          testId="session-bust-list"
          className="ss-busts"
          getKey={(b) => `${b.thread}:${b.turn}`}
          renderRow={(b) => (
            <div
              className="ss-bust-row"
              data-testid="session-bust"
              data-thread={b.thread}
              data-turn={b.turn}
              data-cause={b.cause}
            >
              <span className="ss-bust-where">
                <strong>
                  {b.thread} turn {b.turn}
                </strong>{" "}
                <span className="muted">
                  ({at(b, b.turn)}) after turn {b.previousTurn} ({at(b, b.previousTurn)})
                </span>
              </span>
              <span className="badge badge-error">{BUST_CAUSE_LABELS[b.cause]}</span>
              <span className="num">{fmtInt(b.lostTokens)} tokens lost</span>
              <button type="button" data-testid="session-open-bust" onClick={() => onOpen(b)}>
                Open the pair
              </button>
              <span className="ss-bust-detail muted">{b.detail}</span>
            </div>
          )}
        />
      ) : null}
    </section>
  );
}

/** The threads the session came apart into (shown when there is more than one). */
export function ThreadList({
  report,
  selected,
  onSelect,
}: {
  readonly report: SessionReport;
  readonly selected: string | null;
  readonly onSelect: (id: string) => void;
}) {
  return (
    <section className="panel" data-testid="session-threads" data-count={report.threads.length}>
      <div className="panel-head">
        <h2>Threads</h2>
        <span className="muted">Conversations told apart by model, cache key or user id, and message history.</span>
      </div>
      <VirtualList
        items={report.threads}
        rowHeight={30}
        testId="session-thread-list"
        getKey={(t) => t.id}
        renderRow={(t) => (
          <button
            type="button"
            className="ss-thread"
            data-testid="session-thread"
            data-thread={t.id}
            aria-pressed={t.id === selected}
            onClick={() => onSelect(t.id)}
          >
            <strong>{t.id}</strong>
            <span>
              {t.model}
              {t.key ? <span className="muted"> · key {t.key}</span> : null}
            </span>
            <span className="num">{fmtInt(t.turns.length)} turns</span>
            <span className="num">{fmtPct(t.totals.predicted.hitRate)} read</span>
            <span className={`num${t.totals.busts > 0 ? " error" : ""}`}>{fmtInt(t.totals.busts)} busts</span>
            <span className="num">{fmtUsd(t.totals.cost.withCaching)}</span>
          </button>
        )}
      />
    </section>
  );
}
