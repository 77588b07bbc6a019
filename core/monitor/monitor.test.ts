import { describe, expect, it } from "vitest";
import { inspectSession } from "../session/inspect-session.ts";
import { parseSession } from "../session/parse.ts";
import { readUsage } from "../tokens/usage.ts";
import {
  chunkedResponse,
  fakeProvider,
  oneBustRecords,
  openaiChatStream,
  openaiStreamingRequest,
  promptStrings,
  recordClock,
  responseChunks,
} from "../test-support/monitor-fixtures.ts";
import type { SessionRecord } from "../test-support/samples-session.ts";
import { geminiSample } from "../test-support/samples-wire.ts";
import { createMonitoredFetch } from "./fetch.ts";
import { createMemoryStore } from "./store.ts";
import type { MonitorEvent, MonitorOptions, MonitorStore } from "./types.ts";

const ANTHROPIC = "https://api.anthropic.com/v1/messages";
const OPENAI = "https://api.openai.com/v1/chat/completions";

/** Sends each record as an SDK would (POST, JSON string body), reading each response to the end. */
async function replay(records: readonly SessionRecord[], options: MonitorOptions = {}) {
  const provider = fakeProvider(records);
  const events: MonitorEvent[] = [];
  const errors: unknown[] = [];
  const monitored = createMonitoredFetch(provider.fetch, {
    now: recordClock(records),
    onEvent: (e) => void events.push(e),
    onError: (e) => void errors.push(e),
    ...options,
  });
  const bodies: string[] = [];
  for (const r of records) {
    const res = await monitored(r.url ?? ANTHROPIC, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(r.request),
    });
    bodies.push(await res.text());
  }
  await monitored.settled();
  return { events, errors, bodies, provider };
}

/** Every string value in the events. */
function eventStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(eventStrings);
  if (value && typeof value === "object") return Object.values(value).flatMap(eventStrings);
  return [];
}

/** Reads a body chunk by chunk, as decoded strings. */
async function chunksOf(res: Response): Promise<string[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) return out;
    out.push(decoder.decode(r.value));
  }
}

describe("createMonitoredFetch on the sample session", () => {
  it("threads the turns, finds the one bust and its cause, and reads the actual usage", async () => {
    const { events, errors } = await replay(oneBustRecords);
    expect(errors).toEqual([]);
    const threads = [...new Set(events.map((e) => e.thread))];
    expect(threads).toHaveLength(2);
    expect(events.map((e) => [threads.indexOf(e.thread), e.turn, e.cause, e.bustsCache])).toEqual([
      [0, 1, "first", false],
      [1, 1, "first", false],
      [0, 2, "appended", false],
      [1, 2, "appended", false],
      [0, 3, "system_changed", true],
    ]);
    const busts = events.filter((e) => e.bustsCache);
    expect(busts).toHaveLength(1);
    expect(busts[0]!.divergence?.path).toMatch(/^messages\[0\]/);
    // the 6 min 38 s pause before that turn is past Anthropic's 5-minute lifetime
    expect(busts[0]!.predicted.expired).toBe(true);
    // actual usage is the recorded responses' (turn 2 of thread 1 came as an SSE stream)
    expect(events.map((e) => e.actual)).toEqual(
      oneBustRecords.map((r) => readUsage("anthropic", JSON.stringify(r.response))),
    );
    expect(events[2]!.stream).toBe(true);
    expect(events.map((e) => e.ts)).toEqual(oneBustRecords.map((r) => Date.parse(r.time)));
    expect(events.every((e) => e.cost?.basis === "actual" && e.cost.total > 0)).toBe(true);
    expect(events.every((e) => e.threadSource === "prefix" && e.provider === "anthropic")).toBe(true);
    // the second turn of each thread shares the previous turn's whole prefix
    expect(events[2]!.sharedPrefix?.segments).toBeGreaterThan(0);
  });

  it("agrees with the session analysis of the same requests", async () => {
    const { events } = await replay(oneBustRecords);
    const report = inspectSession(
      parseSession(oneBustRecords.map((r) => JSON.stringify({ time: r.time, request: r.request })).join("\n")),
    );
    const byThread = (list: { thread: string; cause: string }[]) => {
      const m = new Map<string, string[]>();
      for (const x of list) m.set(x.thread, [...(m.get(x.thread) ?? []), x.cause]);
      return [...m.values()];
    };
    expect(byThread(events)).toEqual(report.threads.map((t) => t.turns.map((x) => x.cause)));
    // Within a thread the predictions agree. The session analysis also lets a thread's first turn
    // read what another conversation cached (the shared tools and system prompt); the monitor keeps
    // no cache across threads, so it predicts a write there, and the actual usage shows the read.
    const predicted = report.threads
      .flatMap((t) => t.turns.map((x) => [x.entry, x.turn, x.predicted.cacheRead] as const))
      .sort((a, b) => a[0] - b[0]);
    expect(events.map((e) => (e.turn > 1 ? e.predicted.cacheRead : null))).toEqual(
      predicted.map(([, turn, read]) => (turn > 1 ? read : null)),
    );
    expect(predicted[1]![2]).toBeGreaterThan(0);
    expect(events[1]!.predicted.cacheRead).toBe(0);
    expect(events[1]!.actual!.cacheRead).toBeGreaterThan(0);
  });

  it("carries no prompt text: no string of the requests appears in any event", async () => {
    const { events } = await replay(oneBustRecords);
    const text = JSON.stringify(events);
    const leaves = new Set(eventStrings(events));
    const strings = promptStrings(oneBustRecords.map((r) => r.request));
    expect(strings.length).toBeGreaterThan(20);
    // No request string is a string of an event; none of 12 characters or more (a phrase) is inside
    // one. A shorter one (a schema's "change") may be a word of the events' own sentences.
    expect(strings.filter((s) => leaves.has(s))).toEqual([]);
    expect(strings.filter((s) => s.length >= 12 && text.includes(s))).toEqual([]);
    expect(strings.filter((s) => s.length >= 12).length).toBeGreaterThan(20);
  });

  it("gives the same events for the same traffic (deterministic)", async () => {
    const a = await replay(oneBustRecords);
    const b = await replay(oneBustRecords);
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
  });

  it("exports events as JSONL that the session reader opens, threads and busts intact", async () => {
    const { events } = await replay(oneBustRecords);
    const session = parseSession(events.map((e) => JSON.stringify(e)).join("\n"));
    expect(session.kind).toBe("jsonl");
    expect(session.skipped).toEqual([]);
    const report = inspectSession(session);
    expect(report.threads.map((t) => t.turns.map((x) => x.cause))).toEqual([
      ["first", "appended", "system_changed"],
      ["first", "appended"],
    ]);
    expect(report.busts.map((b) => b.cause)).toEqual(["system_changed"]);
    expect(report.threads.flatMap((t) => t.turns.map((x) => x.actual))).toEqual(
      [0, 2, 4, 1, 3].map((i) => events[i]!.actual),
    );
    // without fingerprints an event is skipped with its reason
    const bare = JSON.stringify({ ...events[0], fingerprint: undefined });
    expect(parseSession(bare).skipped[0]?.code).toBe("no_request_body");
  });

  it("keeps state in the store between monitors (a new process, the same store)", async () => {
    const store = createMemoryStore();
    const first = await replay(oneBustRecords.slice(0, 3), { store });
    const second = await replay(oneBustRecords.slice(3), { store, now: recordClock(oneBustRecords.slice(3)) });
    expect(second.events.map((e) => [e.turn, e.cause])).toEqual([
      [2, "appended"],
      [3, "system_changed"],
    ]);
    expect(second.events[0]!.thread).toBe(first.events[1]!.thread);
    expect(store.size).toBe(2);
  });
});

describe("createMonitoredFetch passes traffic through untouched", () => {
  it("sends the app's own arguments and returns the provider's bytes in the provider's chunks (SSE)", async () => {
    const record = oneBustRecords[2]!;
    const provider = fakeProvider([record]);
    const monitored = createMonitoredFetch(provider.fetch, { onEvent: () => {} });
    const init = { method: "POST", body: JSON.stringify(record.request) };
    const res = await monitored(ANTHROPIC, init);
    expect(provider.sent[0]!.init).toBe(init);
    expect(provider.sent[0]!.input).toBe(ANTHROPIC);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const chunks = await chunksOf(res);
    expect(chunks).toEqual(responseChunks(record));
    expect(chunks.length).toBeGreaterThan(3);
    await monitored.settled();
  });

  it("passes other requests straight through: GETs, other paths, form uploads", async () => {
    const calls: unknown[][] = [];
    const fake = (async (...args: unknown[]) => {
      calls.push(args);
      return new Response("ok");
    }) as typeof fetch;
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(fake, { onEvent: (e) => void events.push(e) });
    const form = new FormData();
    form.set("purpose", "batch");
    const list: [string, RequestInit | undefined][] = [
      ["https://api.openai.com/v1/models", undefined],
      [OPENAI, { method: "GET" }],
      ["https://api.openai.com/v1/files", { method: "POST", body: form }],
      [OPENAI, { method: "POST", body: form }],
    ];
    for (const [u, i] of list) expect(await (await monitored(u, i)).text()).toBe("ok");
    await monitored.settled();
    expect(calls).toEqual(list.map(([u, i]) => [u, i]));
    expect(calls.every((c, n) => c[1] === list[n]![1])).toBe(true);
    expect(events).toEqual([]);
  });

  it("reads Request objects, byte bodies and stream bodies without consuming what is sent", async () => {
    const record = oneBustRecords[0]!;
    const text = JSON.stringify(record.request);
    const expected = JSON.stringify(record.response);
    const inputs: [unknown, RequestInit | undefined][] = [
      [new Request(ANTHROPIC, { method: "POST", body: text }), undefined],
      [ANTHROPIC, { method: "POST", body: new TextEncoder().encode(text) }],
      [ANTHROPIC, { method: "POST", body: new TextEncoder().encode(text).buffer }],
      [ANTHROPIC, { method: "POST", body: new Blob([text]) }],
      [new URL(ANTHROPIC), { method: "POST", body: new Response(text).body!, duplex: "half" } as RequestInit],
    ];
    for (const [input, init] of inputs) {
      const provider = fakeProvider([record]);
      const events: MonitorEvent[] = [];
      const monitored = createMonitoredFetch(provider.fetch, { onEvent: (e) => void events.push(e) });
      const res = await monitored(input as string, init);
      expect(await res.text()).toBe(expected);
      expect(provider.sent[0]!.body).toBe(text);
      await monitored.settled();
      expect(events.map((e) => e.cause)).toEqual(["first"]);
    }
  });

  it("reads an OpenAI Chat stream's usage chunk and a Gemini response, model from the URL", async () => {
    const chunks = openaiChatStream("Your order A-10293 ships today.", { prompt: 1400, cached: 1024, completion: 9 });
    const gemini = {
      candidates: [{ content: { role: "model", parts: [{ text: "Two flights." }] }, finishReason: "STOP" }],
      usageMetadata: {
        promptTokenCount: 900,
        candidatesTokenCount: 5,
        cachedContentTokenCount: 0,
        totalTokenCount: 905,
      },
    };
    const fake = (async (input: string) =>
      input.includes("openai")
        ? chunkedResponse(chunks, "text/event-stream")
        : new Response(JSON.stringify(gemini), { headers: { "content-type": "application/json" } })) as typeof fetch;
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(fake, { onEvent: (e) => void events.push(e), now: () => 0 });
    const res = await monitored(OPENAI, { method: "POST", body: JSON.stringify(openaiStreamingRequest) });
    expect(await chunksOf(res)).toEqual(chunks);
    const { model: _model, ...geminiBody } = geminiSample;
    const g = await monitored(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
      { method: "POST", body: JSON.stringify(geminiBody) },
    );
    await g.text();
    await monitored.settled();
    expect(events.map((e) => [e.format, e.model, e.threadSource, e.actual])).toEqual([
      [
        "openai-chat",
        "gpt-4.1-mini",
        "cache_key",
        { input: 1400, cacheRead: 1024, cacheWrite: 0, cacheWrite1h: 0, output: 9 },
      ],
      ["gemini", "gemini-2.5-flash", "prefix", { input: 900, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 5 }],
    ]);
  });
});

describe("createMonitoredFetch never fails the app", () => {
  const record = oneBustRecords[2]!; // an SSE response
  const body = JSON.stringify(record.request);
  const expected = responseChunks(record);

  async function survive(options: MonitorOptions, fetchFn?: typeof fetch) {
    const provider = fakeProvider([record]);
    const errors: unknown[] = [];
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(fetchFn ?? provider.fetch, {
      onEvent: (e) => void events.push(e),
      onError: (e) => void errors.push(e),
      ...options,
    });
    const res = await monitored(ANTHROPIC, { method: "POST", body });
    const chunks = await chunksOf(res);
    await monitored.settled();
    return { chunks, errors, events };
  }

  const boom = () => {
    throw new Error("boom");
  };
  const failing: [string, MonitorOptions][] = [
    ["a store whose get throws", { store: { get: boom, set: () => {} } }],
    ["a store whose set rejects", { store: { get: () => null, set: () => Promise.reject(new Error("boom")) } }],
    [
      "a store that returns garbage",
      { store: { get: () => ({ v: 1, threads: [{ id: 3 }] }), set: () => {} } as unknown as MonitorStore },
    ],
    ["a sink that throws", { onEvent: boom }],
    ["a sink that rejects", { onEvent: () => Promise.reject(new Error("boom")) }],
    ["a key function that throws", { threadKey: boom }],
    ["an error sink that throws", { onEvent: boom, onError: boom }],
    ["a clock that throws", { now: boom }],
  ];
  for (const [name, options] of failing)
    it(`keeps the response intact with ${name}`, async () => {
      const r = await survive(options);
      expect(r.chunks).toEqual(expected);
    });

  it("reports what failed and still emits what it can", async () => {
    const r = await survive({ store: { get: boom, set: boom } });
    expect(r.errors.map((e) => (e as Error).message)).toEqual(["boom", "boom"]);
    expect(r.events.map((e) => e.cause)).toEqual(["first"]);
    const garbage = await survive({
      store: { get: () => ({ v: 1, started: 1, threads: [{ id: 3 }] }), set: () => {} } as unknown as MonitorStore,
    });
    expect(garbage.events.map((e) => e.turn)).toEqual([1]);
  });

  it("passes on a malformed response and a non-JSON request body", async () => {
    const bad = (async () =>
      new Response('{"id": "msg_1", "usage": {"input_tok', {
        headers: { "content-type": "application/json" },
      })) as typeof fetch;
    const r = await survive({}, bad);
    expect(r.chunks.join("")).toBe('{"id": "msg_1", "usage": {"input_tok');
    expect(r.events.map((e) => e.actual)).toEqual([null]);

    const echo = (async (_: unknown, init?: RequestInit) => new Response(init?.body as string)) as typeof fetch;
    const errors: unknown[] = [];
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(echo, {
      onError: (e) => void errors.push(e),
      onEvent: (e) => void events.push(e),
    });
    const res = await monitored(ANTHROPIC, { method: "POST", body: "not json at all" });
    expect(await res.text()).toBe("not json at all");
    await monitored.settled();
    expect(events).toEqual([]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as { code?: string }).code).toBe("json_syntax");
  });

  it("rejects exactly as the plain fetch does when the request is aborted, and emits nothing", async () => {
    const controller = new AbortController();
    const reason = new DOMException("The operation was aborted.", "AbortError");
    const aborting = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(reason)))) as typeof fetch;
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(aborting, { onEvent: (e) => void events.push(e) });
    const p = monitored(ANTHROPIC, { method: "POST", body, signal: controller.signal });
    controller.abort();
    await expect(p).rejects.toBe(reason);
    await monitored.settled();
    expect(events).toEqual([]);
  });

  it("lets the app stop reading a stream: the cancel reaches the provider, the event says truncated", async () => {
    let cancelled = false;
    const endless = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(c) {
            c.enqueue(new TextEncoder().encode('event: ping\ndata: {"type":"ping"}\n\n'));
          },
          cancel() {
            cancelled = true;
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      )) as typeof fetch;
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(endless, { onEvent: (e) => void events.push(e) });
    const res = await monitored(ANTHROPIC, { method: "POST", body });
    const reader = res.body!.getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    await reader.cancel();
    await monitored.settled();
    expect(cancelled).toBe(true);
    expect(events.map((e) => [e.truncated, e.actual])).toEqual([[true, null]]);
  });

  it("returns error responses unread and emits nothing for them", async () => {
    const failing = (async () => new Response('{"type":"error"}', { status: 529 })) as typeof fetch;
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(failing, { onEvent: (e) => void events.push(e) });
    const res = await monitored(ANTHROPIC, { method: "POST", body });
    expect(res.status).toBe(529);
    expect(await res.text()).toBe('{"type":"error"}');
    await monitored.settled();
    expect(events).toEqual([]);
  });

  it("checks its options once, with the field named", () => {
    const f = fakeProvider().fetch;
    expect(() => createMonitoredFetch(null as never)).toThrow(/fetch: must be a fetch function/);
    expect(() => createMonitoredFetch(f, { onEvent: 3 as never })).toThrow(/options\.onEvent/);
    expect(() => createMonitoredFetch(f, { store: {} as never })).toThrow(/options\.store/);
    expect(() => createMonitoredFetch(f, { maxResponseBytes: 0 })).toThrow(/options\.maxResponseBytes/);
  });
});

describe("threads without prompt text", () => {
  const chat = (key: string | undefined, user: string, n: number) => {
    const messages: object[] = [{ role: "system", content: "You are the Northwind support assistant." }];
    for (let i = 0; i < n; i++) {
      messages.push({ role: "user", content: i === 0 ? "Where is my order?" : `Follow-up ${i}` });
      if (i < n - 1) messages.push({ role: "assistant", content: `Answer ${i}` });
    }
    return { model: "gpt-4.1-mini", messages, user, ...(key ? { prompt_cache_key: key } : {}) };
  };
  const usage = { id: "c", object: "chat.completion", choices: [], usage: { prompt_tokens: 20, completion_tokens: 2 } };
  const okFetch = (async () => new Response(JSON.stringify(usage))) as typeof fetch;

  async function run(bodies: object[], options: MonitorOptions = {}) {
    const events: MonitorEvent[] = [];
    const monitored = createMonitoredFetch(okFetch, { now: () => 1, onEvent: (e) => void events.push(e), ...options });
    for (const b of bodies) await (await monitored(OPENAI, { method: "POST", body: JSON.stringify(b) })).text();
    await monitored.settled();
    return events;
  }

  it("keeps two conversations that start alike apart by prompt_cache_key", async () => {
    const events = await run([chat("a", "u", 1), chat("b", "u", 1), chat("a", "u", 2), chat("b", "u", 2)]);
    expect(events.map((e) => [e.threadSource, e.turn, e.cause])).toEqual([
      ["cache_key", 1, "first"],
      ["cache_key", 1, "first"],
      ["cache_key", 2, "appended"],
      ["cache_key", 2, "appended"],
    ]);
    expect(events[0]!.thread).toBe(events[2]!.thread);
    expect(events[0]!.thread).not.toBe(events[1]!.thread);
  });

  it("merges them without a key (the documented failure mode), and a key function tells them apart", async () => {
    const bodies = [chat(undefined, "", 1), chat(undefined, "", 1), chat(undefined, "", 2)];
    const merged = await run(bodies);
    expect(merged.map((e) => [e.threadSource, e.turn, e.cause])).toEqual([
      ["prefix", 1, "first"],
      ["prefix", 2, "identical"],
      ["prefix", 3, "appended"],
    ]);
    let n = 0;
    const keyed = await run(bodies, { threadKey: () => ["s1", "s2", "s1"][n++] });
    expect(keyed.map((e) => [e.threadSource, e.turn, e.cause])).toEqual([
      ["key_function", 1, "first"],
      ["key_function", 1, "first"],
      ["key_function", 2, "appended"],
    ]);
    expect(keyed[0]!.thread).toBe(keyed[2]!.thread);
  });

  it("follows a user's conversations by their messages within the user's partition", async () => {
    const other = { model: "gpt-4.1-mini", user: "u1", messages: [{ role: "user", content: "A different question" }] };
    const events = await run([chat(undefined, "u1", 1), other, chat(undefined, "u1", 2)]);
    expect(events.map((e) => [e.threadSource, e.turn, e.cause])).toEqual([
      ["user", 1, "first"],
      ["user", 1, "first"],
      ["user", 2, "appended"],
    ]);
    expect(events[0]!.thread.split(".")[0]).toBe(events[1]!.thread.split(".")[0]);
    expect(events[2]!.thread).toBe(events[0]!.thread);
    // the user id itself is not in the event
    expect(JSON.stringify(events)).not.toContain('"u1"');
  });
});

describe("createMemoryStore", () => {
  it("keeps at most maxKeys partitions, least recently used first out", () => {
    const store = createMemoryStore({ maxKeys: 2 });
    const rec = (n: number) => ({ v: 1 as const, started: n, threads: [] });
    store.set("a", rec(1));
    store.set("b", rec(2));
    expect(store.get("a")?.started).toBe(1);
    store.set("c", rec(3));
    expect(store.get("b")).toBeUndefined();
    expect([store.get("a")?.started, store.get("c")?.started, store.size]).toEqual([1, 3, 2]);
    expect(() => createMemoryStore({ maxKeys: 0 })).toThrow(/maxKeys/);
  });
});
