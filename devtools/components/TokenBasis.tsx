import type { InspectionReport } from "../../core/inspect/index.ts";
import { tokenBasis } from "./tokens.ts";

/**
 * A view's line saying whether its token figures are exact or estimates, and how. `assembly`: the
 * view shows an AssemblyRequest's assembled messages, measured by assembly's own estimator.
 */
export function TokenBasis({
  report,
  scope = "request",
}: {
  readonly report: InspectionReport;
  readonly scope?: "request" | "assembly";
}) {
  const t = report.tokens;
  if (scope === "assembly" && report.format === "strata")
    return (
      <p className="muted token-basis" data-testid="token-basis" data-method="estimate" data-counter="assembly">
        Assembled messages are measured as the context budget measures them: chars/4 estimates (ceil(UTF-16 length /
        4)), the specs' default. The cache figures count the assembled request with countRequestTokens.
      </p>
    );
  return (
    <p
      className="muted token-basis"
      data-testid="token-basis"
      data-method={t?.method ?? ""}
      data-counter={t?.counter ?? ""}
    >
      {tokenBasis(report)}
      {t && t.notes.length > 0 ? ` ${t.notes.map((n) => n.message).join(" ")}` : ""}
    </p>
  );
}
