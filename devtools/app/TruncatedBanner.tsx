import type { InspectionReport } from "../../core/inspect/index.ts";

/**
 * Lists the report cut short (inspect's `listCap`): every view shows the first entries only, so it
 * says which lists and how long they really are. Never shown for what the devtools' own cap keeps.
 */
export function TruncatedBanner({ report }: { readonly report: InspectionReport }) {
  if (report.truncated.length === 0) return null;
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
