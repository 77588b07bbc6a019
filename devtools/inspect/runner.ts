import type { NormalizedRequest } from "../../core/formats/index.ts";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { TextParts } from "../components/textParts.ts";
import type { Settings } from "../store/settings.ts";
import type { WarmRequest } from "./warmup.ts";
import { Reassembly, withDerivedFingerprints } from "./chunks.ts";
import {
  InspectFailure,
  serializeError,
  TEXT_FIELDS,
  TEXT_PART_CHARS,
  WHOLE_TEXT_CHARS,
  type InspectJob,
  type RequestCounts,
  type TextField,
  type WorkerRequest,
  type WorkerResponse,
} from "./protocol.ts";

/**
 * The first report for a job. For a long request it comes without its request (`request` null,
 * `requestComing` its counts): the request follows through `onRequest`.
 */
export interface FirstReport {
  readonly report: InspectionReport;
  readonly requestComing: RequestCounts | null;
  /**
   * To call once the first report is on screen: its request then comes (sent at once, its slices
   * would be read before the page paints). Without a call it comes after `SHOWN_FALLBACK_MS`.
   */
  readonly shown?: () => void;
}

/** When nobody says a first report is shown (no view host mounted), its request comes anyway after this long. */
const SHOWN_FALLBACK_MS = 300;

/** What follows a long request's first report (see `FirstReport`), in this order. */
export interface LaterReports {
  /** The first report with its request in place. */
  readonly onRequest?: (report: InspectionReport) => void;
  /** The whole report (lists not cut, the same request). */
  readonly onFull?: (report: InspectionReport) => void;
}

/**
 * Resolves with the first report for `job`. When that report's lists were cut (a long request),
 * its request and then the whole report follow (`LaterReports`), unless a newer job with the same
 * estimator supersedes them.
 */
export type InspectRunner = (job: InspectJob, signal?: AbortSignal, later?: LaterReports) => Promise<FirstReport>;

/** A runner whose workers can be warmed up before the first job (see warmup.ts). */
export interface WorkerRunner extends InspectRunner {
  /**
   * Starts the worker the next job with these settings' estimator will take, and has it warm up
   * for them; nothing once a job has run or when a worker is idle already.
   */
  readonly prewarm: (settings: Settings) => void;
}

const abortError = () => new DOMException("The inspection was superseded.", "AbortError");

/**
 * Pretty JSON of requests, made in the worker: a request's text (in parts, see `TextParts`) once
 * it has come, or null while the whole report (which brings it) is on its way. Requests not listed
 * are small: JSON.stringify them.
 */
const requestTexts = new WeakMap<object, TextParts | null>();

/** The pretty JSON of `request` when the worker made it, null while it is coming, undefined if it will not. */
export const workerRequestJson = (request: object): TextParts | null | undefined => requestTexts.get(request);

/**
 * For the benchmark: `name` from the job's post to a report received (structured clones included),
 * and `name-worker`, the worker's own time making that report (when it said). `strata:inspect` is
 * the first report; `strata:inspect-whole` the whole one that follows when the first one's lists
 * were cut. Each measure's `detail` tells the job: `"figures"` for a figures-only job (the Budget
 * view's second count), `"report"` for the others.
 */
function recordTiming(
  name: "strata:inspect" | "strata:inspect-whole",
  job: InspectJob,
  posted: number,
  workerMs: number | null,
): void {
  if (typeof performance.measure !== "function") return;
  const end = performance.now();
  const detail = job.figuresOnly ? "figures" : "report";
  try {
    performance.measure(name, { start: posted, end, detail });
    if (workerMs !== null) performance.measure(`${name}-worker`, { start: end - workerMs, duration: workerMs, detail });
  } catch {
    // user timing unavailable: nothing to record
  }
}

/** Whether two jobs inspect the same texts (the settings aside). */
const sameTexts = (a: InspectJob, b: InspectJob): boolean =>
  a.input === b.input && a.previous === b.previous && a.response === b.response;

/**
 * Off the main thread: one worker per job in flight, idle workers are reused. A cancelled job
 * (the input changed again) terminates its worker, so a stale 5 MB inspection never delays the next;
 * so does a newer job while the worker still makes the whole report for another input, or for the
 * same input with the same estimator (the settings changed).
 *
 * Each idle worker is kept for the estimator of its last job, one per estimator, and a job takes
 * the one kept for its own estimator or a new worker: the Budget view's chars/4 comparison (a
 * second job for the same input) then never takes the worker that counts with the tokenizer,
 * which has its encoding loaded, its pieces counted before remembered and its code optimized —
 * a new worker inspected an 18.5 MB paste in 1.05–1.40 s where a warm one took 0.67–0.73 s.
 */
export function createWorkerRunner(
  spawn: () => Worker = () =>
    new Worker(new URL("./inspect.worker.ts", import.meta.url), { type: "module", name: "strata-inspect" }),
): WorkerRunner {
  /** Idle workers, by the estimator of the last job each ran. */
  const idle = new Map<string, Worker>();
  /** Jobs whose worker still makes their later reports, by the function that stops them. */
  const finishing = new Map<() => void, InspectJob>();
  let nextId = 1;
  /** A job has run: a warm-up at startup would only start one more worker (see `prewarm`). */
  let used = false;
  /**
   * Workers asked to warm up once their first job was done. (One started to warm up at startup is
   * asked again then: a job that comes during a warm-up stops it, and a startup sample often does.)
   */
  const warmedAfterJob = new WeakSet<Worker>();
  const warmUp = (worker: Worker, settings: Settings) => worker.postMessage({ warm: settings } satisfies WarmRequest);
  const run: InspectRunner = (job, signal, later) =>
    new Promise<FirstReport>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      used = true;
      const estimator = job.settings.estimator;
      for (const [stopOther, other] of [...finishing])
        if (other.settings.estimator === estimator || !sameTexts(other, job)) stopOther();
      const worker = idle.get(estimator) ?? spawn();
      idle.delete(estimator);
      const id = nextId++;
      let head: Reassembly | undefined = new Reassembly();
      let requestParts: Reassembly | undefined;
      /** The counts the head's skeleton gave when its request follows (later chunks carry none). */
      let requestComing: RequestCounts | null = null;
      let full: Reassembly | undefined;
      /** The whole report's request as pretty JSON, part by part (the parts come before the report). */
      let jsonParts: string[] = [];
      /** Their UTF-8 size, as the worker measured each. */
      let jsonBytes = 0;
      /** The whole report's fingerprint segments are to be made from its segments (see chunks.ts). */
      let derivedFingerprints = false;
      let first: InspectionReport | undefined;
      /** The first report's request: in it, or come after it. */
      let request: NormalizedRequest | null = null;
      /** The full report follows the request. */
      let fullFollows = false;
      const done = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal?.removeEventListener("abort", onAbort);
        finishing.delete(stop);
      };
      const release = () => {
        done();
        idle.get(estimator)?.terminate();
        idle.set(estimator, worker);
        if (warmedAfterJob.has(worker)) return;
        warmedAfterJob.add(worker);
        warmUp(worker, job.settings);
      };
      let stopped = false;
      const stop = () => {
        stopped = true;
        done();
        worker.terminate();
        // Superseded or cancelled: no text is coming for the first report's request.
        if (request && requestTexts.get(request) === null) requestTexts.delete(request);
      };
      /** The first report is shown: its request or the whole report may still follow. */
      const followUp = () => {
        if (!requestParts && !fullFollows) return release();
        // The first report is shown meanwhile (the abort signal no longer applies); a newer job
        // stops the rest (see above).
        signal?.removeEventListener("abort", onAbort);
        finishing.set(stop, job);
        if (!requestParts) awaitFull();
      };
      /** The request is in: the whole report follows when the first one's lists were cut. */
      const awaitFull = () => {
        if (!fullFollows) return release();
        if (request) requestTexts.set(request, null);
        full = new Reassembly();
      };
      const onMessage = (event: MessageEvent<WorkerResponse>) => {
        const data = event.data;
        if (data.id !== id) return;
        if (!data.ok) {
          // A failure after the first report leaves that report shown.
          if (head) {
            recordTiming("strata:inspect", job, posted, null);
            reject(new InspectFailure(data.error));
          }
          return release();
        }
        if (data.phase === "head" && head) {
          // The skeleton (the first chunk) says whether the request follows.
          if (data.chunk.kind === "skeleton" && data.requestFollows) {
            requestComing = data.requestFollows;
            requestParts = new Reassembly();
          }
          const whole = head.add(data.chunk);
          if (!whole) return;
          head = undefined;
          recordTiming("strata:inspect", job, posted, data.ms);
          first = whole.value as InspectionReport;
          request = first.request;
          fullFollows = data.more;
          if (!requestParts) {
            resolve({ report: first, requestComing: null });
            return followUp();
          }
          let told = false;
          const shown = () => {
            if (told || stopped) return;
            told = true;
            clearTimeout(fallback);
            worker.postMessage({ id, shown: true } satisfies WorkerRequest);
          };
          const fallback = setTimeout(shown, SHOWN_FALLBACK_MS);
          resolve({ report: first, requestComing, shown });
          return followUp();
        }
        if (data.phase === "request" && requestParts && first) {
          const whole = requestParts.add(data.chunk);
          if (!whole) return;
          requestParts = undefined;
          request = whole.value as NormalizedRequest;
          first = { ...first, request };
          later?.onRequest?.(first);
          awaitFull();
          return;
        }
        if (data.phase === "json") {
          if (full) {
            jsonParts.push(data.part);
            jsonBytes += data.bytes;
          }
          return;
        }
        if (data.phase === "full" && full) {
          if (data.chunk.kind === "skeleton") derivedFingerprints = data.derivedFingerprints === true;
          const whole = full.add(data.chunk);
          if (!whole) return;
          full = undefined;
          if (request && jsonParts.length > 0) requestTexts.set(request, new TextParts(jsonParts, jsonBytes));
          jsonParts = [];
          jsonBytes = 0;
          release();
          recordTiming("strata:inspect-whole", job, posted, data.ms);
          const report = whole.value as InspectionReport;
          later?.onFull?.({ ...(derivedFingerprints ? withDerivedFingerprints(report) : report), request });
        }
      };
      const onError = (event: ErrorEvent) => {
        stop();
        if (!head) return;
        reject(
          new InspectFailure({
            name: "WorkerError",
            code: "worker_error",
            message: `The inspect worker failed: ${event.message || "it could not start"}.`,
            issues: [],
            tried: [],
          }),
        );
      };
      const onAbort = () => {
        stop();
        reject(abortError());
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal?.addEventListener("abort", onAbort, { once: true });
      const posted = performance.now();
      void postJob(worker, id, job, () => stopped);
    });
  const prewarm = (settings: Settings) => {
    if (used || idle.has(settings.estimator)) return;
    const worker = spawn();
    warmUp(worker, settings);
    idle.set(settings.estimator, worker);
  };
  return Object.assign(run, { prewarm });
}

/** The next task (a message on a channel of its own: unlike setTimeout, never clamped). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Posts `job` to `worker`: each long text in parts, one part per task, then the job without them.
 * Stops (returns false) when `cancelled()` says the job was given up meanwhile.
 */
async function postJob(worker: Worker, id: number, job: InspectJob, cancelled: () => boolean): Promise<boolean> {
  const parts: TextField[] = [];
  let rest: InspectJob = job;
  for (const field of TEXT_FIELDS) {
    const text = job[field];
    if (text.length <= WHOLE_TEXT_CHARS) continue;
    parts.push(field);
    rest = { ...rest, [field]: "" };
    let start = 0;
    while (start < text.length) {
      let end = Math.min(text.length, start + TEXT_PART_CHARS);
      // Never between the two halves of a surrogate pair (each part is then well-formed).
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      worker.postMessage({ id, field, part: text.slice(start, end) } satisfies WorkerRequest);
      start = end;
      await nextTask();
      if (cancelled()) return false;
    }
  }
  worker.postMessage({ id, job: rest, ...(parts.length > 0 ? { parts } : {}) } satisfies WorkerRequest);
  return true;
}

/** In the page (tests under happy-dom, browsers without module workers). Same code, same report. */
const inPageRunner: InspectRunner = async (job) => {
  const { runInspectJob } = await import("./job.ts");
  try {
    return { report: await runInspectJob(job), requestComing: null };
  } catch (error) {
    throw new InspectFailure(serializeError(error));
  }
};

function workersAvailable(): boolean {
  if (typeof Worker !== "function") return false;
  const ua = typeof navigator === "undefined" ? "" : navigator.userAgent;
  return !/HappyDOM|jsdom/i.test(ua);
}

let override: InspectRunner | undefined;
let workerRunner: WorkerRunner | undefined;

/** Tests may install their own runner (e.g. one that never resolves, to see the loading state). */
export function setInspectRunner(runner: InspectRunner | undefined): void {
  override = runner;
}

export function getInspectRunner(): InspectRunner {
  if (override) return override;
  if (!workersAvailable()) return inPageRunner;
  workerRunner ??= createWorkerRunner();
  return workerRunner;
}

/**
 * Warms the inspect worker up for jobs with `settings` while the page is idle (see warmup.ts):
 * only with real workers and no runner installed by a test.
 */
export function prewarmInspector(settings: Settings): void {
  if (override || !workersAvailable()) return;
  workerRunner ??= createWorkerRunner();
  workerRunner.prewarm(settings);
}
