import type { SessionProgress } from "../store/session.ts";
import { InspectFailure, type SerializedError, serializeError } from "./protocol.ts";
import type { SessionJob, SessionJobResult } from "./session-job.ts";

/** Session messages between the page and the inspect worker (beside the request inspections). */
export type SessionWorkerRequest = { readonly id: number; readonly session: SessionJob };
export type SessionWorkerResponse =
  | { readonly id: number; readonly progress: SessionProgress }
  | { readonly id: number; readonly ok: true; readonly result: SessionJobResult }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

export type SessionRunner = (
  job: SessionJob,
  onProgress: (p: SessionProgress) => void,
  signal?: AbortSignal,
) => Promise<SessionJobResult>;

const abortError = () => new DOMException("The session load was superseded.", "AbortError");

let nextId = 1;

/** In the inspect worker, one worker per job (a session can take a while; terminated when superseded). */
const workerRunner: SessionRunner = (job, onProgress, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const worker = new Worker(new URL("./inspect.worker.ts", import.meta.url), {
      type: "module",
      name: "strata-inspect",
    });
    const id = nextId++;
    const done = () => {
      worker.terminate();
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(abortError());
    };
    worker.addEventListener("message", (event: MessageEvent<SessionWorkerResponse>) => {
      const data = event.data;
      if (data.id !== id) return;
      if ("progress" in data) return onProgress(data.progress);
      done();
      if (data.ok) resolve(data.result);
      else reject(new InspectFailure(data.error));
    });
    worker.addEventListener("error", (event) => {
      done();
      reject(
        new InspectFailure({
          name: "WorkerError",
          code: "worker_error",
          message: `The inspect worker failed: ${event.message || "it could not start"}.`,
          issues: [],
          tried: [],
        }),
      );
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.postMessage({ id, session: job } satisfies SessionWorkerRequest);
  });

/** In the page (tests under happy-dom, browsers without module workers). Same code, same report. */
const inPageRunner: SessionRunner = async (job, onProgress) => {
  const { runSessionJob } = await import("./session-job.ts");
  try {
    return await runSessionJob(job, onProgress);
  } catch (error) {
    throw new InspectFailure(serializeError(error));
  }
};

function workersAvailable(): boolean {
  if (typeof Worker !== "function") return false;
  const ua = typeof navigator === "undefined" ? "" : navigator.userAgent;
  return !/HappyDOM|jsdom/i.test(ua);
}

export const getSessionRunner = (): SessionRunner => (workersAvailable() ? workerRunner : inPageRunner);
