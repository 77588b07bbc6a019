/**
 * User-timing marks the benchmark reads (`performance.getEntriesByName`):
 * - `strata:paste-to-rendered`: from a change of the input (for a paste: the paste event, before
 *   its text is read) to the view showing the report for it;
 * - `strata:view-switch`: from a click (or key, or URL change) to the new view painted;
 * - `strata:paste-read` (a mark): when the pasted text reached the app. The browser builds the
 *   string of a large paste on the main thread before handing it over (an 18.5 MB paste: one task
 *   of ~170 ms in headless Chromium, before any of the app's code runs); this mark lets the
 *   benchmark tell that task's share from the app's.
 * Each measure is taken after the next paint (a frame, then a task), not at React commit time.
 */

export const PASTE_TO_RENDERED = "strata:paste-to-rendered";
export const VIEW_SWITCH = "strata:view-switch";
export const PASTE_READ = "strata:paste-read";
const INPUT_CHANGE = "strata:input-change";
const VIEW_SWITCH_START = "strata:view-switch-start";

const perf: Performance | undefined =
  typeof performance !== "undefined" && typeof performance.mark === "function" ? performance : undefined;

let pendingInput: string | undefined; // inspection key the pending input mark waits for
let pasteStart: number | undefined; // when the paste whose text is being read began
/** A paste's start older than this is not the start of the input change that follows. */
const PASTE_START_MAX_AGE = 10_000;
let pendingView: string | undefined;

export function afterPaint(fn: () => void): void {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(fn, 0));
  else setTimeout(fn, 0);
}

/**
 * Called at a paste event, before its text is read (synchronously or not): the input change that
 * the paste causes is then measured from here, so reading the clipboard counts as part of it.
 */
export function markPasteStart(): void {
  if (perf) pasteStart = perf.now();
}

/** Called as soon as a paste's text has reached the app (the clipboard read resolved, or `getData` returned). */
export function markPasteRead(): void {
  perf?.mark(PASTE_READ);
}

/** Called when the inspected input changes; `key` identifies the inspection that will answer it. */
export function markInputChange(key: string): void {
  if (!perf) return;
  const now = perf.now();
  const start = pasteStart !== undefined && now - pasteStart < PASTE_START_MAX_AGE ? pasteStart : now;
  pasteStart = undefined;
  perf.mark(INPUT_CHANGE, { startTime: start });
  pendingInput = key;
}

/** Called after a view committed the result (report or error) of inspection `key`. */
export function inputRendered(key: string): void {
  if (!perf || pendingInput !== key) return;
  pendingInput = undefined;
  afterPaint(() => {
    try {
      perf.measure(PASTE_TO_RENDERED, INPUT_CHANGE);
    } catch {
      // the start mark was cleared by someone else (the benchmark): nothing to measure
    }
  });
}

/** Marks the start of a switch to `view`; a second mark for the same pending switch is ignored. */
export function markViewSwitch(view: string): void {
  if (!perf || pendingView === view) return;
  perf.mark(VIEW_SWITCH_START);
  pendingView = view;
}

export function viewRendered(view: string): void {
  if (!perf || pendingView !== view) return;
  pendingView = undefined;
  afterPaint(() => {
    try {
      perf.measure(VIEW_SWITCH, VIEW_SWITCH_START);
    } catch {
      // start mark cleared meanwhile
    }
  });
}
