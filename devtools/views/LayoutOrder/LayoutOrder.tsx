import type { Message } from "../../../core/index.ts";
import { TokenBasis } from "../../components/TokenBasis.tsx";
import type { InspectionReport, LayoutTrace } from "../../../core/inspect/index.ts";
import { fmtInt, plural } from "../../components/format.ts";
import { messagePreview } from "../../components/messagePreview.ts";
import { ProvenanceChip, ProvenanceLegend } from "../../components/Provenance.tsx";
import { PROVENANCE_LABELS, provenanceFill, provenanceInk } from "../../components/provenance.ts";
import { VirtualList, VIRTUALIZE_ABOVE } from "../../components/VirtualList.tsx";
import { computeMoves, presentKinds, stripBlocks, type Move } from "./model.ts";
import { WireLayoutView } from "./WireLayout.tsx";
import "./LayoutOrder.css";

const ROW = 30; // px, fixed so the connectors can find rows

function Strip({ trace }: { readonly trace: LayoutTrace }) {
  const blocks = stripBlocks(trace.messages);
  const total = blocks.reduce((a, b) => a + Math.max(b.chars, 1), 0);
  return (
    <div
      className="lo-strip"
      data-testid={`layout-strip-${trace.layout}`}
      role="img"
      aria-label={`${trace.layout} order: ${blocks.map((b) => b.label).join(", ")}`}
    >
      {blocks.map((b, i) => (
        <span
          key={i}
          className="lo-block"
          data-kind={b.kind}
          style={{
            flexGrow: Math.max(b.chars, 1) / total,
            background: provenanceFill(b.kind),
            color: provenanceInk(b.kind),
          }}
          title={`${b.label} · ${fmtInt(b.chars)} chars${b.count > 1 ? ` · ${b.count} messages` : ""}`}
        >
          {b.label}
        </span>
      ))}
    </div>
  );
}

function Column({
  trace,
  selected,
  moved,
}: {
  readonly trace: LayoutTrace | null;
  readonly selected: boolean;
  readonly moved: ReadonlyMap<number, number>;
}) {
  if (!trace) {
    return (
      <div className="lo-column" data-testid="layout-column-failed">
        <p className="error">This layout could not be assembled; see the problems on the overview.</p>
      </div>
    );
  }
  return (
    <div className="lo-column" data-testid={`layout-column-${trace.layout}`} data-selected={selected}>
      <div className="lo-col-head">
        <h3>
          <code>{trace.layout}</code>
        </h3>
        {selected ? <span className="badge badge-ok">selected</span> : null}
        <span className="muted num">
          {`${plural(trace.messages.length, "message")} · ${fmtInt(trace.totalTokens)} tokens · ${fmtInt(trace.totalBytes)} bytes`}
        </span>
      </div>
      <Strip trace={trace} />
      <VirtualList
        items={trace.messages}
        rowHeight={ROW}
        testId={`layout-list-${trace.layout}`}
        className="lo-list"
        getKey={(m) => m.index}
        renderRow={(m) => {
          const delta = moved.get(m.index);
          return (
            <div
              className="lo-row"
              style={{ height: ROW }}
              data-testid="layout-row"
              data-layout={trace.layout}
              data-index={m.index}
              data-source={m.source}
              data-kind={m.sourceKind}
            >
              <span className="lo-idx num">{m.index}</span>
              <span className="lo-role">{m.role}</span>
              <ProvenanceChip source={m.source} sourceKind={m.sourceKind} />
              <span className="lo-preview" title={m.preview}>
                {m.preview}
              </span>
              <span className="lo-size num">{fmtInt(m.tokens)} tok</span>
              {delta !== undefined ? (
                <span className="lo-delta" data-testid="layout-move-badge" title={`at ${delta} in the other layout`}>
                  ⇄ {delta}
                </span>
              ) : null}
            </div>
          );
        }}
      />
      {trace.omissions.length > 0 ? (
        <p className="muted">{plural(trace.omissions.length, "item")} left out by the context budget in this layout.</p>
      ) : null}
    </div>
  );
}

/** Lines from each message's row in `legacy` to its row in `cache_aware`; moved ones drawn solid. */
function Connectors({ moves, rows }: { readonly moves: readonly Move[]; readonly rows: number }) {
  const h = rows * ROW;
  return (
    <svg
      className="lo-connectors"
      width="48"
      height={h}
      viewBox={`0 0 48 ${h}`}
      aria-hidden="true"
      data-testid="layout-connectors"
    >
      {moves.map((m, i) => {
        const y1 = m.legacy * ROW + ROW / 2;
        const y2 = m.cacheAware * ROW + ROW / 2;
        const moved = m.legacy !== m.cacheAware;
        return (
          <path
            key={i}
            d={`M0 ${y1} C24 ${y1} 24 ${y2} 48 ${y2}`}
            fill="none"
            stroke={moved ? provenanceFill(m.kind) : "var(--border)"}
            strokeWidth={moved ? 2 : 1}
            data-moved={moved}
          />
        );
      })}
    </svg>
  );
}

function WireOrder({ messages }: { readonly messages: readonly Message[] }) {
  return (
    <section className="panel" data-testid="layout-wire">
      <div className="panel-head">
        <h2>Message order</h2>
        <span className="muted">
          A wire request is shown as sent. Provenance and the two layouts exist for Strata assembly requests, which
          Strata assembles itself.
        </span>
      </div>
      <VirtualList
        items={messages}
        rowHeight={ROW}
        testId="layout-list-wire"
        className="lo-list"
        renderRow={(m, i) => (
          <div
            className="lo-row"
            style={{ height: ROW }}
            data-testid="layout-row"
            data-layout="wire"
            data-index={i}
            data-role={m.role}
          >
            <span className="lo-idx num">{i}</span>
            <span className="lo-role">{m.role}</span>
            <span className="lo-preview">{messagePreview(m, 120)}</span>
            <span className="lo-size num">{plural(m.content.length, "block")}</span>
          </div>
        )}
      />
    </section>
  );
}

/** The assembled messages as provenance strips, `legacy` and `cache_aware` side by side with the moves between them. */
export function LayoutOrderView({ report }: { readonly report: InspectionReport }) {
  const a = report.assembly;
  if (a?.asSent)
    return (
      <>
        <WireLayoutView report={report} />
        <TokenBasis report={report} />
      </>
    );
  if (!a) return <WireOrder messages={report.request?.messages ?? []} />;
  const legacy = a.legacy?.messages ?? [];
  const cacheAware = a.cache_aware?.messages ?? [];
  const moves = computeMoves(legacy, cacheAware);
  const moved = moves.filter((m) => m.legacy !== m.cacheAware);
  const small = legacy.length <= VIRTUALIZE_ABOVE && cacheAware.length <= VIRTUALIZE_ABOVE;
  const toCache = new Map(moved.map((m) => [m.legacy, m.cacheAware]));
  const toLegacy = new Map(moved.map((m) => [m.cacheAware, m.legacy]));
  return (
    <>
      <section className="panel">
        <div className="panel-head">
          <h2>Layout order</h2>
          <span className="muted" data-testid="layout-summary">
            {moved.length === 0
              ? "Both layouts put every message in the same place."
              : `${plural(moved.length, "message")} sit elsewhere in cache_aware than in legacy.`}
          </span>
        </div>
        <ProvenanceLegend kinds={presentKinds(report)} />
        <TokenBasis report={report} scope="assembly" />
        <div className={`lo-sides${small ? " with-connectors" : ""}`}>
          <Column trace={a.legacy} selected={a.selectedLayout === "legacy"} moved={toCache} />
          {small ? (
            <div className="lo-gutter">
              <Connectors moves={moves} rows={Math.max(legacy.length, cacheAware.length)} />
            </div>
          ) : null}
          <Column trace={a.cache_aware} selected={a.selectedLayout === "cache_aware"} moved={toLegacy} />
        </div>
      </section>
      {moved.length > 0 ? (
        <section className="panel" data-testid="layout-moves">
          <div className="panel-head">
            <h2>Moves</h2>
            <span className="muted">cache_aware puts stable parts first, so later turns share a longer prefix.</span>
          </div>
          <table className="grid-table">
            <thead>
              <tr>
                <th>Source</th>
                <th>Kind</th>
                <th className="num">legacy #</th>
                <th className="num">cache_aware #</th>
                <th className="num">Δ</th>
              </tr>
            </thead>
            <tbody>
              {moved.slice(0, 500).map((m, i) => (
                <tr key={i} data-testid="layout-move" data-source={m.source}>
                  <td>
                    <code>{m.source}</code>
                  </td>
                  <td>{PROVENANCE_LABELS[m.kind]}</td>
                  <td className="num">{m.legacy}</td>
                  <td className="num">{m.cacheAware}</td>
                  <td className="num">
                    {m.cacheAware - m.legacy > 0 ? `+${m.cacheAware - m.legacy}` : m.cacheAware - m.legacy}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {moved.length > 500 ? <p className="muted">…and {moved.length - 500} more.</p> : null}
        </section>
      ) : null}
    </>
  );
}
