import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useShallow } from "zustand/react/shallow";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { markInputChange } from "../perf/marks.ts";
import { useInput } from "../store/input.ts";
import { type EstimatorChoice, pickSettings, type Settings, useUi } from "../store/settings.ts";
import type { RequestCounts } from "./protocol.ts";
import { getInspectRunner, prewarmInspector } from "./runner.ts";

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

/** What one inspection reads: the three texts, the settings, and whether only its figures are. */
interface InspectionSource {
  readonly current: string;
  readonly previous: string;
  readonly response: string;
  readonly settings: Settings;
  readonly figuresOnly: boolean;
}

/** The query of one inspection under `key` (the hook's, and the early start's: the same query). */
function inspectionQuery(client: QueryClient, key: string, source: InspectionSource) {
  return {
    queryKey: ["inspect", key] as readonly string[],
    // A long request's first report has its lists cut; the whole one replaces it when it comes.
    queryFn: async ({ signal }: { readonly signal: AbortSignal }): Promise<Inspection> => {
      const { current, previous, response, settings, figuresOnly } = source;
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
    // Each report is a fresh value; comparing a 20 MB one with the last, key by key (react-query's
    // structural sharing), held the main thread 150 ms when the whole report came in.
    structuralSharing: false,
    gcTime: 15_000,
  };
}

/** Whether `text` is empty for inspection: it stops at the first non-space character, unlike trim() on 5 MB. */
const isBlank = (text: string): boolean => !/\S/.test(text);

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
  const empty = isBlank(current);
  const client = useQueryClient();
  const query = useQuery<Inspection, Error, Inspection, readonly string[]>({
    ...inspectionQuery(client, key, { current, previous, response, settings, figuresOnly }),
    enabled: !empty && override?.enabled !== false,
    // An emptied input shows nothing, not the last report.
    placeholderData: (previous) => (empty ? undefined : keepPreviousData(previous)),
  });
  return { query, key, empty };
}

/** The key of the main inspection for the stores' current state (what `useInspection()` will answer with). */
export function currentInspectionKey(): string {
  const { revision } = useInput.getState();
  return `${revision.current}:${revision.previous}:${revision.response}:${settingsKey(pickSettings(useUi.getState()))}`;
}

/**
 * Calls `changed(key, last)` in the store update itself (at the paste or keystroke, before React
 * renders), whenever the main inspection's key changes. Returns the unsubscribe.
 */
function watchInspectionKey(changed: (key: string, last: string) => void): () => void {
  let last = currentInspectionKey();
  const check = () => {
    const key = currentInspectionKey();
    if (key === last) return;
    const was = last;
    last = key;
    changed(key, was);
  };
  const a = useInput.subscribe(check);
  const b = useUi.subscribe(check);
  return () => {
    a();
    b();
  };
}

/**
 * Marks `strata:input-change` synchronously in the store update (before React renders the 5 MB
 * textarea), whenever the main inspection key changes. Returns the unsubscribe.
 */
export const installInputMarks = (): (() => void) => watchInspectionKey(markInputChange);

/**
 * Starts the main inspection as soon as the stores change (in the paste's task, before React renders
 * the new text), instead of when the hook's query next renders: the job, and a long text with it, is
 * posted to the worker while the page renders. The hook then finds the same query under the same key
 * already fetching. Only the main inspection (no override) starts early; it is the one the header
 * always reads. Returns the unsubscribe.
 */
export const startInspectionsEarly = (client: QueryClient): (() => void) =>
  watchInspectionKey((key, last) => {
    // Changed again before any view took up the last one (two changes in one task): stop it.
    const started = client.getQueryCache().find({ queryKey: ["inspect", last], exact: true });
    if (started && started.getObserversCount() === 0 && started.state.fetchStatus === "fetching")
      void client.cancelQueries({ queryKey: ["inspect", last], exact: true });
    const { current, previous, response } = useInput.getState();
    if (isBlank(current)) return;
    const source = { current, previous, response, settings: pickSettings(useUi.getState()), figuresOnly: false };
    void client.prefetchQuery(inspectionQuery(client, key, source));
  });

/** How long the page waits for an idle moment before it warms the inspector up anyway. */
const WARM_UP_TIMEOUT_MS = 2000;

/**
 * Once the page is idle after it loads, warms the inspect worker up for the current settings
 * (warmup.ts), unless something is being inspected already (a sample, a shared link): the first
 * paste then runs on a worker with its tokenizer loaded and its code optimized. Returns the cancel.
 */
export function scheduleWarmUp(): () => void {
  const warm = () => {
    if (!isBlank(useInput.getState().current)) return;
    prewarmInspector(pickSettings(useUi.getState()));
  };
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(warm, { timeout: WARM_UP_TIMEOUT_MS });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(warm, 500);
  return () => clearTimeout(timer);
}
