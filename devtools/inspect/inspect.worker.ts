/// <reference lib="webworker" />
import { zodJitless } from "../csp.ts"; // first: no `new Function` probes under the CSP
import { expectedTokenizer, runInspectJob, runStagedInspectJob } from "./job.ts";
import type { InspectionReport } from "../../core/inspect/index.ts";
import type { NormalizedRequest } from "../../core/formats/index.ts";
import { toChunks, withoutDerivedFingerprints } from "./chunks.ts";
import { splitAtLines } from "../components/textParts.ts";
import { utf8Length } from "../../core/cache/index.ts";
import {
  HEAD_LIST_CAP,
  JSON_PART_CHARS,
  serializeError,
  type InspectJob,
  type RequestCounts,
  type TextField,
  type WorkerRequest,
  type WorkerResponse,
} from "./protocol.ts";
import { runSessionJob } from "./session-job.ts";
import type { SessionWorkerRequest, SessionWorkerResponse } from "./session-runner.ts";
import { WARM_ROUNDS, WARM_TURNS, type WarmRequest, warmupRequest } from "./warmup.ts";
import type { Settings } from "../store/settings.ts";

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

/** Posts `value` (a report, or the head's request) in pieces (chunks.ts), so the page never reads one huge message at once. */
function postReport(
  id: number,
  phase: "head" | "request" | "full",
  value: InspectionReport | NormalizedRequest,
  more: boolean,
  ms: number,
  extra: { readonly requestFollows?: RequestCounts; readonly derivedFingerprints?: true } = {},
): void {
  toChunks(value).forEach((chunk, i) =>
    self.postMessage({ id, ok: true, phase, chunk, more, ms, ...(i === 0 ? extra : {}) } satisfies WorkerResponse),
  );
}

/** Jobs (sessions, parts of long texts) received so far: a warm-up stops at the next one (see warmup.ts). */
let received = 0;

/** `warm` once a warm-up ran to its end: later requests to warm up are ignored, as are those during one. */
let warmth: "cold" | "warming" | "warm" = "cold";

/**
 * Warms this worker up for jobs with `settings` (see warmup.ts): OpenAI's tokenizer loaded, then
 * a few generated requests inspected with a previous turn, each report made whole. Stops as soon
 * as a job comes (the worker stays cold: the page asks again once that job is done); a failure
 * only ends the warm-up. Nothing is posted back.
 */
async function onWarm(settings: Settings): Promise<void> {
  if (warmth !== "cold") return;
  warmth = "warming";
  const start = performance.now();
  const before = received;
  let rounds = 0;
  const jobOf = (round: number): InspectJob => ({
    input: warmupRequest(WARM_TURNS, round),
    previous: warmupRequest(WARM_TURNS - 8, round),
    response: "",
    settings,
  });
  try {
    // The tokenizer first, as its jobs will load it: a job that comes meanwhile stops the warm-up
    // before any round runs.
    const first = jobOf(1);
    await expectedTokenizer(first);
    for (let round = 1; round <= WARM_ROUNDS && received === before; round++) {
      const job = round === 1 ? first : jobOf(round);
      const staged = await runStagedInspectJob(job, HEAD_LIST_CAP);
      if (received !== before) break;
      staged.whole();
      rounds = round;
      // A task boundary between rounds: a job posted meanwhile is read (and stops the warm-up).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } catch (error) {
    console.warn("Strata inspect worker: the warm-up failed (the first inspection will only be slower).", error);
  }
  warmth = rounds === WARM_ROUNDS ? "warm" : "cold";
  // In the worker's own timeline (a profiler shows it): how long it took, and whether a job cut it short.
  if (typeof performance.measure === "function")
    performance.measure("strata:worker-warm-up", {
      start,
      end: performance.now(),
      detail: { cut: received !== before },
    });
}

/** Parts of long texts received ahead of their job (see protocol.ts), by job id. */
const pending = new Map<number, Partial<Record<TextField, string[]>>>();

/** Jobs whose first report was posted without its request, by id: the page's `shown` lets it go. */
const awaitingShown = new Map<number, () => void>();

self.onmessage = async (event: MessageEvent<WorkerRequest | SessionWorkerRequest | WarmRequest>) => {
  const data = event.data;
  if ("warm" in data) return onWarm(data.warm);
  received++;
  if ("session" in data) return onSession(data);
  if ("shown" in data) {
    awaitingShown.get(data.id)?.();
    awaitingShown.delete(data.id);
    return;
  }
  if ("part" in data) {
    const parts = pending.get(data.id) ?? {};
    (parts[data.field] ??= []).push(data.part);
    pending.set(data.id, parts);
    return;
  }
  const { id } = data;
  let job: InspectJob = data.job;
  const parts = pending.get(id);
  pending.delete(id);
  for (const field of data.parts ?? []) job = { ...job, [field]: parts?.[field]?.join("") ?? "" };
  try {
    let started = performance.now();
    if (job.figuresOnly) {
      const whole = await runInspectJob(job);
      return postReport(id, "head", whole, false, performance.now() - started);
    }
    // The first report cuts its lists: quick to make and to read, it is what the view shows first.
    const staged = await runStagedInspectJob(job, HEAD_LIST_CAP);
    const head = staged.first;
    const ms = performance.now() - started;
    const more = head.truncated.length > 0;
    // A long request's report goes without its request first: the page shows what needs no request
    // (the overview, the budget) while the request follows (see `WorkerResponse`).
    const request = head.request;
    if (more && request !== null) {
      const requestFollows = { messages: request.messages.length, tools: request.tools.length };
      postReport(id, "head", { ...head, request: null }, more, ms, { requestFollows });
      await new Promise<void>((resolve) => awaitingShown.set(id, resolve));
      postReport(id, "request", request, more, ms);
    } else postReport(id, "head", head, more, ms);
    if (!more) return;
    started = performance.now();
    // The same inspection, its lists whole: nothing is parsed, segmented or counted again.
    const full = staged.whole();
    // The same request as the head's (same job, deterministic): the page keeps the one it has, and
    // gets its pretty JSON, which would take the main thread a long while for a long request, in
    // parts it reads a few milliseconds at a time.
    if (full.request)
      for (const part of splitAtLines(JSON.stringify(full.request, null, 2), JSON_PART_CHARS))
        self.postMessage({ id, ok: true, phase: "json", part, bytes: utf8Length(part) } satisfies WorkerResponse);
    const lean = withoutDerivedFingerprints({ ...full, request: null });
    postReport(
      id,
      "full",
      lean.report,
      false,
      performance.now() - started,
      lean.derived ? { derivedFingerprints: true } : {},
    );
  } catch (error) {
    self.postMessage({ id, ok: false, error: serializeError(error) } satisfies WorkerResponse);
  }
};
