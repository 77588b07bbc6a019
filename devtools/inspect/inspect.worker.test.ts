import { afterEach, describe, expect, it, vi } from "vitest";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { DEFAULT_SETTINGS, type Settings } from "../store/settings.ts";
import { Reassembly } from "./chunks.ts";
import { HEAD_LIST_CAP, type WorkerRequest, type WorkerResponse } from "./protocol.ts";

/**
 * The worker's message handler, run in the page: importing the module installs `self.onmessage`,
 * and `self.postMessage` is replaced to collect what it answers (in `posted`).
 */
const posted: WorkerResponse[] = [];
const scope = globalThis as unknown as {
  postMessage: (m: WorkerResponse) => void;
  onmessage: ((e: MessageEvent) => Promise<void>) | null;
};
async function send(request: WorkerRequest): Promise<void> {
  vi.spyOn(scope, "postMessage").mockImplementation((m) => void posted.push(m));
  await import("./inspect.worker.ts");
  return scope.onmessage!(new MessageEvent("message", { data: request }));
}
/** A response that carries a report's chunk (not a JSON part). */
type Chunked = Extract<WorkerResponse, { chunk: unknown }>;
const phases = () => posted.map((m) => (m.ok ? m.phase : "error"));

afterEach(() => {
  vi.restoreAllMocks();
  posted.length = 0;
});

// More messages than the first report's lists keep: a shown job would be answered in three parts.
const longChat = JSON.stringify({
  model: "gpt-4.1",
  messages: Array.from({ length: HEAD_LIST_CAP + 200 }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: `Message ${i}: where is order ${1000 + i}?`,
  })),
});
const quarter: Settings = { ...DEFAULT_SETTINGS, estimator: "quarter" };

describe("the inspect worker", () => {
  it("warms up without answering anything, and answers the next job as usual", async () => {
    await send({ warm: quarter } as unknown as WorkerRequest);
    expect(posted).toEqual([]);
    // It ran every round (its measure says no job cut it short); a second request is ignored.
    const measures = () => performance.getEntriesByName("strata:worker-warm-up");
    expect(measures().map((m) => (m as PerformanceMeasure).detail)).toEqual([{ cut: false }]);
    await send({ warm: quarter } as unknown as WorkerRequest);
    expect(measures()).toHaveLength(1);
    await send({ id: 6, job: { input: longChat, previous: "", response: "", settings: quarter, figuresOnly: true } });
    expect(posted.length).toBeGreaterThan(0);
    expect(posted.every((m) => m.ok && m.id === 6)).toBe(true);
  });

  it("answers a figures-only job at once, with every list whole and no request", async () => {
    const job = { input: longChat, previous: "", response: "", settings: quarter, figuresOnly: true };
    await send({ id: 7, job });
    expect(posted.length).toBeGreaterThan(1);
    const heads = posted.filter((m): m is Chunked => m.ok && m.phase === "head");
    expect(heads).toHaveLength(posted.length);
    expect(heads.every((m) => m.id === 7 && !m.more && m.requestFollows === undefined)).toBe(true);
    const whole = new Reassembly();
    const report = heads.map((m) => whole.add(m.chunk)).at(-1)!.value as InspectionReport;
    expect(report.request).toBeNull();
    expect(report.truncated).toEqual([]);
    expect(report.assembly!.asSent!.messages).toHaveLength(HEAD_LIST_CAP + 200);
  });

  it("answers a long request's job first with cut lists, then its request once shown, then the whole report", async () => {
    const done = send({ id: 8, job: { input: longChat, previous: "", response: "", settings: quarter } });
    await vi.waitFor(() => expect(posted.length).toBeGreaterThan(0), { timeout: 20_000 });
    const first = posted[0] as Chunked;
    expect(first).toMatchObject({ id: 8, phase: "head", more: true });
    expect(first.requestFollows?.messages).toBe(HEAD_LIST_CAP + 200);
    expect(new Set(phases())).toEqual(new Set(["head"]));
    await send({ id: 8, shown: true });
    await done;
    expect([...new Set(phases())]).toEqual(["head", "request", "json", "full"]);
    // The request's pretty JSON comes before the whole report, in parts that each end a line.
    const requestParts = new Reassembly();
    let request: unknown;
    for (const m of posted) if (m.ok && m.phase === "request") request = requestParts.add(m.chunk)?.value ?? request;
    const json = posted.flatMap((m) => (m.ok && m.phase === "json" ? [m.part] : []));
    expect(json.join("")).toBe(JSON.stringify(request, null, 2));
    expect(json.slice(0, -1).every((p) => p.endsWith("\n"))).toBe(true);
    const order = phases();
    expect(order.lastIndexOf("json")).toBeLessThan(order.indexOf("full"));
    expect(order.indexOf("json")).toBeGreaterThan(order.lastIndexOf("request"));
  });
});
