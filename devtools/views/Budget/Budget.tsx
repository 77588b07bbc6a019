import type { InspectionReport } from "../../../core/inspect/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { fmtBytes, fmtInt, fmtPct, plural } from "../../components/format.ts";
import { droppedKindText } from "../../components/names.ts";
import { provenanceFill } from "../../components/provenance.ts";
import { useInspection } from "../../inspect/useInspection.ts";
import { ESTIMATORS, type EstimatorChoice, useUi } from "../../store/settings.ts";
import { budgetGroups, estimatorRows, type Group } from "./model.ts";
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

function GroupTable({ groups }: { readonly groups: readonly Group[] }) {
  const totalTokens = groups.reduce((a, g) => a + g.tokens, 0);
  return (
    <table className="grid-table" data-testid="budget-groups">
      <thead>
        <tr>
          <th>Group</th>
          <th className="num">Items</th>
          <th className="num">Tokens</th>
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

/** ÷4 against gpt-tokenizer, per group: needs both reports; the ÷4 one is usually cached already. */
function EstimatorComparison({ report }: { readonly report: InspectionReport }) {
  const { query } = useInspection({ estimator: "default" });
  const quarter = query.data?.report;
  if (!quarter)
    return (
      <p className="muted" data-testid="estimator-diff-loading">
        Computing the ÷4 figures for comparison…
      </p>
    );
  const rows = estimatorRows(budgetGroups(quarter), budgetGroups(report));
  const q = rows.reduce((a, r) => a + r.quarter, 0);
  const t = rows.reduce((a, r) => a + r.tokenizer, 0);
  return (
    <table className="grid-table" data-testid="estimator-diff">
      <thead>
        <tr>
          <th>Group</th>
          <th className="num">÷4 estimate</th>
          <th className="num">gpt-tokenizer</th>
          <th className="num">Difference</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.key}
            data-testid="estimator-row"
            data-group={r.key}
            data-quarter={r.quarter}
            data-tokenizer={r.tokenizer}
          >
            <td>{r.label}</td>
            <td className="num">{fmtInt(r.quarter)}</td>
            <td className="num">{fmtInt(r.tokenizer)}</td>
            <td className="num">
              {r.tokenizer - r.quarter > 0 ? "+" : ""}
              {fmtInt(r.tokenizer - r.quarter)}{" "}
              {r.quarter > 0 ? `(${fmtPct((r.tokenizer - r.quarter) / r.quarter, 0)})` : ""}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="estimator-total" data-quarter={q} data-tokenizer={t}>
          <td>Total</td>
          <td className="num">{fmtInt(q)}</td>
          <td className="num">{fmtInt(t)}</td>
          <td className="num">
            {t - q > 0 ? "+" : ""}
            {fmtInt(t - q)} {q > 0 ? `(${fmtPct((t - q) / q, 0)})` : ""}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

const ESTIMATOR_LABELS: Labels<EstimatorChoice> = {
  default: "÷4 (default: ceil(UTF-16 length / 4))",
  "gpt-tokenizer": "gpt-tokenizer (o200k_base, loaded on demand)",
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
          <span className="muted">
            {cb
              ? "Caps from the request or the header."
              : "No cap set: add max tokens or bytes in the header to see eviction."}
          </span>
        </div>
        <Meter
          label="Tokens"
          used={usedTokens}
          cap={cb?.maxInputTokens ?? null}
          unit="tokens"
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
      <section className="panel">
        <div className="panel-head">
          <h2>Per group</h2>
          <span className="muted">
            {report.assembly
              ? `Assembled messages by provenance (${report.assembly.selectedLayout}).`
              : "Prompt segments by region and role."}
          </span>
        </div>
        <GroupTable groups={groups} />
      </section>
      <section className="panel" data-testid="omissions">
        <div className="panel-head">
          <h2>Omission report</h2>
          <span className="muted">{cb ? plural(cb.omitted.length, "item") : "no budget"}</span>
        </div>
        {cb && cb.omitted.length > 0 ? (
          <table className="grid-table">
            <thead>
              <tr>
                <th>Kind</th>
                <th>Id</th>
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
      </section>
      <section className="panel" data-testid="estimator">
        <div className="panel-head">
          <h2>Token estimator</h2>
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
        {estimator === "gpt-tokenizer" ? (
          report.settings.tokenEstimator === "custom" ? (
            <EstimatorComparison report={report} />
          ) : (
            <p className="muted" data-testid="estimator-loading">
              Loading gpt-tokenizer…
            </p>
          )
        ) : (
          <p className="muted">
            Pick gpt-tokenizer to see how far the ÷4 estimate is from a real BPE count, group by group.
          </p>
        )}
      </section>
    </>
  );
}
