/// <reference lib="webworker" />
import { zodJitless } from "../csp.ts"; // first: no `new Function` probes under the CSP
import { runInspectJob } from "./job.ts";
import { serializeError, type WorkerRequest, type WorkerResponse } from "./protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

if (!zodJitless) console.warn("Strata inspect worker: zod is not jitless.");

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
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
