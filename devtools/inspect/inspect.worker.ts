/// <reference lib="webworker" />
import { zodJitless } from "../csp.ts"; // first: no `new Function` probes under the CSP
import { runInspectJob } from "./job.ts";
import { serializeError, type WorkerRequest, type WorkerResponse } from "./protocol.ts";
import { runSessionJob } from "./session-job.ts";
import type { SessionWorkerRequest, SessionWorkerResponse } from "./session-runner.ts";

declare const self: DedicatedWorkerGlobalScope;

if (!zodJitless) console.warn("Strata inspect worker: zod is not jitless.");

/** A session: read and inspected here, entry by entry, with progress messages. */
async function onSession({ id, session }: SessionWorkerRequest): Promise<void> {
  const post = (message: SessionWorkerResponse) => self.postMessage(message);
  try {
    const result = await runSessionJob(session, (progress) => post({ id, progress }));
    post({ id, ok: true, result });
  } catch (error) {
    post({ id, ok: false, error: serializeError(error) });
  }
}

self.onmessage = async (event: MessageEvent<WorkerRequest | SessionWorkerRequest>) => {
  if ("session" in event.data) return onSession(event.data);
  const { id, job } = event.data;
  const started = performance.now();
  let response: WorkerResponse;
  try {
    const report = await runInspectJob(job);
    response = { id, ok: true, report, ms: performance.now() - started };
  } catch (error) {
    response = { id, ok: false, error: serializeError(error) };
  }
  self.postMessage(response);
};
