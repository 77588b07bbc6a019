import { useMemo } from "react";
import { partsAsSent, requestFromParts } from "../../../core/cache/index.ts";
import type { InspectionReport } from "../../../core/inspect/index.ts";
import { WireExport } from "../../components/WireExport.tsx";

/**
 * A wire request with the context budget's omissions removed (core rebuilds it from its parts), in
 * its own wire format. Nothing when nothing was dropped or the request is Strata's own.
 */
export function TrimmedExport({ report }: { readonly report: InspectionReport }) {
  const cb = report.contextBudget;
  const parts = report.parts?.parts;
  const trimmed = useMemo(() => {
    if (!cb || !parts || !report.request || cb.omittedParts.length === 0) return null;
    const omitted = new Set(cb.omittedParts);
    return requestFromParts(
      report.request,
      parts,
      partsAsSent(parts).filter((k) => !omitted.has(k)),
    );
  }, [cb, parts, report.request]);
  return trimmed ? (
    <WireExport report={report} request={trimmed} what="trimmed request" testId="trimmed-export" />
  ) : null;
}
