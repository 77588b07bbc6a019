import type { InspectionReport } from "../../core/inspect/index.ts";
import type { RequestCounts } from "../inspect/protocol.ts";

/** What every request view is drawn from. */
export interface ViewProps {
  readonly report: InspectionReport;
  /**
   * The request's counts while it is still on its way (a long request's first report comes
   * without it; `report.request` is null meanwhile). Only views in `REPORT_ONLY_VIEWS` are drawn then, and must not take a null `report.request` for a request that could not be normalized.
   */
  readonly requestComing?: RequestCounts | null;
}
