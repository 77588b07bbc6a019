import { Fragment } from "react";
import { MODEL_TABLE } from "../../../core/formats/index.ts";
import type { InspectionReport, ReportModelRow } from "../../../core/inspect/index.ts";
import { ModelPrompt } from "../../app/ModelPrompt.tsx";
import { fmtInt, fmtPct } from "../../components/format.ts";
import { fmtTokens } from "../../components/tokens.ts";
import { useUi } from "../../store/settings.ts";

/** A model id to type for a table row: its first pattern without the glob star. */
const idFor = (row: ReportModelRow) =>
  MODEL_TABLE.find((r) => r.id === row.id)?.patterns[0]?.replace(/\*/g, "") ?? row.id;

/** The request against its model's context window (core's model table), with or without a cap. */
export function ContextWindow({ report }: { readonly report: InspectionReport }) {
  const set = useUi((s) => s.set);
  const w = report.window;
  if (!w) return null;
  const ratio = w.usedRatio;
  return (
    <section className="panel" data-testid="context-window" data-ratio={ratio ?? ""}>
      <div className="panel-head">
        <h2>Context window</h2>
        <span className="muted">From Strata's dated, sourced model table; token counts are the report's.</span>
      </div>
      {report.model === "" ? <ModelPrompt report={report} /> : null}
      <p data-testid="context-window-summary" className={ratio !== null && ratio > 1 ? "error" : undefined}>
        {w.summary.charAt(0).toUpperCase() + w.summary.slice(1)}
        {ratio !== null ? "." : ""}
      </p>
      {w.row && ratio !== null ? (
        <div className="bu-meter" data-over={ratio > 1}>
          <span className="bu-meter-label">Window</span>
          <span className="bu-track">
            <span
              className={`bu-fill${ratio > 1 ? " over" : ratio > 0.9 ? " near" : ""}`}
              style={{ width: `${Math.min(100, ratio * 100)}%` }}
            />
          </span>
          <span className="num bu-meter-value">
            {fmtTokens(w.usedTokens, report.tokens)} / {fmtInt(w.row.contextWindow)} tokens ({fmtPct(ratio, 0)})
          </span>
        </div>
      ) : null}
      {w.row ? (
        <p className="muted" data-testid="context-window-row">
          {w.row.family}: {fmtInt(w.row.contextWindow)}-token window, up to {fmtInt(w.row.maxOutputTokens)} output
          tokens ({w.row.matched === "exact" ? "exact id" : "matched by pattern"}).{" "}
          <span title={w.row.sources.map((s) => `${s.title} (${s.date}) ${s.url}`).join("\n")}>
            Source: {w.row.sources[0]?.title} ({w.row.sources[0]?.date})
            {w.row.sources.length > 1 ? ` and ${w.row.sources.length - 1} more` : ""}.
          </span>
        </p>
      ) : null}
      {w.row === null && w.nearest.length > 0 ? (
        <p data-testid="context-window-nearest">
          Nearest rows:{" "}
          {w.nearest.map((r, i) => (
            <Fragment key={r.id}>
              {i > 0 ? ", " : ""}
              <button
                type="button"
                className="link"
                data-testid="context-window-use"
                data-model={idFor(r)}
                title={`${fmtInt(r.contextWindow)}-token window`}
                onClick={() => set({ model: idFor(r) })}
              >
                {idFor(r)}
              </button>
            </Fragment>
          ))}
        </p>
      ) : null}
    </section>
  );
}
