/**
 * `createMonitoredFetch(fetch, options)`: a `fetch` that watches the prompt cache of every request
 * it sends to a provider endpoint (session/endpoints.ts), for the official SDKs (`new OpenAI({ fetch })`,
 * `new Anthropic({ fetch })`, …) or direct use.
 *
 * What the app sees does not change:
 * - the request goes out as given (the same `input` and `init`; only a `ReadableStream` body is
 *   teed, and one branch sent in its place), before the monitor reads a byte of it;
 * - the response comes back with the same status, headers and body chunks, in the same chunks, as
 *   the app pulls them: the monitor sits in the body's pull path and keeps a reference to each chunk,
 *   nothing more, so the first byte is not delayed and a cancel reaches the provider as before;
 * - a failure of the monitor (store, sink, key function, an unreadable body) goes to `onError`; the
 *   app's request and response are never touched by it. A request that is not a POST to a known
 *   endpoint, or whose body is not text or bytes (a `FormData` upload), is passed straight through.
 *
 * The analysis (parse, hash, compare, simulate, price) runs after the app has the whole response,
 * on a later task, so its cost — linear in the request size, tens of ms for a 1 MB prompt — is not
 * added to the request; in a Worker give `waitUntil` so it can finish after the response is sent.
 * Analyses of one partition run one after another in this monitor; across processes the store
 * decides (a Durable Object serializes them).
 */
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { readUsage } from "../tokens/usage.ts";
import { type Endpoint, matchEndpoint } from "../session/endpoints.ts";
import { InvalidInputError } from "../util/errors.ts";
import { advanceThread, monitorEvent, prepareTurn, type ResponseFacts } from "./analyze.ts";
import { createMemoryStore } from "./store.ts";
import type { MonitoredFetch, MonitorOptions } from "./types.ts";

type FetchInput = Parameters<typeof fetch>[0];

const MIB = 1024 * 1024;

/** What the monitor knows of a request before it is sent. */
interface Plan {
  readonly url: string;
  readonly endpoint: Endpoint;
  readonly headers: Headers;
  /** The arguments to forward: the app's own, except a teed stream body. */
  readonly input: FetchInput;
  readonly init: RequestInit | undefined;
  /** The body's text, read without consuming what is sent; null when it cannot be read or is too large. */
  readonly body: () => Promise<string | null>;
  /** Releases the monitor's copy of the body when there will be no analysis. */
  readonly discard: () => void;
  readonly ts: number;
}

interface RequestLikeInput {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  clone(): { text(): Promise<string> };
}

const isRequest = (v: unknown): v is RequestLikeInput =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as { url?: unknown }).url === "string" &&
  typeof (v as { method?: unknown }).method === "string" &&
  typeof (v as { clone?: unknown }).clone === "function";

const isStream = (v: unknown): v is ReadableStream<Uint8Array> =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as ReadableStream).getReader === "function" &&
  typeof (v as ReadableStream).tee === "function";

const isBlob = (v: unknown): v is Blob =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as Blob).text === "function" &&
  typeof (v as Blob).size === "number" &&
  typeof (v as Blob).stream === "function";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Chunks → one array. */
function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Reads a stream's text up to `max` bytes (null past it). */
async function streamText(stream: ReadableStream<Uint8Array>, max: number): Promise<string | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    total += r.value.byteLength;
    if (total > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(r.value);
  }
  return decode(joinChunks(chunks, total));
}

/** How to read the body the app gives, without consuming it; null for bodies that are not a JSON request. */
function bodyReader(
  body: unknown,
  max: number,
): { read: () => Promise<string | null>; send?: unknown; discard?: () => void } | null {
  if (typeof body === "string") return { read: async () => (body.length > max ? null : body) };
  if (body instanceof ArrayBuffer) {
    if (body.byteLength > max) return null;
    const copy = new Uint8Array(body.slice(0));
    return { read: async () => decode(copy) };
  }
  if (ArrayBuffer.isView(body)) {
    if (body.byteLength > max) return null;
    const copy = new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
    return { read: async () => decode(copy) };
  }
  if (isBlob(body)) return body.size > max ? null : { read: () => body.text() };
  if (isStream(body)) {
    const [send, mine] = body.tee();
    return { read: () => streamText(mine, max), send, discard: () => void mine.cancel().catch(() => {}) };
  }
  return null;
}

function planOf(input: FetchInput, init: RequestInit | undefined, now: () => number, max: number): Plan | null {
  const request = isRequest(input) ? input : null;
  const url = request ? request.url : input instanceof URL ? input.href : String(input);
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
  if (method !== "POST") return null;
  const endpoint = matchEndpoint(url);
  if (!endpoint || endpoint.format === "bedrock-converse") return null;
  const headers = new Headers(init?.headers ?? request?.headers ?? undefined);
  let forwardInit = init;
  let reader: ReturnType<typeof bodyReader>;
  if (init && init.body !== undefined && init.body !== null) {
    reader = bodyReader(init.body, max);
    if (reader?.send !== undefined) forwardInit = { ...init, body: reader.send as BodyInit };
  } else if (request && request.body !== null && request.body !== undefined) {
    const copy = request.clone();
    reader = { read: () => copy.text().then((t) => (t.length > max ? null : t)) };
  } else return null;
  if (!reader) return null;
  return {
    url,
    endpoint,
    headers,
    input,
    init: forwardInit,
    body: reader.read,
    discard: reader.discard ?? (() => {}),
    ts: now(),
  };
}

/** A later task (the analysis must not run inside the app's last read). */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const timer = (globalThis as { setTimeout?: (f: () => void, ms: number) => unknown }).setTimeout;
    if (typeof timer === "function") timer(resolve, 0);
    else queueMicrotask(resolve);
  });

interface Observed {
  readonly chunks: readonly Uint8Array[];
  readonly bytes: number;
  readonly truncated: boolean;
}

const NO_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * The response again, its body passed through chunk by chunk as the app pulls it; `done` gets the
 * chunks (up to `max` bytes) when the body ends, fails or is cancelled.
 */
function observe(res: Response, max: number, done: (o: Observed) => void): Response {
  if (res.body === null || NO_BODY_STATUS.has(res.status)) {
    done({ chunks: [], bytes: 0, truncated: false });
    return res;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let over = false;
  let finished = false;
  const finish = (truncated: boolean) => {
    if (finished) return;
    finished = true;
    done({ chunks: over ? [] : chunks, bytes, truncated: truncated || over });
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (error) {
          finish(true);
          controller.error(error);
          return;
        }
        if (r.done) {
          controller.close();
          finish(false);
          return;
        }
        if (!over) {
          bytes += r.value.byteLength;
          if (bytes > max) {
            over = true;
            chunks.length = 0;
          } else chunks.push(r.value);
        }
        controller.enqueue(r.value);
      },
      cancel(reason) {
        finish(true);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const out = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  // A constructed Response has no URL and says it was not redirected: keep the original's.
  for (const key of ["url", "redirected", "type"] as const) {
    try {
      Object.defineProperty(out, key, { value: res[key], enumerable: true });
    } catch {
      // a runtime whose Response objects are sealed keeps its own values
    }
  }
  return out;
}

const checkFunction = (value: unknown, field: string) => {
  if (value !== undefined && typeof value !== "function")
    throw new InvalidInputError(`options.${field}`, `must be a function (or left out), got ${typeof value}.`);
};

const checkLimit = (value: unknown, field: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidInputError(`options.${field}`, `must be a whole number of bytes ≥ 1, got ${String(value)}.`);
  return value;
};

/** Wraps `fetchFn` (see the module comment). Options are checked here, once. */
export function createMonitoredFetch(fetchFn: typeof fetch, options: MonitorOptions = {}): MonitoredFetch {
  if (typeof fetchFn !== "function")
    throw new InvalidInputError(
      "fetch",
      `must be a fetch function (globalThis.fetch or the runtime's), got ${typeof fetchFn}.`,
    );
  if (options === null || typeof options !== "object")
    throw new InvalidInputError("options", "must be an object (or left out).");
  for (const f of ["onEvent", "threadKey", "onError", "now", "waitUntil"] as const) checkFunction(options[f], f);
  const store = options.store ?? createMemoryStore();
  if (typeof store?.get !== "function" || typeof store.set !== "function")
    throw new InvalidInputError("options.store", "must have get(key) and set(key, record) methods.");
  const maxRequest = checkLimit(options.maxRequestBytes, "maxRequestBytes", 32 * MIB);
  const maxResponse = checkLimit(options.maxResponseBytes, "maxResponseBytes", 32 * MIB);
  const estimate = checkedTokenEstimator(options.tokenEstimator, "options.tokenEstimator");
  const now = options.now ?? (() => Date.now());
  const withFingerprints = options.fingerprints !== false;
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // the error sink failed too: nothing left to tell
    }
  };

  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.then(() => pending.delete(p));
    if (options.waitUntil) {
      try {
        options.waitUntil(p);
      } catch (error) {
        report(error);
      }
    }
  };
  /** Analyses of one partition, one after another (get, compare, set must not interleave). */
  const chains = new Map<string, Promise<void>>();
  const serialize = (key: string, task: () => Promise<void>): Promise<void> => {
    const run = (chains.get(key) ?? Promise.resolve()).then(task);
    const tail = run.then(
      () => {},
      () => {},
    );
    chains.set(key, tail);
    void tail.then(() => {
      if (chains.get(key) === tail) chains.delete(key);
    });
    return run;
  };

  const analyze = async (plan: Plan, status: number, stream: boolean, observed: Observed) => {
    await nextTask();
    const text = await plan.body();
    if (text === null) return;
    const prepared = prepareTurn(text, plan.endpoint, {
      url: plan.url,
      headers: plan.headers,
      threadKey: options.threadKey,
      estimate,
      onError: report,
    });
    if (!prepared) return;
    let actual: ResponseFacts["actual"] = null;
    try {
      if (observed.chunks.length > 0)
        actual = readUsage(plan.endpoint.format, decode(joinChunks(observed.chunks, observed.bytes)));
    } catch (error) {
      report(error);
    }
    await serialize(prepared.key, async () => {
      let stored: unknown = null;
      try {
        stored = await store.get(prepared.key);
      } catch (error) {
        report(error);
      }
      const advanced = advanceThread(prepared, stored, plan.ts, { estimate, rules: options.rules });
      try {
        await store.set(prepared.key, advanced.record);
      } catch (error) {
        report(error);
      }
      const event = monitorEvent(
        prepared,
        advanced,
        { status, stream, truncated: observed.truncated, actual },
        plan.ts,
        withFingerprints,
      );
      try {
        await options.onEvent?.(event);
      } catch (error) {
        report(error);
      }
    });
  };

  const monitored = (input: FetchInput, init?: RequestInit): Promise<Response> => {
    let plan: Plan | null = null;
    try {
      plan = planOf(input, init, now, maxRequest);
    } catch (error) {
      report(error);
    }
    if (plan === null) return fetchFn(input, init);
    const p = plan;
    const sent = fetchFn(p.input, p.init);
    return Promise.resolve(sent).then(
      (res) => {
        if (res.status < 200 || res.status >= 300) {
          p.discard();
          return res;
        }
        try {
          const stream = (res.headers.get("content-type") ?? "").includes("text/event-stream");
          let finished!: (o: Observed) => void;
          const observed = new Promise<Observed>((resolve) => (finished = resolve));
          const out = observe(res, maxResponse, finished);
          track(observed.then((o) => analyze(p, res.status, stream, o)).catch(report));
          return out;
        } catch (error) {
          report(error);
          return res;
        }
      },
      (error: unknown) => {
        p.discard();
        throw error;
      },
    );
  };

  const settled = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return Object.assign(monitored as typeof fetch, { settled });
}
