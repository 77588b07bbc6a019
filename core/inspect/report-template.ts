/** The report's template section: sizes, the render error (if any) and volatility warnings. */
import { sha256Hex } from "../util/hash.ts";
import type { PreparedTemplate } from "../request/assembly-options.ts";
import { lintTemplateVolatility } from "../templates/volatility.ts";
import { problemFrom } from "./report-parts.ts";
import type { ReportProblem, ReportTemplate, VolatilityWarning } from "./types.ts";

export function reportTemplate(t: PreparedTemplate, problems: ReportProblem[]): ReportTemplate {
  const error = t.error ? problemFrom("template", t.error) : null;
  if (error)
    problems.push({
      ...error,
      severity: "warning",
      message: `${error.message} (the template's source text was used, as the spec says)`,
    });
  let volatility: VolatilityWarning[] = [];
  try {
    volatility = lintTemplateVolatility(t.source).map((w) => ({
      variable: w.variable,
      volatility: w.volatility,
      line: w.line ?? 0,
      column: w.column ?? 0,
      message: w.reason,
    }));
  } catch (e) {
    problems.push(problemFrom("template", e, "warning"));
  }
  return {
    templateChars: t.source.length,
    renderedChars: t.rendered.length,
    renderedSha256: sha256Hex(t.rendered),
    target: t.target,
    error,
    volatility,
  };
}
