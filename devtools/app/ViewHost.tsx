import { type ComponentType, useEffect } from "react";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { InspectFailure, type RequestCounts } from "../inspect/protocol.ts";
import { useInspection } from "../inspect/useInspection.ts";
import { afterPaint, inputRendered, viewRendered } from "../perf/marks.ts";
import { type RequestViewId, VIEW_LABELS } from "../routing/routes.ts";
import { useUi } from "../store/settings.ts";
import { useSession } from "../store/session.ts";
import { REPORT_ONLY_VIEWS, SessionView, VIEWS } from "../views/index.ts";
import type { ViewProps } from "../views/props.ts";
import { ViewErrorBoundary } from "./ErrorBoundary.tsx";
import { InspectError } from "./InspectError.tsx";
import { TruncatedBanner } from "./TruncatedBanner.tsx";

/** Stages that failed, above every view but the overview (which lists all problems): a view never looks complete when it is not. */
function ProblemsBanner({ report }: { readonly report: InspectionReport }) {
  const errors = report.problems.filter((p) => p.severity === "error");
  if (errors.length === 0) return null;
  return (
    <div className="problems-banner" role="alert" data-testid="report-problems" data-count={errors.length}>
      {errors.slice(0, 3).map((p, i) => (
        <p key={i} data-testid="report-problem" data-code={p.code} data-stage={p.stage}>
          <span className="badge badge-error">{p.stage}</span> {p.message}
        </p>
      ))}
      {errors.length > 3 ? <p className="muted">…and {errors.length - 3} more on the overview.</p> : null}
    </div>
  );
}

function ActiveView({ view, ...props }: ViewProps & { readonly view: RequestViewId }) {
  const View: ComponentType<ViewProps> = VIEWS[view];
  return <View {...props} />;
}

/** A view that draws the request while a long request's first report waits for it (see `REPORT_ONLY_VIEWS`). */
function RequestComing({ counts }: { readonly counts: RequestCounts }) {
  return (
    <div className="loading" data-testid="view-request-coming" role="status">
      Reading the request ({counts.messages.toLocaleString("en-US")} messages, {counts.tools.toLocaleString("en-US")}{" "}
      tools) from the inspector…
    </div>
  );
}

/**
 * The Session view: a recorded session of its own (store/session.ts), independent of the request
 * slots. Same host attributes: `empty`, `loading`, `ready` or `error`.
 */
function SessionHost() {
  const status = useSession((s) => s.status);
  const revision = useSession((s) => s.revision);
  useEffect(() => {
    viewRendered("session");
  }, []);
  return (
    <div
      className="view-host"
      data-testid="view-host"
      data-view="session"
      data-state={status}
      data-stale={false}
      data-key={`session:${revision}`}
      aria-busy={status === "loading"}
    >
      <section className="view view-session" data-testid="view-session" aria-label={VIEW_LABELS.session}>
        <ViewErrorBoundary label={VIEW_LABELS.session} resetKey={String(revision)}>
          <SessionView />
        </ViewErrorBoundary>
      </section>
    </div>
  );
}

/**
 * The active view over the current report, inside its own error boundary. States, on
 * `data-testid="view-host"` as `data-state`: `empty`, `loading` (first inspection),
 * `ready` (a report; `data-stale` while the next one is computed, `data-request-coming` while the
 * view waits for the request of a long request's first report) and `error`.
 */
export function ViewHost() {
  const view = useUi((s) => s.view);
  return view === "session" ? <SessionHost /> : <RequestHost view={view} />;
}

function RequestHost({ view }: { readonly view: RequestViewId }) {
  const { query, key, empty } = useInspection();
  const data = query.data;
  const failed = query.isError && !query.isPlaceholderData;
  const state = empty ? "empty" : failed ? "error" : data ? "ready" : "loading";
  const shownKey = failed ? key : data?.key;
  const stale = state === "ready" && (query.isPlaceholderData || query.isFetching);
  // This view draws the request, which has not come yet: it is rendered once it has.
  const coming = state === "ready" && !REPORT_ONLY_VIEWS.has(view) ? (data?.requestComing ?? null) : null;

  useEffect(() => {
    if (shownKey !== undefined && ((state === "ready" && coming === null) || state === "error"))
      inputRendered(shownKey);
  }, [shownKey, state, coming]);
  // A first report whose request is still in the worker: ask for it once this one is painted
  // (after the paint measure above, whose callbacks are registered first).
  const shownReport = state === "ready" && data?.requestComing ? data.shown : undefined;
  useEffect(() => {
    if (shownReport) afterPaint(shownReport);
  }, [shownReport]);
  useEffect(() => {
    viewRendered(view);
  }, [view, shownKey]);

  return (
    <div
      className="view-host"
      data-testid="view-host"
      data-view={view}
      data-state={state}
      data-stale={stale}
      data-key={shownKey ?? ""}
      data-request-coming={coming !== null}
      aria-busy={state === "loading" || stale || coming !== null}
    >
      {state === "empty" ? (
        <div className="empty-state" data-testid="empty-state">
          <h2>Nothing to inspect yet</h2>
          <p>
            Paste a request on the left, drop a JSON file anywhere on the input, open one, or pick a bundled sample.
          </p>
          <p className="muted">
            Strata reads Strata assembly requests and OpenAI (Chat, Responses), Anthropic and Gemini requests.
            Everything stays in this tab.
          </p>
        </div>
      ) : null}
      {state === "loading" ? (
        <div className="loading" data-testid="view-loading" role="status">
          Inspecting…
        </div>
      ) : null}
      {state === "error" ? (
        <InspectError
          error={
            query.error instanceof InspectFailure
              ? query.error.detail
              : { name: "Error", code: "internal_error", message: String(query.error?.message), issues: [], tried: [] }
          }
        />
      ) : null}
      {state === "ready" && data ? (
        <section className={`view view-${view}`} data-testid={`view-${view}`} aria-label={VIEW_LABELS[view]}>
          {view !== "overview" ? <ProblemsBanner report={data.report} /> : null}
          <TruncatedBanner report={data.report} partial={data.partial} />
          {coming ? (
            <RequestComing counts={coming} />
          ) : (
            <ViewErrorBoundary key={view} label={VIEW_LABELS[view]} resetKey={data.key}>
              <ActiveView view={view} report={data.report} requestComing={data.requestComing} />
            </ViewErrorBoundary>
          )}
        </section>
      ) : null}
    </div>
  );
}
