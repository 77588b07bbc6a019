import type { ComponentType } from "react";
import type { RequestViewId } from "../routing/routes.ts";
import { BudgetView } from "./Budget/Budget.tsx";
import { CachePrefixView } from "./CachePrefix/CachePrefix.tsx";
import { DroppedView } from "./Dropped/Dropped.tsx";
import { HistoryView } from "./History/History.tsx";
import { LayoutOrderView } from "./LayoutOrder/LayoutOrder.tsx";
import { OverviewView } from "./Overview/Overview.tsx";
import type { ViewProps } from "./props.ts";
import { RawView } from "./Raw/Raw.tsx";
import { SessionView } from "./Session/Session.tsx";
import { TemplatesView } from "./Templates/Templates.tsx";
import { TierGatingView } from "./TierGating/TierGating.tsx";

/** Every request view is a component of the report alone (plus UI state from the store where it is interactive). */
export const VIEWS: Readonly<Record<RequestViewId, ComponentType<ViewProps>>> = {
  overview: OverviewView,
  layout: LayoutOrderView,
  tiers: TierGatingView,
  dropped: DroppedView,
  cache: CachePrefixView,
  budget: BudgetView,
  templates: TemplatesView,
  history: HistoryView,
  raw: RawView,
};

/**
 * The views drawn before the normalized request comes, when a long request's report comes in parts
 * (the overview takes its counts from `requestComing`; Raw shows the request's JSON as pending, as
 * it does until the worker has written it): the others wait for the request.
 */
export const REPORT_ONLY_VIEWS: ReadonlySet<RequestViewId> = new Set(["overview", "budget", "templates", "raw"]);

/** The Session view draws a recorded session (its own store), not the request's report. */
export { SessionView };
