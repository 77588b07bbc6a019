import { describe, expect, it } from "vitest";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { DEFAULT_SETTINGS, type Settings } from "../store/settings.ts";
import { toChunks, withoutDerivedFingerprints } from "./chunks.ts";
import { TEXT_PART_CHARS, WHOLE_TEXT_CHARS, type WorkerRequest, type WorkerResponse } from "./protocol.ts";
import { createWorkerRunner, workerRequestJson } from "./runner.ts";
import { textLines } from "../components/JsonLines.tsx";
import { TextParts, textBytes } from "../components/textParts.ts";
import { reportFor } from "../test-support/reports.ts";

/** A worker that records what the page posts and lets the test answer as inspect.worker.ts does. */
class ScriptedWorker extends EventTarget {
  readonly posted: WorkerRequest[] = [];
  postMessage(message: WorkerRequest): void {
    this.posted.push(message);
  }
  terminate(): void {}
  /** Posts one part of the whole report's request JSON with its UTF-8 size, as the worker does before the report. */
  json(id: number, part: string): void {
    const bytes = new TextEncoder().encode(part).length;
    this.dispatchEvent(new MessageEvent("message", { data: { id, ok: true, phase: "json", part, bytes } }));
  }
  /** Posts `value` in chunks for `phase`, as the worker's `postReport` does (extras on the first chunk). */
  answer(id: number, phase: "head" | "request" | "full", value: unknown, extra: object = {}): void {
    toChunks(value).forEach((chunk, i) => {
      const data = { id, ok: true, phase, chunk, more: true, ms: 1, ...(i === 0 ? extra : {}) } as WorkerResponse;
      this.dispatchEvent(new MessageEvent("message", { data }));
    });
  }
}

describe("the worker runner, for a long request answered in parts", () => {
  it("keeps the head's request counts over every chunk, asks for the request once shown, then takes the whole report", async () => {
    // Lists longer than a chunk: the head comes in several messages, only the first carrying extras.
    const report = await reportFor("conversation-turn-2");
    const request = report.request!;
    const many = Array.from({ length: 1200 }, (_, i) => ({ ...report.segments!.segments[0]!, index: i }));
    const head = { ...report, request: null, segments: { ...report.segments!, segments: many } } as InspectionReport;
    expect(toChunks(head).length).toBeGreaterThan(1);

    const worker = new ScriptedWorker();
    const run = createWorkerRunner(() => worker as unknown as Worker);
    const requests: InspectionReport[] = [];
    const fulls: InspectionReport[] = [];
    const firstReport = run({ input: "{}", previous: "", response: "", settings: DEFAULT_SETTINGS }, undefined, {
      onRequest: (r) => requests.push(r),
      onFull: (r) => fulls.push(r),
    });
    await new Promise((r) => setTimeout(r, 0)); // the job is posted in a task of its own
    const job = worker.posted.find((m): m is Extract<WorkerRequest, { job: unknown }> => "job" in m)!;
    const counts = { messages: request.messages.length, tools: request.tools.length };
    worker.answer(job.id, "head", head, { requestFollows: counts });
    const first = await firstReport;
    expect(first.requestComing).toEqual(counts);
    expect(first.report.request).toBeNull();

    // Nothing is asked until the page says the first report is shown, and then once.
    expect(worker.posted.some((m) => "shown" in m)).toBe(false);
    first.shown!();
    first.shown!();
    expect(worker.posted.filter((m) => "shown" in m)).toEqual([{ id: job.id, shown: true }]);

    worker.answer(job.id, "request", request);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.request).toEqual(request);
    // The request's JSON comes in parts before the whole report: null (coming) until the report is in.
    const shownRequest = requests[0]!.request!;
    expect(workerRequestJson(shownRequest)).toBeNull();
    const parts = ['{\n  "model": "caf\u00e9",\n', '  "n": 1\n', "}"];
    for (const part of parts) worker.json(job.id, part);
    expect(workerRequestJson(shownRequest)).toBeNull();
    // Its fingerprint segments left out, as the worker sends a whole report.
    const lean = withoutDerivedFingerprints({ ...report, request: null });
    expect(lean.derived).toBe(true);
    worker.answer(job.id, "full", lean.report, { derivedFingerprints: true });
    expect(fulls).toHaveLength(1);
    expect(fulls[0]!.fingerprints).toEqual(report.fingerprints);
    // The whole report keeps the request the page already has (the very object).
    expect(fulls[0]!.request).toBe(shownRequest);
    const made = workerRequestJson(shownRequest)!;
    expect(made).toBeInstanceOf(TextParts);
    expect(made.parts).toEqual(parts);
    expect([...textLines(made)]).toEqual(parts.join("").split("\n"));
    // Its size is the worker's count of the parts' bytes (é is two), not counted again on the page.
    expect(made.bytes).toBe(parts.join("").length + 1);
    expect(textBytes(made)).toBe(made.bytes);
  });
});

describe("the worker runner's workers", () => {
  class CountedWorker extends ScriptedWorker {
    terminated = false;
    override terminate(): void {
      this.terminated = true;
    }
  }
  const jobOf = (worker: ScriptedWorker) =>
    worker.posted.filter((m): m is Extract<WorkerRequest, { job: unknown }> => "job" in m).at(-1)!;
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it("keeps the tokenizer's worker for counted jobs: the chars/4 comparison gets its own, and a new input stops only stale work", async () => {
    const report = await reportFor("conversation-turn-2");
    const request = report.request!;
    const counts = { messages: request.messages.length, tools: request.tools.length };
    const head = { ...report, request: null } as InspectionReport;
    const spawned: CountedWorker[] = [];
    const run = createWorkerRunner(() => {
      const w = new CountedWorker();
      spawned.push(w);
      return w as unknown as Worker;
    });
    const counted: Settings = { ...DEFAULT_SETTINGS, estimator: "counted" };
    const quarter: Settings = { ...DEFAULT_SETTINGS, estimator: "quarter" };
    /** Runs a job to its first report (shown), leaving its request and whole report to come. */
    const firstOf = async (input: string, settings: Settings) => {
      const pending = run({ input, previous: "", response: "", settings });
      await settle();
      const worker = spawned.find((w) => jobOf(w)?.job.input === input && jobOf(w).job.settings === settings)!;
      worker.answer(jobOf(worker).id, "head", head, { requestFollows: counts });
      (await pending).shown!();
      return worker;
    };

    const first = await firstOf("A", counted);
    // The chars/4 job for the same input neither stops the counted one nor waits for its worker.
    const comparison = await firstOf("A", quarter);
    expect(spawned).toEqual([first, comparison]);
    expect(first.terminated).toBe(false);
    // The counted job finishes: its worker waits for the next counted job.
    first.answer(jobOf(first).id, "request", request);
    first.json(jobOf(first).id, "{}");
    first.answer(jobOf(first).id, "full", { ...report, request: null });

    // A new input: the comparison still at work on the old one is stopped, the counted worker reused.
    const next = run({ input: "B", previous: "", response: "", settings: counted });
    await settle();
    expect(comparison.terminated).toBe(true);
    expect(spawned).toHaveLength(2);
    expect(jobOf(first).job.input).toBe("B");
    first.answer(jobOf(first).id, "head", report, { more: false });
    await next;

    // The same input under a changed setting (same estimator) stops the one still finishing.
    const again = await firstOf("C", counted);
    expect(again).toBe(first);
    const changed = run({ input: "C", previous: "", response: "", settings: { ...counted, model: "gpt-4o" } });
    await settle();
    expect(first.terminated).toBe(true);
    expect(spawned).toHaveLength(3);
    void changed.catch(() => {});
  });

  it("warms a worker up before the first job and gives it that job; asks each worker again once its first job is done", async () => {
    const report = await reportFor("conversation-turn-2");
    const spawned: CountedWorker[] = [];
    const run = createWorkerRunner(() => {
      const w = new CountedWorker();
      spawned.push(w);
      return w as unknown as Worker;
    });
    const warms = (w: ScriptedWorker) =>
      (w.posted as unknown[]).filter((m) => (m as object) && "warm" in (m as object));
    run.prewarm(DEFAULT_SETTINGS);
    run.prewarm(DEFAULT_SETTINGS); // one idle worker per estimator: not a second one
    expect(spawned).toHaveLength(1);
    expect(warms(spawned[0]!)).toEqual([{ warm: DEFAULT_SETTINGS }]);

    // The first job takes the warmed worker, and asks it to warm up again once done (a job that
    // came during the warm-up stopped it); later jobs do not.
    for (const input of ["A", "B"]) {
      const pending = run({ input, previous: "", response: "", settings: DEFAULT_SETTINGS });
      await settle();
      expect(spawned).toHaveLength(1);
      spawned[0]!.answer(jobOf(spawned[0]!).id, "head", report, { more: false });
      await pending;
    }
    expect(warms(spawned[0]!)).toHaveLength(2);

    // Once a job has run, a warm-up at startup would only start one more worker.
    run.prewarm({ ...DEFAULT_SETTINGS, estimator: "quarter" });
    expect(spawned).toHaveLength(1);
  });
});

describe("the worker runner, posting a job's texts", () => {
  const settings: Settings = DEFAULT_SETTINGS;
  const post = async (input: string, previous = "") => {
    const worker = new ScriptedWorker();
    const run = createWorkerRunner(() => worker as unknown as Worker);
    void run({ input, previous, response: "", settings });
    const posted = worker.posted.length; // posted before the runner's first await
    for (let i = 0; i < 20 && !worker.posted.some((m) => "job" in m); i++) await new Promise((r) => setTimeout(r, 0));
    return { messages: worker.posted, postedAtOnce: posted };
  };

  it("sends a text of up to WHOLE_TEXT_CHARS whole with its job, at once", async () => {
    const input = "x".repeat(WHOLE_TEXT_CHARS);
    const { messages, postedAtOnce } = await post(input);
    expect(messages).toHaveLength(1);
    expect(postedAtOnce).toBe(1);
    const job = messages[0] as Extract<WorkerRequest, { job: unknown }>;
    expect(job.job.input).toBe(input);
    expect(job.parts).toBeUndefined();
  });

  it("sends a longer text in parts, never splitting a surrogate pair, and the job with the field emptied", async () => {
    // A surrogate pair across the first part's end: that part ends one unit early.
    const input = `${"a".repeat(TEXT_PART_CHARS - 1)}\u{1F600}${"b".repeat(WHOLE_TEXT_CHARS)}`;
    const { messages } = await post(input, "{}");
    const parts = messages.filter((m): m is Extract<WorkerRequest, { part: string }> => "part" in m);
    expect(parts.length).toBe(Math.ceil((input.length + 1) / TEXT_PART_CHARS));
    expect(parts[0]!.part.length).toBe(TEXT_PART_CHARS - 1);
    const splitsPair = (p: string) =>
      (p.charCodeAt(p.length - 1) & 0xfc00) === 0xd800 || (p.charCodeAt(0) & 0xfc00) === 0xdc00;
    expect(parts.every((p) => p.field === "input" && !splitsPair(p.part))).toBe(true);
    expect(parts.map((p) => p.part).join("")).toBe(input);
    const job = messages.at(-1) as Extract<WorkerRequest, { job: unknown }>;
    expect(job.parts).toEqual(["input"]);
    expect(job.job.input).toBe("");
    expect(job.job.previous).toBe("{}");
  });
});

describe("the worker runner's timings, for the benchmark", () => {
  it("measures post → first report and the worker's share, and tells a figures-only job apart", async () => {
    const report = await reportFor("conversation-turn-2");
    for (const figuresOnly of [false, true]) {
      performance.clearMeasures();
      const worker = new ScriptedWorker();
      const run = createWorkerRunner(() => worker as unknown as Worker);
      const job = {
        input: "{}",
        previous: "",
        response: "",
        settings: DEFAULT_SETTINGS,
        ...(figuresOnly ? { figuresOnly } : {}),
      };
      const first = run(job);
      const id = (worker.posted.find((m) => "job" in m) as Extract<WorkerRequest, { job: unknown }>).id;
      toChunks(report).forEach((chunk) =>
        worker.dispatchEvent(
          new MessageEvent("message", { data: { id, ok: true, phase: "head", chunk, more: false, ms: 0.5 } }),
        ),
      );
      await first;
      const [total] = performance.getEntriesByName("strata:inspect", "measure") as PerformanceMeasure[];
      const [inWorker] = performance.getEntriesByName("strata:inspect-worker", "measure") as PerformanceMeasure[];
      expect(inWorker!.duration).toBe(0.5);
      expect(inWorker!.startTime + inWorker!.duration).toBeCloseTo(total!.startTime + total!.duration, 6);
      expect([total!.detail, inWorker!.detail]).toEqual(figuresOnly ? ["figures", "figures"] : ["report", "report"]);
    }
  });
});
