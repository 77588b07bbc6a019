import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useShallow } from "zustand/react/shallow";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { markInputChange } from "../perf/marks.ts";
import { useInput } from "../store/input.ts";
import { type EstimatorChoice, pickSettings, type Settings, useUi } from "../store/settings.ts";
import type { RequestCounts } from "./protocol.ts";
import { getInspectRunner } from "./runner.ts";

export interface Inspection {
  readonly report: InspectionReport;
  /** The first report of a long request, its lists cut: the whole one is on its way (see runner.ts). */
  readonly partial: boolean;
  /**
   * Set while the first report of a long request waits for its request (`report.request` is null
   * until then): the request's counts. Views that draw the request wait for it (see ViewHost).
   */
  readonly requestComing: RequestCounts | null;
  /** To call once this first report is on screen: its request then comes (see runner.ts). */
  readonly shown?: () => void;
  /** Which input revision and settings produced it (`inputKey` + settings), for perf marks and staleness. */
  readonly key: string;
}

const settingsKey = (s: Settings) =>
  JSON.stringify([s.provider, s.model, s.layout, s.maxInputTokens, s.maxInputBytes, s.estimator]);

/**
 * The inspection of the current input (and previous turn) under the current settings.
 * Keyed by revision counters, never by the text itself: hashing a 5 MB key on every render would
 * cost more than the render. Keeps showing the last report while the next one is computed.
 */
export function useInspection(override?: {
  readonly estimator?: EstimatorChoice;
  readonly enabled?: boolean;
  /** Only the report's figures are read (see `InspectJob.figuresOnly`): it comes whole, at once, without its request. */
  readonly figuresOnly?: boolean;
}) {
  const { current, previous, response, revision } = useInput(
    useShallow((s) => ({ current: s.current, previous: s.previous, response: s.response, revision: s.revision })),
  );
  const base = useUi(useShallow(pickSettings));
  const settings: Settings = override?.estimator ? { ...base, estimator: override.estimator } : base;
  const figuresOnly = override?.figuresOnly === true;
  const key = `${revision.current}:${revision.previous}:${revision.response}:${settingsKey(settings)}${figuresOnly ? ":figures" : ""}`;
  const empty = !/\S/.test(current); // stops at the first non-space character, unlike trim() on 5 MB
  const client = useQueryClient();
  const query = useQuery<Inspection, Error, Inspection, readonly string[]>({
    queryKey: ["inspect", key],
    // A long request's first report has its lists cut; the whole one replaces it when it comes.
    queryFn: async ({ signal }): Promise<Inspection> => {
      const job = { input: current, previous, response, settings, ...(figuresOnly ? { figuresOnly } : {}) };
      const first = await getInspectRunner()(job, signal, {
        onRequest: (report) =>
          client.setQueryData<Inspection>(["inspect", key], (shown) =>
            shown?.requestComing ? { ...shown, report, requestComing: null } : shown,
          ),
        onFull: (full) =>
          client.setQueryData<Inspection>(["inspect", key], { report: full, partial: false, requestComing: null, key }),
      });
      // Only the devtools' first report cuts lists (their own cap keeps every list whole).
      return {
        report: first.report,
        partial: first.report.truncated.length > 0,
        requestComing: first.requestComing,
        ...(first.shown ? { shown: first.shown } : {}),
        key,
      };
    },
    enabled: !empty && override?.enabled !== false,
    // Each report is a fresh value; comparing a 20 MB one with the last, key by key (react-query's
    // structural sharing), held the main thread 150 ms when the whole report came in.
    structuralSharing: false,
    // An emptied input shows nothing, not the last report.
    placeholderData: (previous) => (empty ? undefined : keepPreviousData(previous)),
    gcTime: 15_000,
  });
  return { query, key, empty };
}

/** The key of the main inspection for the stores' current state (what `useInspection()` will answer with). */
export function currentInspectionKey(): string {
  const { revision } = useInput.getState();
  return `${revision.current}:${revision.previous}:${revision.response}:${settingsKey(pickSettings(useUi.getState()))}`;
}

/**
 * Marks `strata:input-change` synchronously in the store update (at the paste/keystroke, before React
 * renders the 5 MB textarea), whenever the main inspection key changes. Returns the unsubscribe.
 */
export function installInputMarks(): () => void {
  let last = currentInspectionKey();
  const check = () => {
    const key = currentInspectionKey();
    if (key === last) return;
    last = key;
    markInputChange(key);
  };
  const a = useInput.subscribe(check);
  const b = useUi.subscribe(check);
  return () => {
    a();
    b();
  };
}
