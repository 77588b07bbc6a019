import type { ViewProps } from "../props.ts";
import { ModelPrompt } from "../../app/ModelPrompt.tsx";
import { ViewLink } from "../../app/ViewLink.tsx";
import { ResponsePanel } from "../../components/ResponsePanel.tsx";
import { VIEW_LABELS } from "../../routing/routes.ts";
import { overviewCards } from "./model.ts";
import "./Overview.css";

/** The report at a glance: one card per question, each opening the view that answers it in full. */
export function OverviewView({ report, requestComing }: ViewProps) {
  const cards = overviewCards(report, requestComing);
  return (
    <>
      <ModelPrompt report={report} />
      <div className="ov-cards" data-testid="overview-cards">
        {cards.map((c) => (
          <ViewLink
            key={c.id}
            view={c.view}
            className={`ov-card tone-${c.tone}`}
            testId={`card-${c.id}`}
            label={`${c.title}: ${c.value}. Open ${VIEW_LABELS[c.view]}`}
          >
            <span className="ov-title">{c.title}</span>
            <span className="ov-value" data-testid={`card-${c.id}-value`}>
              {c.value}
            </span>
            <span className="ov-detail">{c.detail}</span>
            <span className="ov-open" aria-hidden="true">
              {VIEW_LABELS[c.view]} →
            </span>
          </ViewLink>
        ))}
      </div>
      <ResponsePanel report={report} />
      {report.problems.length > 0 ? (
        <section className="panel" data-testid="problems">
          <div className="panel-head">
            <h2>Problems</h2>
            <span className="muted">Stages that failed or warned; the rest of the report still holds.</span>
          </div>
          <ul className="ov-problems">
            {report.problems.map((p, i) => (
              <li key={i} data-testid="problem" data-stage={p.stage} data-code={p.code} data-severity={p.severity}>
                <span className={`badge ${p.severity === "error" ? "badge-error" : "badge-warn"}`}>{p.severity}</span>
                <span className="badge">{p.stage}</span>
                {p.path ? <code className="path">{p.path}</code> : null}
                <span>{p.message}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
