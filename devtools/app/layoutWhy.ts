import type { InspectionReport } from "../../core/inspect/index.ts";
import { FORMAT_NAMES } from "../components/names.ts";

/** Which layout a wire request's own order follows, in words. */
export function followsText(report: InspectionReport): string {
  const follows = report.assembly?.asSent?.follows ?? [];
  return follows.length === 2 ? "both layouts" : follows.length === 1 ? follows[0]! : "neither layout";
}

/**
 * Why the header's layout toggle does not apply to this report, or null when it does: a wire
 * request arrives laid out, so there is nothing to assemble; Layout order shows its order and
 * the same parts re-laid instead.
 */
export function layoutWhy(report: InspectionReport | undefined): string | null {
  if (report === undefined || report.format === "strata") return null;
  const relay = report.assembly?.asSent?.cannotRelay;
  return (
    `A ${FORMAT_NAMES[report.format]} request arrives already laid out, so there is no layout to choose: ` +
    `its own order follows ${followsText(report)}. ` +
    (relay
      ? `It cannot be re-laid: ${relay}`
      : "Layout order shows it as sent and re-laid in cache_aware, with an export.")
  );
}
