import type { InspectionReport } from "../../core/inspect/index.ts";

/**
 * Lists the report cut short (inspect's `listCap`): every view shows the first entries only, so it
 * says which lists and how long they really are. Never shown for what the devtools' own cap keeps.
 */
export function TruncatedBanner({
  report,
  partial = false,
}: {
  readonly report: InspectionReport;
  /** The first report of a long request: its lists are cut only until the whole report comes. */
  readonly partial?: boolean;
}) {
  if (report.truncated.length === 0) return null;
  if (partial)
    return (
      <div className="muted" role="status" data-testid="report-partial">
        Showing the first entries of each list; the whole lists are on their way.
      </div>
    );
  return (
    <div className="problems-banner" role="status" data-testid="report-truncated" data-count={report.truncated.length}>
      <p>
        <span className="badge">truncated</span> This request is too long to show whole:{" "}
        {report.truncated
          .map((t) =>
            t.shown === 0 ? `${t.path} left out (${t.total} entries)` : `${t.path} ${t.shown} of ${t.total}`,
          )
          .join("; ")}
        .
      </p>
    </div>
  );
}
