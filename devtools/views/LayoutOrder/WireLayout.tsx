import { useMemo } from "react";
import { type RequestPart, relayParts, requestFromParts } from "../../../core/cache/index.ts";
import type { InspectionReport, LayoutTrace, TracedMessage, WireOrder } from "../../../core/inspect/index.ts";
import { fmtInt, fmtPct, plural } from "../../components/format.ts";
import { ProvenanceChip, ProvenanceLegend } from "../../components/Provenance.tsx";
import { PROVENANCE_KINDS, provenanceFill, provenanceInk, provenanceKind } from "../../components/provenance.ts";
import { VirtualList } from "../../components/VirtualList.tsx";
import { WireExport } from "../../components/WireExport.tsx";
import { countMoves, stripBlocks } from "./model.ts";

const ROW = 30;
const NO_PARTS: readonly RequestPart[] = [];
/**
 * Up to this many parts are a plain table; more are a virtualized list of every part. (A 500-row
 * table of a 37,000-part request took ~45 ms of each layout of the view, deferred or not.)
 */
const PARTS_TABLE_ROWS = 100;
const PART_ROW = 28;

function Strip({ messages, id }: { readonly messages: readonly TracedMessage[]; readonly id: string }) {
  const blocks = useMemo(() => stripBlocks(messages), [messages]);
  const total = blocks.reduce((a, b) => a + Math.max(b.chars, 1), 0);
  return (
    <div
      className="lo-strip"
      data-testid={`layout-strip-${id}`}
      role="img"
      aria-label={blocks.map((b) => b.label).join(", ")}
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
          title={`${b.label} · ${fmtInt(b.chars)} chars`}
        >
          {b.label}
        </span>
      ))}
    </div>
  );
}

/** One order of the parts: a strip and a row per part (kind, path, preview, tokens). */
function PartsColumn({
  id,
  title,
  messages,
  report,
  badge,
}: {
  readonly id: string;
  readonly title: string;
  readonly messages: readonly TracedMessage[];
  readonly report: InspectionReport;
  readonly badge?: string;
}) {
  const parts = report.parts?.parts ?? [];
  const tokens = messages.reduce((a, m) => a + m.tokens, 0);
  return (
    <div className="lo-column" data-testid={`layout-column-${id}`}>
      <div className="lo-col-head">
        <h3>{title}</h3>
        {badge ? <span className="badge badge-ok">{badge}</span> : null}
        <span className="muted num">{`${plural(messages.length, "part")} · ${fmtInt(tokens)} tokens`}</span>
      </div>
      <Strip messages={messages} id={id} />
      <VirtualList
        items={messages}
        rowHeight={ROW}
        fixedRowHeight
        testId={`layout-list-${id}`}
        className="lo-list"
        getKey={(m) => m.index}
        renderRow={(m) => {
          const part = m.part === null ? undefined : parts[m.part];
          return (
            <div
              className="lo-row"
              style={{ height: ROW }}
              data-testid="layout-row"
              data-layout={id}
              data-index={m.index}
              data-path={m.path}
              data-source={m.source}
              data-kind={part?.kind ?? m.sourceKind}
              title={part ? `${m.path}: ${part.kind} (rule ${part.rule})` : m.path}
            >
              <span className="lo-idx num">{m.index}</span>
              <ProvenanceChip source={m.source} sourceKind={m.sourceKind} />
              <code className="lo-path">{m.path}</code>
              <span className="lo-preview">{m.preview}</span>
              <span className="lo-size num">{fmtInt(m.tokens)} tok</span>
            </div>
          );
        }}
      />
    </div>
  );
}

function verdict(order: WireOrder): string {
  const { follows, outOfPlace } = order;
  if (follows.length === 2)
    return "The request's own order follows both cache_aware and legacy: re-laying it changes nothing.";
  if (follows.length === 1) {
    const other = follows[0] === "cache_aware" ? "legacy" : "cache_aware";
    return `The request's own order follows ${follows[0]}. For ${other}: ${outOfPlace[other]!.message}`;
  }
  return `The request's own order follows neither layout. For cache_aware: ${outOfPlace.cache_aware!.message}`;
}

/** How much of the next turn each order reads from cache. */
function NextTurn({ report, order }: { readonly report: InspectionReport; readonly order: WireOrder }) {
  const sent = order.nextTurn;
  const relaid = report.nextTurn?.cache_aware ?? null;
  if (!sent) return null;
  const row = (id: string, label: string, ratio: number, shared: number, of: number, note: string) => (
    <div className="cp-next-row" data-testid={`layout-next-${id}`} data-ratio={ratio}>
      <span className="cp-next-name">{label}</span>
      <span
        className="cp-meter"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={1}
        aria-valuenow={ratio}
        aria-label={label}
      >
        <span style={{ width: `${Math.min(100, ratio * 100)}%` }} />
      </span>
      <span className="num cp-next-pct">{fmtPct(ratio, 0)}</span>
      <span className="muted cp-next-detail">
        {fmtInt(shared)} of {fmtInt(of)} tokens of the next turn read from cache · {note}
      </span>
    </div>
  );
  return (
    <section className="panel" data-testid="layout-next-turn">
      <div className="panel-head">
        <h2>Next turn</h2>
        <span className="muted">This turn followed by a placeholder reply and a new input, sent both ways.</span>
      </div>
      <div className="cp-next">
        {row(
          "as-sent",
          "as sent",
          sent.stablePrefixRatio,
          sent.comparison.commonPrefix.tokens,
          sent.nextTurn.tokens,
          sent.basis === "appended"
            ? "assuming the client appends the reply and the next input"
            : `laid out again by ${sent.basis}, the layout it follows`,
        )}
        {relaid
          ? row(
              "relaid",
              "re-laid",
              relaid.stablePrefixRatio,
              relaid.comparison.commonPrefix.tokens,
              relaid.nextTurn.tokens,
              "the same parts in cache_aware order",
            )
          : null}
      </div>
    </section>
  );
}

function PartsTable({ parts }: { readonly parts: readonly RequestPart[] }) {
  return (
    <table className="grid-table">
      <thead>
        <tr>
          <th>Path</th>
          <th>Kind</th>
          <th className="num">Tokens</th>
          <th>Rule</th>
        </tr>
      </thead>
      <tbody>
        {parts.map((p) => (
          <tr key={p.index} data-testid="layout-part" data-kind={p.kind} data-path={p.path}>
            <td>
              <code>{p.path}</code>
            </td>
            <td>{p.kind}</td>
            <td className="num">{fmtInt(p.tokens)}</td>
            <td className="muted">{p.rule}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every part of a long request, the table's columns in rows of one height, only those in view rendered. */
function PartsList({ parts }: { readonly parts: readonly RequestPart[] }) {
  return (
    <div role="table" aria-label="Parts" aria-rowcount={parts.length + 1} className="lo-parts">
      <div role="row" className="lo-part-row lo-part-head">
        <span role="columnheader">Path</span>
        <span role="columnheader">Kind</span>
        <span role="columnheader" className="num">
          Tokens
        </span>
        <span role="columnheader">Rule</span>
      </div>
      <VirtualList
        items={parts}
        rowHeight={PART_ROW}
        fixedRowHeight
        threshold={0}
        height={420}
        testId="layout-parts-list"
        role="rowgroup"
        getKey={(p) => p.index}
        renderRow={(p) => (
          <div
            role="row"
            aria-rowindex={p.index + 2}
            className="lo-part-row"
            style={{ height: PART_ROW }}
            data-testid="layout-part"
            data-kind={p.kind}
            data-path={p.path}
          >
            <code role="cell" title={p.path}>
              {p.path}
            </code>
            <span role="cell">{p.kind}</span>
            <span role="cell" className="num">
              {fmtInt(p.tokens)}
            </span>
            <span role="cell" className="muted" title={p.rule}>
              {p.rule}
            </span>
          </div>
        )}
      />
    </div>
  );
}

/** A wire request's parts: its own order, the layout it follows, the same parts re-laid in cache_aware, the next turn each way. */
export function WireLayoutView({ report }: { readonly report: InspectionReport }) {
  const order = report.assembly!.asSent!;
  const relaid: LayoutTrace | null = report.assembly!.cache_aware;
  const parts = report.parts?.parts ?? NO_PARTS;
  const moved = useMemo(() => (relaid ? countMoves(order.messages, relaid.messages) : 0), [order, relaid]);
  // Only offered (and so only built) when something moved.
  const relaidRequest = useMemo(
    () =>
      report.request && relaid && moved > 0 && parts.length > 0
        ? requestFromParts(report.request, parts, relayParts(parts, "cache_aware"))
        : null,
    [report.request, relaid, moved, parts],
  );
  // One pass over the messages (a scan per kind read a 10,000-message order eleven times).
  const kinds = useMemo(() => {
    const seen = new Set(order.messages.map((m) => provenanceKind(m.sourceKind)));
    return PROVENANCE_KINDS.filter((k) => seen.has(k));
  }, [order]);
  const tools = parts.filter((p) => p.kind === "tools");
  return (
    <>
      <section className="panel">
        <div className="panel-head">
          <h2>Layout order</h2>
          <span className="muted" data-testid="layout-summary" data-follows={order.follows.join(" ")}>
            {verdict(order)}
          </span>
        </div>
        <ProvenanceLegend kinds={kinds} />
        {tools.length > 0 ? (
          <p className="muted" data-testid="layout-tools">
            Tool catalog ahead of the messages: {plural(tools.length, "part")} ({tools.map((t) => t.path).join(", ")}),{" "}
            {fmtInt(tools.reduce((a, t) => a + t.tokens, 0))} tokens; it never moves.
          </p>
        ) : null}
        <div className="lo-sides">
          <PartsColumn
            id="as_sent"
            title="As sent"
            messages={order.messages}
            report={report}
            badge={order.follows.length > 0 ? `follows ${order.follows.join(" and ")}` : "follows neither"}
          />
          {relaid ? (
            <PartsColumn
              id="relaid"
              title="Re-laid in cache_aware"
              messages={relaid.messages}
              report={report}
              badge={moved > 0 ? `${plural(moved, "part")} moved` : "same order"}
            />
          ) : (
            <div className="lo-column" data-testid="layout-cannot-relay">
              <h3>Re-laid in cache_aware</h3>
              <p className="warn">{order.cannotRelay}</p>
            </div>
          )}
        </div>
        {relaidRequest && moved > 0 ? (
          <WireExport report={report} request={relaidRequest} what="re-laid request" testId="relaid-export" />
        ) : null}
      </section>
      <NextTurn report={report} order={order} />
      {parts.length === 0 ? null : (
        <section className="panel" data-testid="layout-part-rules">
          <div className="panel-head">
            <h2>Parts</h2>
            <span className="muted">
              Each part's kind and the rule that decided it
              {parts.length > PARTS_TABLE_ROWS ? ` (${plural(parts.length, "part")}, scroll for more)` : ""}.
            </span>
          </div>
          {parts.length > PARTS_TABLE_ROWS ? <PartsList parts={parts} /> : <PartsTable parts={parts} />}
        </section>
      )}
    </>
  );
}
