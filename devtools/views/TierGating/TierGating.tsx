import { useState } from "react";
import { PROMPT_TIERS, type BudgetExplanationRow } from "../../../core/composer/index.ts";
import type { InspectionReport, ReportTiers } from "../../../core/inspect/index.ts";
import { fmtInt, plural } from "../../components/format.ts";
import { TIER_TEXT } from "../../components/names.ts";
import { useUi } from "../../store/settings.ts";
import { gateAt, sliderMax, type GateAt } from "./model.ts";
import "./TierGating.css";

const pct = (x: number, scale: number) => `${Math.min(100, (x / scale) * 100)}%`;

function limitText(row: BudgetExplanationRow): string {
  switch (row.limit.kind) {
    case "none":
      return "—";
    case "active_ceiling":
      return `ceiling ${fmtInt(row.limit.value)}`;
    case "budget":
      return `budget ${fmtInt(row.limit.value)}`;
  }
}

/** Blocks on a char scale: included sections where they land, dropped ones on a lower lane where they would have. */
function GateBar({ gate }: { readonly gate: GateAt }) {
  const lines = [
    { id: "core", label: "core", value: gate.coreChars },
    { id: "ceiling", label: "active ceiling", value: gate.activeCeiling },
    { id: "budget", label: "budget", value: gate.effectiveBudget },
  ];
  return (
    <div
      className="tg-bar"
      data-testid="tier-bar"
      role="img"
      aria-label={`Included ${fmtInt(gate.totalChars)} chars of a ${fmtInt(gate.effectiveBudget)}-char budget; ${gate.droppedRows.length} dropped`}
    >
      <div className="tg-lane" data-lane="included">
        {gate.rows
          .filter((r) => r.verdict === "included")
          .map((r) => (
            <span
              key={r.id}
              className="tg-block"
              data-tier={r.tier}
              data-testid="tier-block"
              data-id={r.id}
              data-verdict="included"
              style={{ left: pct(r.totalBefore, gate.scale), width: pct(r.chars, gate.scale) }}
              title={`${r.id} (${r.tier}) ${fmtInt(r.chars)} chars`}
            >
              {r.id}
            </span>
          ))}
      </div>
      <div className="tg-lane" data-lane="dropped">
        {gate.droppedRows.map((r) => (
          <span
            key={r.id}
            className="tg-block dropped"
            data-tier={r.tier}
            data-testid="tier-block"
            data-id={r.id}
            data-verdict="dropped"
            style={{ left: pct(r.totalBefore, gate.scale), width: pct(r.chars, gate.scale) }}
            title={`${r.id} dropped: ${r.reason}`}
          >
            {r.id}
          </span>
        ))}
      </div>
      {lines.map((l) => (
        <span
          key={l.id}
          className="tg-line"
          data-line={l.id}
          data-testid={`tier-line-${l.id}`}
          data-value={l.value}
          style={{ left: pct(l.value, gate.scale) }}
        >
          <span className="tg-line-label">
            {l.label} {fmtInt(l.value)}
          </span>
        </span>
      ))}
    </div>
  );
}

function Slider({ tiers, value }: { readonly tiers: ReportTiers; readonly value: number }) {
  const set = useUi((s) => s.set);
  const max = sliderMax(tiers);
  const own = tiers.effectiveBudget;
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <div className="tg-slider">
      <label htmlFor="tier-budget">Budget (chars)</label>
      <input
        id="tier-budget"
        type="range"
        min={0}
        max={max}
        step={1}
        value={Math.min(value, max)}
        data-testid="tier-budget-slider"
        onChange={(e) => set({ tierBudget: Number(e.target.value) })}
        aria-valuetext={`${fmtInt(value)} chars`}
      />
      <input
        type="number"
        min={0}
        value={draft ?? String(value)}
        data-testid="tier-budget-input"
        aria-label="Budget in chars"
        onChange={(e) => {
          // Keep what is typed; only a whole number ≥ 0 moves the budget ("" is not 0).
          setDraft(e.target.value);
          const text = e.target.value.trim();
          const n = Number(text);
          if (text !== "" && Number.isInteger(n) && n >= 0) set({ tierBudget: n });
        }}
        onBlur={() => setDraft(null)}
      />
      <button
        type="button"
        data-testid="tier-budget-reset"
        disabled={own === null ? value === max : value === own}
        onClick={() => set({ tierBudget: null })}
      >
        {own === null ? "Reset" : `Request's budget (${fmtInt(own)})`}
      </button>
    </div>
  );
}

/** The composer's tier gate as arithmetic: live at any budget, with each row's sum and limit. */
export function TierGatingView({ report }: { readonly report: InspectionReport }) {
  const tierBudget = useUi((s) => s.tierBudget);
  const t = report.tiers;
  if (!t) {
    return (
      <section className="panel" data-testid="tiers-empty">
        <h2>No tiered sections</h2>
        <p className="muted">
          Tier gating applies to a Strata assembly request with <code>sections</code> (each <code>core</code>,{" "}
          <code>active</code> or <code>informational</code>). This request has none.
        </p>
      </section>
    );
  }
  const budget = tierBudget ?? t.effectiveBudget ?? sliderMax(t);
  const gate = gateAt(t, budget);
  const moved = tierBudget !== null && tierBudget !== t.effectiveBudget;
  return (
    <>
      <section className="panel">
        <div className="panel-head">
          <h2>Tier gating</h2>
          <span className="muted">
            active ceiling = core + floor((budget − core) × {t.activeBudgetFraction}); core is always kept, active must
            fit the ceiling, informational the budget.
          </span>
        </div>
        <Slider tiers={t} value={budget} />
        <p data-testid="tier-summary" data-budget={budget} data-dropped={gate.droppedRows.length}>
          At <strong className="num">{fmtInt(budget)}</strong> chars{moved ? " (moved from the request's budget)" : ""}:{" "}
          {fmtInt(gate.totalChars)} chars included,{" "}
          {gate.droppedRows.length === 0 ? "nothing dropped" : `${plural(gate.droppedRows.length, "section")} dropped`}.
          {gate.overflowed ? (
            <span className="error"> Core sections alone overflow the budget by {fmtInt(gate.overBudgetChars)}.</span>
          ) : null}
        </p>
        <GateBar gate={gate} />
        <ul className="legend" aria-label="Tiers">
          {PROMPT_TIERS.map((tier) => (
            <li key={tier} title={TIER_TEXT[tier]}>
              <span className={`swatch tg-swatch`} data-tier={tier} aria-hidden="true" />
              {tier}
            </li>
          ))}
          <li>
            <span className="swatch tg-swatch dropped" aria-hidden="true" />
            dropped (lower lane)
          </li>
        </ul>
      </section>
      <section className="panel">
        <div className="panel-head">
          <h2>Rows</h2>
          <span className="muted">In candidate order; the gate never reorders.</span>
        </div>
        <table className="grid-table" data-testid="tier-rows">
          <thead>
            <tr>
              <th className="num">#</th>
              <th>Section</th>
              <th>Tier</th>
              <th className="num">Chars</th>
              <th className="num">Before</th>
              <th>Tested against</th>
              <th>Verdict</th>
              <th>Arithmetic</th>
            </tr>
          </thead>
          <tbody>
            {gate.rows.map((r) => (
              <tr key={r.id} data-testid="tier-row" data-id={r.id} data-verdict={r.verdict} data-tier={r.tier}>
                <td className="num">{r.index}</td>
                <td>
                  <code>{r.id}</code>
                </td>
                <td>
                  <span className="tg-tier" data-tier={r.tier}>
                    {r.tier}
                  </span>
                </td>
                <td className="num">{fmtInt(r.chars)}</td>
                <td className="num">{fmtInt(r.totalBefore)}</td>
                <td className="num">{limitText(r)}</td>
                <td>
                  <span className={`badge ${r.verdict === "included" ? "badge-ok" : "badge-error"}`}>{r.verdict}</span>
                </td>
                <td className="tg-reason" data-testid="tier-reason">
                  {r.reason}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div data-testid="tier-dropped-list" data-count={gate.droppedRows.length}>
          <h3>Dropped at this budget</h3>
          {gate.droppedRows.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul className="tg-dropped">
              {gate.droppedRows.map((r) => (
                <li key={r.id} data-testid="tier-dropped" data-id={r.id}>
                  <code>{r.id}</code>{" "}
                  <span className="muted">
                    ({r.tier}, {fmtInt(r.chars)} chars)
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
    </>
  );
}
