/**
 * Strata's cache monitor for a fleet, as a Cloudflare Worker: a proxy in front of the model
 * providers that passes every call through untouched and, after the response has gone back,
 * records one hash-only cache event per call (thread, turn, cause, bust, predicted vs actual
 * usage, cost) — no prompt text anywhere.
 *
 *   POST /<upstream host>/<path>      → proxied to https://<upstream host>/<path> (allow-listed)
 *   GET  /_strata/events.jsonl        → the recent events of every thread, as JSONL (the devtools'
 *                                       Session view opens it)
 *   GET  /_strata/health              → 200 "ok"
 *
 * Point an SDK at it: `new OpenAI({ baseURL: "https://<worker>/api.openai.com/v1" })`,
 * `new Anthropic({ baseURL: "https://<worker>/api.anthropic.com" })`.
 *
 * State: one Durable Object per thread partition (`ThreadStore`, named by the partition's 16 hex
 * digits) holds the partition's threads between requests — consistent across the fleet without a
 * central server — and its last `MAX_EVENTS_PER_THREAD` events. One more object, `index`, lists
 * the partitions seen, for the export. Events also go to a Workers Analytics Engine dataset
 * (`EVENTS`, one data point per event) and to a Queue (`EVENT_QUEUE`, the event as JSON) when bound.
 *
 * Keys: a caller may send its own provider key (passed through). With `PROXY_TOKEN` set, a caller
 * that sends `x-strata-proxy-token: <token>` and no key of its own gets the key from the secret
 * for that provider (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`); without
 * `PROXY_TOKEN`, secrets are never used (the proxy would be an open relay for your key).
 */
import { createMonitoredFetch } from "prompt-strata/monitor";
import type { MonitorEvent, MonitorStore, PartitionRecord } from "prompt-strata/monitor";
import { matchEndpoint } from "prompt-strata/session";

/** The parts of the Workers runtime API this worker uses (so it type-checks without extra type packages). */
interface DurableObjectId {
  toString(): string;
}
interface DurableObjectStub {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}
interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub;
}
interface DurableObjectStorage {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
}
interface DurableObjectState {
  readonly storage: DurableObjectStorage;
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}
interface AnalyticsEngineDataset {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}
interface Queue {
  send(message: unknown): Promise<void>;
}
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

export interface Env {
  readonly THREADS: DurableObjectNamespace;
  readonly EVENTS?: AnalyticsEngineDataset;
  readonly EVENT_QUEUE?: Queue;
  /** Comma-separated origins calls may go to (`https://api.openai.com,…`). */
  readonly UPSTREAM_ORIGINS: string;
  /** Events each partition keeps for the export (a decimal string). Default 1000. */
  readonly MAX_EVENTS_PER_THREAD?: string;
  readonly PROXY_TOKEN?: string;
  readonly OPENAI_API_KEY?: string;
  readonly ANTHROPIC_API_KEY?: string;
  readonly GEMINI_API_KEY?: string;
}

/** Request headers that describe the hop to this worker, not the call. */
const HOP_HEADERS = [
  "host",
  "x-strata-proxy-token",
  "cf-connecting-ip",
  "cf-ipcountry",
  "cf-ray",
  "cf-visitor",
  "x-forwarded-for",
  "x-real-ip",
];

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

/** The allow-listed origin for `/<host>/…`, or null. */
function upstreamOf(url: URL, env: Env): { origin: string; path: string } | null {
  const m = /^\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (!m) return null;
  const host = m[1]!.toLowerCase();
  for (const raw of env.UPSTREAM_ORIGINS.split(",")) {
    const origin = raw.trim().replace(/\/+$/, "");
    if (origin === "") continue;
    try {
      if (new URL(origin).host.toLowerCase() === host) return { origin, path: `${m[2] ?? "/"}${url.search}` };
    } catch {
      // a malformed entry allows nothing
    }
  }
  return null;
}

/**
 * The secret key header for the provider a call goes to (told by its endpoint path, so gateways and
 * regional hosts work too), when the caller sent no key of its own.
 */
function injectedKey(url: string, headers: Headers, env: Env): [string, string] | null {
  if (headers.has("authorization") || headers.has("x-api-key") || headers.has("x-goog-api-key")) return null;
  const format = matchEndpoint(url)?.format;
  if ((format === "openai-chat" || format === "openai-responses") && env.OPENAI_API_KEY)
    return ["authorization", `Bearer ${env.OPENAI_API_KEY}`];
  if (format === "anthropic" && env.ANTHROPIC_API_KEY) return ["x-api-key", env.ANTHROPIC_API_KEY];
  if (format === "gemini" && env.GEMINI_API_KEY) return ["x-goog-api-key", env.GEMINI_API_KEY];
  return null;
}

const stubFor = (env: Env, name: string) => env.THREADS.get(env.THREADS.idFromName(name));
/** Store keys are `strata:<32 hex>`; the object is named by the first 16, as thread ids are. */
const partitionOf = (key: string) => key.slice(7, 23);

/** The monitor's store, one Durable Object per partition. */
function durableStore(env: Env): MonitorStore {
  return {
    async get(key) {
      const res = await stubFor(env, partitionOf(key)).fetch("https://thread/record");
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`thread store answered ${res.status}`);
      return (await res.json()) as PartitionRecord;
    },
    async set(key, record) {
      const res = await stubFor(env, partitionOf(key)).fetch("https://thread/record", {
        method: "PUT",
        body: JSON.stringify(record),
      });
      if (!res.ok) throw new Error(`thread store answered ${res.status}`);
    },
  };
}

/** Writes one event everywhere it goes; each destination on its own, so one failing spares the others. */
async function sink(event: MonitorEvent, env: Env): Promise<void> {
  const partition = event.thread.split(".")[0]!;
  const writes: Promise<unknown>[] = [];
  const stub = stubFor(env, partition);
  writes.push(
    stub.fetch("https://thread/events", { method: "POST", body: JSON.stringify(event) }).then((res) => {
      if (!res.ok) throw new Error(`thread store answered ${res.status}`);
      if (res.headers.get("x-new-partition") === "1")
        return stubFor(env, "index").fetch("https://index/partitions", { method: "POST", body: partition });
      return undefined;
    }),
  );
  if (env.EVENT_QUEUE) {
    // Queue messages hold up to 128 KB: a long conversation's fingerprint is left out rather than the event.
    const { fingerprint: _fingerprint, ...bare } = event;
    const message = JSON.stringify(event).length < 120_000 ? event : bare;
    writes.push(env.EVENT_QUEUE.send(message));
  }
  if (env.EVENTS) {
    const dataset = env.EVENTS;
    writes.push(
      (async () =>
        dataset.writeDataPoint({
          indexes: [partition],
          blobs: [event.thread, event.cause, event.provider, event.model, event.format, event.threadSource],
          doubles: [
            event.ts,
            event.turn,
            event.bustsCache ? 1 : 0,
            event.predicted.input,
            event.predicted.cacheRead,
            event.actual?.input ?? -1,
            event.actual?.cacheRead ?? -1,
            event.actual?.cacheWrite ?? -1,
            event.actual?.output ?? -1,
            event.cost?.total ?? -1,
          ],
        }))(),
    );
  }
  const results = await Promise.allSettled(writes);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/** Every partition's events, oldest first within each, as JSONL. */
async function exportEvents(env: Env): Promise<Response> {
  const list = await stubFor(env, "index").fetch("https://index/partitions");
  const partitions = list.ok ? ((await list.json()) as string[]) : [];
  const parts: string[] = [];
  for (const p of partitions) {
    const res = await stubFor(env, p).fetch("https://thread/events");
    if (res.ok) parts.push(await res.text());
  }
  return new Response(parts.join(""), {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    const token = request.headers.get("x-strata-proxy-token");
    const authorized = env.PROXY_TOKEN !== undefined && env.PROXY_TOKEN !== "" && token === env.PROXY_TOKEN;
    if (env.PROXY_TOKEN && token !== null && !authorized) return text(401, "wrong x-strata-proxy-token\n");
    if (url.pathname === "/_strata/health") return text(200, "ok\n");
    if (url.pathname === "/_strata/events.jsonl") {
      if (env.PROXY_TOKEN && !authorized) return text(401, "send x-strata-proxy-token to export events\n");
      return exportEvents(env);
    }
    const upstream = upstreamOf(url, env);
    if (!upstream) return text(403, "not an allowed upstream: call /<host>/<path> with a host in UPSTREAM_ORIGINS\n");
    const headers = new Headers(request.headers);
    for (const h of HOP_HEADERS) headers.delete(h);
    const target = `${upstream.origin}${upstream.path}`;
    const key = authorized ? injectedKey(target, headers, env) : null;
    if (key) headers.set(key[0], key[1]);

    const monitored = createMonitoredFetch(fetch, {
      store: durableStore(env),
      onEvent: (event) => sink(event, env),
      onError: (error) => console.error(`strata monitor: ${error instanceof Error ? error.message : String(error)}`),
      waitUntil: (p) => ctx.waitUntil(p),
    });
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    return monitored(target, {
      method: request.method,
      headers,
      body: hasBody ? request.body : null,
      redirect: "manual",
    });
  },
};

/**
 * One partition's threads and recent events (or, named `index`, the list of partitions). Requests
 * to one object run one at a time, so a partition's get and set from one monitor cannot interleave
 * with another's write.
 */
export class ThreadStore {
  private readonly state: DurableObjectState;
  private readonly maxEvents: number;

  constructor(state: DurableObjectState, env: Env) {
    this.state = state;
    const n = Number(env.MAX_EVENTS_PER_THREAD ?? "1000");
    this.maxEvents = Number.isSafeInteger(n) && n > 0 ? n : 1000;
  }

  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const storage = this.state.storage;
    if (pathname === "/record") {
      if (request.method === "PUT") {
        await storage.put("record", await request.text());
        return new Response(null, { status: 204 });
      }
      const record = await storage.get<string>("record");
      return record === undefined ? new Response(null, { status: 404 }) : new Response(record);
    }
    if (pathname === "/events") {
      // One key per event (`e:<sequence>`, zero-padded so keys sort in order), the oldest dropped past the cap.
      if (request.method === "POST") {
        const seq = ((await storage.get<number>("seq")) ?? 0) + 1;
        await storage.put(`e:${String(seq).padStart(12, "0")}`, await request.text());
        await storage.put("seq", seq);
        if (seq > this.maxEvents) await storage.delete(`e:${String(seq - this.maxEvents).padStart(12, "0")}`);
        return new Response(null, { status: 204, headers: { "x-new-partition": seq === 1 ? "1" : "0" } });
      }
      const events = await storage.list<string>({ prefix: "e:" });
      return new Response([...events.values()].map((e) => `${e}\n`).join(""), {
        headers: { "content-type": "application/x-ndjson" },
      });
    }
    if (pathname === "/partitions") {
      const list = (await storage.get<string[]>("partitions")) ?? [];
      if (request.method === "POST") {
        const p = await request.text();
        if (/^[0-9a-f]{16}$/.test(p) && !list.includes(p)) {
          list.push(p);
          // the export lists the 10,000 most recently started partitions
          if (list.length > 10_000) list.splice(0, list.length - 10_000);
          await storage.put("partitions", list);
        }
        return new Response(null, { status: 204 });
      }
      return Response.json(list);
    }
    return new Response(null, { status: 404 });
  }
}
