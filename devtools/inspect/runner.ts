import type { InspectionReport } from "../../core/inspect/index.ts";
import {
  InspectFailure,
  serializeError,
  type InspectJob,
  type WorkerRequest,
  type WorkerResponse,
} from "./protocol.ts";

export type InspectRunner = (job: InspectJob, signal?: AbortSignal) => Promise<InspectionReport>;

const abortError = () => new DOMException("The inspection was superseded.", "AbortError");

const postedAt = new Map<number, number>();

/**
 * `strata:inspect` (post → result received, including both structured clones) and
 * `strata:inspect-worker` (inspect() itself, inside the worker), for the benchmark.
 */
function recordTiming(id: number, workerMs: number | null): void {
  const start = postedAt.get(id);
  postedAt.delete(id);
  if (start === undefined || typeof performance.measure !== "function") return;
  const end = performance.now();
  try {
    performance.measure("strata:inspect", { start, end });
    if (workerMs !== null) performance.measure("strata:inspect-worker", { start: end - workerMs, duration: workerMs });
  } catch {
    // user timing unavailable: nothing to record
  }
}

/**
 * Off the main thread: one worker per job in flight, idle workers are reused. A cancelled job
 * (the input changed again) terminates its worker, so a stale 5 MB inspection never delays the next.
 */
function createWorkerRunner(): InspectRunner {
  const idle: Worker[] = [];
  let nextId = 1;
  const spawn = () =>
    new Worker(new URL("./inspect.worker.ts", import.meta.url), { type: "module", name: "strata-inspect" });
  return (job, signal) =>
    new Promise<InspectionReport>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const worker = idle.pop() ?? spawn();
      const id = nextId++;
      const done = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        signal?.removeEventListener("abort", onAbort);
      };
      const onMessage = (event: MessageEvent<WorkerResponse>) => {
        if (event.data.id !== id) return;
        done();
        recordTiming(id, event.data.ok ? event.data.ms : null);
        if (idle.length < 2) idle.push(worker);
        else worker.terminate();
        if (event.data.ok) resolve(event.data.report as InspectionReport);
        else reject(new InspectFailure(event.data.error));
      };
      const onError = (event: ErrorEvent) => {
        done();
        worker.terminate();
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
        postedAt.delete(id);
        done();
        worker.terminate();
        reject(abortError());
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      signal?.addEventListener("abort", onAbort, { once: true });
      const posted = performance.now();
      worker.postMessage({ id, job } satisfies WorkerRequest);
      postedAt.set(id, posted);
    });
}

/** In the page (tests under happy-dom, browsers without module workers). Same code, same report. */
const inPageRunner: InspectRunner = async (job) => {
  const { runInspectJob } = await import("./job.ts");
  try {
    return await runInspectJob(job);
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
let workerRunner: InspectRunner | undefined;

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
