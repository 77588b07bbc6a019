import type { InspectionReport } from "../../../core/inspect/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { fmtBytes, fmtInt, fmtPct, plural } from "../../components/format.ts";
import { droppedKindText } from "../../components/names.ts";
import { provenanceFill } from "../../components/provenance.ts";
import { useInspection } from "../../inspect/useInspection.ts";
import { ESTIMATORS, type EstimatorChoice, useUi } from "../../store/settings.ts";
import { TokenBasis } from "../../components/TokenBasis.tsx";
import { tokenColumn } from "../../components/tokens.ts";
import { TrimmedExport } from "../Dropped/TrimmedExport.tsx";
import { budgetGroups, estimatorRows, type Group } from "./model.ts";
import { ContextWindow } from "./Window.tsx";
import "./Budget.css";

function Meter({
  label,
  used,
  cap,
  unit,
  testId,
}: {
  readonly label: string;
  readonly used: number;
  readonly cap: number | null;
  readonly unit: string;
  readonly testId: string;
}) {
  const ratio = cap === null ? null : used / cap;
  return (
    <div
      className="bu-meter"
      data-testid={testId}
      data-used={used}
      data-cap={cap ?? ""}
      data-over={ratio !== null && ratio > 1}
    >
      <span className="bu-meter-label">{label}</span>
      <span className="bu-track">
        {ratio !== null ? (
          <span
            className={`bu-fill${ratio > 1 ? " over" : ratio > 0.9 ? " near" : ""}`}
            style={{ width: `${Math.min(100, ratio * 100)}%` }}
          />
        ) : null}
      </span>
      <span className="num bu-meter-value">
        {fmtInt(used)} {cap !== null ? `/ ${fmtInt(cap)}` : ""} {unit}
        {ratio !== null ? ` (${fmtPct(ratio, 0)})` : " · no cap"}
      </span>
    </div>
  );
}

function GroupTable({
  groups,
  tokens,
}: {
  readonly groups: readonly Group[];
  readonly tokens: InspectionReport["tokens"];
}) {
  const totalTokens = groups.reduce((a, g) => a + g.tokens, 0);
  return (
    <table className="grid-table" data-testid="budget-groups">
      <thead>
        <tr>
          <th>Group</th>
          <th className="num">Items</th>
          <th className="num">Tokens ({tokenColumn(tokens)})</th>
          <th className="num">Bytes</th>
          <th>Share of tokens</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((g) => (
          <tr key={g.key} data-testid="budget-group" data-group={g.key} data-tokens={g.tokens} data-bytes={g.bytes}>
            <td>
              {g.kind ? (
                <span className="swatch" style={{ background: provenanceFill(g.kind) }} aria-hidden="true" />
              ) : null}{" "}
              {g.label}
            </td>
            <td className="num">{fmtInt(g.count)}</td>
            <td className="num">{fmtInt(g.tokens)}</td>
            <td className="num">{fmtBytes(g.bytes)}</td>
            <td>
              <span className="bu-share">
                <span style={{ width: `${totalTokens === 0 ? 0 : (g.tokens / totalTokens) * 100}%` }} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The counter against the specs' chars/4, per group: needs both reports (the chars/4 one is computed
 * on demand, once, with every list whole: only its figures are read).
 */
function EstimatorComparison({ report }: { readonly report: InspectionReport }) {
  const { query } = useInspection({ estimator: "quarter", figuresOnly: true });
  const quarter = query.data?.report;
  if (!quarter)
    return (
      <p className="muted" data-testid="estimator-diff-loading">
        Computing the chars/4 figures for comparison…
      </p>
    );
  const rows = estimatorRows(budgetGroups(quarter), budgetGroups(report));
  const q = rows.reduce((a, r) => a + r.quarter, 0);
  const t = rows.reduce((a, r) => a + r.counted, 0);
  const diff = (counted: number, quarter: number) =>
    `${counted - quarter > 0 ? "+" : ""}${fmtInt(counted - quarter)} ${quarter > 0 ? `(${fmtPct((counted - quarter) / quarter, 0)})` : ""}`;
  return (
    <table className="grid-table" data-testid="estimator-diff">
      <thead>
        <tr>
          <th>Group</th>
          <th className="num">Counted ({tokenColumn(report.tokens)})</th>
          <th className="num">chars/4</th>
          <th className="num">chars/4 is off by</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.key}
            data-testid="estimator-row"
            data-group={r.key}
            data-quarter={r.quarter}
            data-counted={r.counted}
          >
            <td>{r.label}</td>
            <td className="num">{fmtInt(r.counted)}</td>
            <td className="num">{fmtInt(r.quarter)}</td>
            <td className="num">{diff(r.quarter, r.counted)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="estimator-total" data-quarter={q} data-counted={t}>
          <td>Total</td>
          <td className="num">{fmtInt(t)}</td>
          <td className="num">{fmtInt(q)}</td>
          <td className="num">{diff(q, t)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

const ESTIMATOR_LABELS: Labels<EstimatorChoice> = {
  counted:
    "Provider's billing (countRequestTokens: exact with OpenAI's tokenizer for OpenAI models, loaded on demand; a calibrated estimate otherwise)",
  quarter: "chars/4 (the specs' ceil(UTF-16 length / 4))",
};

/** Tokens and bytes against the caps, per group, what the budget left out, and how much the estimator matters. */
export function BudgetView({ report }: { readonly report: InspectionReport }) {
  const estimator = useUi((s) => s.estimator);
  const set = useUi((s) => s.set);
  const cb = report.contextBudget;
  const groups = budgetGroups(report);
  const usedTokens = cb?.usedTokens ?? groups.reduce((a, g) => a + g.tokens, 0);
  const usedBytes = cb?.usedBytes ?? groups.reduce((a, g) => a + g.bytes, 0);
  return (
    <>
      <section className="panel">
        <div className="panel-head">
          <h2>Context budget</h2>
          <span className="muted" data-testid="budget-caps-source">
            {cb
              ? report.format === "strata"
                ? "Caps from the request or the header."
                : "Caps from the header, applied to the request's parts with the assembly's eviction rules."
              : "No cap set: add max tokens or bytes in the header to see what would be evicted."}
          </span>
        </div>
        <Meter
          label="Tokens"
          used={usedTokens}
          cap={cb?.maxInputTokens ?? null}
          unit={`tokens (${tokenColumn(report.tokens)})`}
          testId="budget-tokens-meter"
        />
        <Meter
          label="Bytes"
          used={usedBytes}
          cap={cb?.maxInputBytes ?? null}
          unit="bytes"
          testId="budget-bytes-meter"
        />
      </section>
      <ContextWindow report={report} />
      <section className="panel">
        <div className="panel-head">
          <h2>Per group</h2>
          <span className="muted">
            {report.assembly?.asSent
              ? "The request's parts by kind, as sent (see Layout order for each part)."
              : report.assembly
                ? `Assembled messages by provenance (${report.assembly.selectedLayout}).`
                : "Prompt segments by region and role."}
          </span>
        </div>
        <GroupTable groups={groups} tokens={report.tokens} />
      </section>
      <section className="panel" data-testid="omissions">
        <div className="panel-head">
          <h2>Omission report</h2>
          <span className="muted">{cb ? plural(cb.omitted.length, "item") : "no budget"}</span>
        </div>
        {cb ? (
          <p className="muted" data-testid="budget-arithmetic">
            Before eviction {fmtInt(cb.beforeTokens)} tokens / {fmtInt(cb.beforeBytes)} bytes; protected (instructions,
            current input, tool catalog) {fmtInt(cb.protectedTokens)} tokens / {fmtInt(cb.protectedBytes)} bytes; kept{" "}
            {fmtInt(cb.usedTokens)} tokens / {fmtInt(cb.usedBytes)} bytes.
          </p>
        ) : null}
        {cb && cb.omitted.length > 0 ? (
          <table className="grid-table">
            <thead>
              <tr>
                <th>Kind</th>
                <th>Id</th>
                <th>Path</th>
                <th className="num">Size</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {cb.omitted.slice(0, 1000).map((o, i) => (
                <tr key={i} data-testid="omission" data-id={o.id}>
                  <td title={droppedKindText(o.kind)}>{o.kind}</td>
                  <td>
                    <code>{o.id}</code>
                  </td>
                  <td>{o.path ? <code>{o.path}</code> : <span className="muted">—</span>}</td>
                  <td className="num">
                    {fmtInt(o.size)} {o.unit}
                  </td>
                  <td className="muted">{o.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Nothing was omitted for the context budget.</p>
        )}
        <TrimmedExport report={report} />
      </section>
      <section className="panel" data-testid="estimator">
        <div className="panel-head">
          <h2>Token counts</h2>
          <span className="muted">Eviction decisions use this count; byte caps never depend on it.</span>
        </div>
        <div className="bu-estimators" role="radiogroup" aria-label="Token estimator">
          {ESTIMATORS.map((e) => (
            <label key={e}>
              <input
                type="radio"
                name="estimator"
                value={e}
                checked={estimator === e}
                data-testid={`estimator-${e}`}
                onChange={() => set({ estimator: e })}
              />{" "}
              {ESTIMATOR_LABELS[e]}
            </label>
          ))}
        </div>
        <TokenBasis report={report} />
        {estimator === "counted" ? (
          <EstimatorComparison report={report} />
        ) : (
          <p className="muted">
            Pick the provider's billing to see how far chars/4 is from what the provider counts, group by group.
          </p>
        )}
      </section>
    </>
  );
}
