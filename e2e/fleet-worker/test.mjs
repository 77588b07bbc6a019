// Tests e2e/fleet-worker/worker.ts as a user deploys it: built from the packed package (like the
// edge worker's test), run in workerd through Miniflare with the bindings of its wrangler.toml
// (a SQLite Durable Object, an Analytics Engine dataset), without nodejs_compat, in front of a
// fake provider on the loopback interface that answers the recorded sample session
// (public/samples/sessions/dispatch.har: JSON and SSE responses with usage).
//
//   node e2e/fleet-worker/test.mjs          (also run by e2e/runtimes/all.mjs)
//
// Every wait is bounded: the fake server, the polls for events and Miniflare stop by themselves.
import { Miniflare } from "miniflare";
import { createServer } from "node:http";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepareWorker } from "../edge-worker/test.mjs";
import { root } from "../runtimes/bundle.mjs";
import { report } from "../runtimes/report.mjs";

const require = createRequire(import.meta.url);
const workDir = join(root, "e2e/.out/fleet-worker");
const TOKEN = "test-proxy-token";
const SECRET_KEY = "sk-ant-test-secret";
/** Time between the SSE events the fake provider sends, so each arrives on its own. */
const EVENT_GAP_MS = 60;

/**
 * The wrangler.toml users deploy, read as the test needs it: top-level keys, `[vars]`, and the
 * `[[durable_objects.bindings]]` and `[[analytics_engine_datasets]]` tables (strings and arrays).
 */
export function readFleetToml() {
  const config = { vars: {}, tables: {} };
  let target = config;
  for (const raw of readFileSync(join(root, "e2e/fleet-worker/wrangler.toml"), "utf8").split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const array = /^\[\[([\w.]+)\]\]$/.exec(line);
    const table = /^\[([\w.]+)\]$/.exec(line);
    if (array) {
      target = {};
      (config.tables[array[1]] ??= []).push(target);
    } else if (table) {
      if (table[1] !== "vars") throw new Error(`wrangler.toml: [${table[1]}] is not understood by the test`);
      target = config.vars;
    } else {
      const pair = /^(\w+)\s*=\s*(".*"|\[.*\])$/.exec(line);
      if (!pair) throw new Error(`wrangler.toml: cannot read "${raw}"`);
      target[pair[1]] = JSON.parse(pair[2]);
    }
  }
  return config;
}

/** The recorded model calls of the sample session, in the order they were sent. */
function recordedCalls() {
  const har = JSON.parse(readFileSync(join(root, "public/samples/sessions/dispatch.har"), "utf8"));
  return har.log.entries
    .filter((e) => e.request.method === "POST" && e.request.postData?.text)
    .map((e) => ({
      body: e.request.postData.text,
      path: new URL(e.request.url).pathname,
      mime: e.response.content.mimeType,
      response: e.response.content.text,
    }));
}

/** The fake provider: each recorded request gets its recorded response; SSE one event at a time. */
async function startProvider(calls) {
  const byBody = new Map(calls.map((c) => [c.body, c]));
  const received = [];
  const server = createServer((req, res) => {
    const parts = [];
    req.on("data", (d) => parts.push(d));
    req.on("end", async () => {
      const body = Buffer.concat(parts);
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      const call = byBody.get(body.toString("utf8"));
      if (!call) {
        // not a recorded request: answer 200 with a body that carries no usage
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ echoed: body.length }));
        return;
      }
      res.writeHead(200, { "content-type": call.mime });
      if (call.mime !== "text/event-stream") {
        res.end(call.response);
        return;
      }
      for (const event of call.response.split(/(?<=\n\n)/)) {
        res.write(event);
        await new Promise((r) => setTimeout(r, EVENT_GAP_MS));
      }
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, received, origin: `http://127.0.0.1:${server.address().port}` };
}

/** A body's chunks as strings, as they arrive, with the time each arrived (ms). */
async function chunksOf(response) {
  const out = [];
  const decoder = new TextDecoder();
  for await (const chunk of response.body)
    out.push({ text: decoder.decode(chunk, { stream: true }), at: performance.now() });
  return out;
}

/**
 * Chunks grouped by when they arrived: a pause of more than a third of the provider's gap between
 * events starts a new group. A stream that is passed on as it comes gives one group per event; one
 * that is buffered gives fewer. (workerd hands a fetched body to JavaScript in reads of its own
 * size, so an event may come in more than one chunk; what must not happen is two events joined or
 * an event held back.)
 */
function arrivals(chunks) {
  const groups = [];
  let last = -Infinity;
  for (const c of chunks) {
    if (c.at - last > EVENT_GAP_MS / 3) groups.push("");
    groups[groups.length - 1] += c.text;
    last = c.at;
  }
  return groups;
}

function promptStrings(requests) {
  const out = new Set();
  const walk = (v, key) => {
    if (typeof v === "string") {
      if (key !== "role" && key !== "type" && key !== "model") out.add(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  for (const r of requests) walk(r, null);
  return [...out];
}

function eventStrings(v) {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(eventStrings);
  if (v && typeof v === "object") return Object.values(v).flatMap(eventStrings);
  return [];
}

const assert = (ok, message) => {
  if (!ok) throw new Error(message);
};
const same = (a, b, message) =>
  assert(
    JSON.stringify(a) === JSON.stringify(b),
    `${message}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`,
  );

/** Miniflare running the bundled worker with the wrangler.toml bindings; `broken` makes the Analytics Engine binding throw. */
function startWorker(code, toml, origin, { broken = false } = {}) {
  const objects = toml.tables["durable_objects.bindings"] ?? [];
  const datasets = toml.tables["analytics_engine_datasets"] ?? [];
  const main = {
    name: "fleet",
    modules: true,
    script: code,
    compatibilityDate: toml.compatibility_date,
    compatibilityFlags: toml.compatibility_flags ?? [],
    bindings: {
      ...toml.vars,
      UPSTREAM_ORIGINS: `${toml.vars.UPSTREAM_ORIGINS},${origin}`,
      PROXY_TOKEN: TOKEN,
      ANTHROPIC_API_KEY: SECRET_KEY,
    },
    durableObjects: Object.fromEntries(
      objects.map((o) => [
        o.name,
        {
          className: o.class_name,
          useSQLite: (toml.tables.migrations ?? []).some((m) => m.new_sqlite_classes?.includes(o.class_name)),
        },
      ]),
    ),
  };
  if (broken)
    main.wrappedBindings = Object.fromEntries(datasets.map((d) => [d.binding, { scriptName: "broken-analytics" }]));
  else main.analyticsEngineDatasets = Object.fromEntries(datasets.map((d) => [d.binding, { dataset: d.dataset }]));
  const workers = [main];
  if (broken)
    workers.push({
      name: "broken-analytics",
      modules: true,
      script:
        'export default function () { return { writeDataPoint() { throw new Error("analytics engine is down"); } }; }',
    });
  return new Miniflare({ workers, durableObjectsPersist: join(workDir, "durable-objects") });
}

/** Polls the export until it has `count` events (at most 100 polls, 50 ms apart). */
async function eventsOnceThere(mf, count) {
  for (let i = 0; i < 100; i++) {
    const res = await mf.dispatchFetch("http://fleet.test/_strata/events.jsonl", {
      headers: { "x-strata-proxy-token": TOKEN },
    });
    const text = await res.text();
    const lines = text.split("\n").filter((l) => l !== "");
    if (lines.length >= count) return { text, events: lines.map((l) => JSON.parse(l)) };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the export did not reach ${count} events in 5 s`);
}

export async function runFleetWorkerTests() {
  const { code, pkgDir } = await prepareWorker({ worker: "e2e/fleet-worker/worker.ts", dir: workDir });
  writeFileSync(join(workDir, "worker.bundle.js"), code);
  rmSync(join(workDir, "durable-objects"), { recursive: true, force: true });
  const session = await import(pathToFileURL(join(pkgDir, "dist/session/index.js")).href);
  const toml = readFleetToml();
  const calls = recordedCalls();
  // The sample's t1 turns 1-3 and t2 turns 1-2: one deliberate bust (t1 turn 3 changes the system
  // prompt); the last call (a re-ordered tool list) is sent after a restart.
  const first = calls.slice(0, 5);
  const last = calls[5];
  const provider = await startProvider(calls);
  const upstreamHost = new URL(provider.origin).host;
  const results = [];
  const test = async (name, fn) => {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  };
  const send = (mf, call, headers = {}) =>
    mf.dispatchFetch(`http://fleet.test/${upstreamHost}${call.path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
        "x-strata-proxy-token": TOKEN,
        ...headers,
      },
      body: call.body,
    });

  let mf = startWorker(code, toml, provider.origin);
  try {
    await test("health and the allow-list", async () => {
      same((await (await mf.dispatchFetch("http://fleet.test/_strata/health")).text()).trim(), "ok", "health");
      const before = provider.received.length;
      const denied = await mf.dispatchFetch("http://fleet.test/evil.example/v1/messages", {
        method: "POST",
        body: first[0].body,
      });
      same(denied.status, 403, "a host outside UPSTREAM_ORIGINS");
      await denied.text();
      same(provider.received.length, before, "requests that reached the provider");
      const wrong = await send(mf, first[0], { "x-strata-proxy-token": "guess" });
      same(wrong.status, 401, "a wrong proxy token");
      await wrong.text();
    });

    const chunked = [];
    await test("passthrough is byte-identical both ways, SSE chunk boundaries included", async () => {
      for (const call of first) {
        const before = provider.received.length;
        const res = await send(mf, call);
        same(res.status, 200, "status");
        same(res.headers.get("content-type"), call.mime, "content-type");
        const chunks = await chunksOf(res);
        same(chunks.map((c) => c.text).join(""), call.response, "response body");
        const got = provider.received[before];
        assert(got.body.equals(Buffer.from(call.body, "utf8")), "the provider got other request bytes");
        same(got.url, call.path, "upstream path");
        same(got.headers["x-api-key"], SECRET_KEY, "the key added from the secret");
        same(got.headers["x-strata-proxy-token"], undefined, "the proxy token forwarded");
        if (call.mime === "text/event-stream") chunked.push(chunks);
      }
      same(chunked.length, 1, "SSE calls in the session");
      // Each SSE event reaches the caller when the provider sends it, as it does straight from the provider.
      const direct = await fetch(`${provider.origin}${first[2].path}`, { method: "POST", body: first[2].body });
      const events = first[2].response.split(/(?<=\n\n)/);
      same(arrivals(await chunksOf(direct)), events, "SSE events straight from the provider");
      same(arrivals(chunked[0]), events, "SSE events through the worker");
      provider.received.pop();
    });

    let exported = null;
    await test("one bust, with its cause; usage read from JSON and SSE; no prompt text", async () => {
      exported = await eventsOnceThere(mf, 5);
      const { events } = exported;
      same(events.length, 5, "events");
      const threads = [...new Set(events.map((e) => e.thread))];
      same(threads.length, 2, "threads");
      const ordered = [...events].sort((a, b) => a.ts - b.ts || a.turn - b.turn);
      same(
        ordered.map((e) => [threads.indexOf(e.thread), e.turn, e.cause]).sort(),
        [
          [0, 1, "first"],
          [0, 2, "appended"],
          [0, 3, "system_changed"],
          [1, 1, "first"],
          [1, 2, "appended"],
        ].sort(),
        "turns",
      );
      const busts = events.filter((e) => e.bustsCache);
      same(
        busts.map((e) => [e.turn, e.cause]),
        [[3, "system_changed"]],
        "bust events",
      );
      const usage = new Map(first.map((c) => [c.body, session.readUsage("anthropic", c.response)]));
      for (const e of events) assert(e.actual !== null && e.cost?.basis === "actual", "an event without actual usage");
      same(
        events.map((e) => e.actual.input).sort(),
        [...usage.values()].map((u) => u.input).sort(),
        "actual input tokens",
      );
      assert(
        events.some((e) => e.stream),
        "no event says its response was a stream",
      );
      const leaves = new Set(eventStrings(events));
      const strings = promptStrings(first.map((c) => JSON.parse(c.body)));
      same(
        strings.filter((s) => leaves.has(s)),
        [],
        "request strings that are event strings",
      );
      same(
        strings.filter((s) => s.length >= 12 && exported.text.includes(s)),
        [],
        "request phrases in the events",
      );
    });

    await test("the export opens as a session: same threads and bust", async () => {
      const report = session.inspectSession(session.parseSession(exported.text));
      same(report.skipped.count, 0, "skipped events");
      same(
        report.busts.map((b) => b.cause),
        ["system_changed"],
        "session busts",
      );
      same(report.threads.map((t) => t.turns.length).sort(), [2, 3], "session threads");
    });

    await test("a monitor failure (a request body that is not JSON) leaves the response intact", async () => {
      const body = '{"model": "claude-sonnet-4-5", "messages": [';
      const res = await send(mf, { path: "/v1/messages", body });
      same(res.status, 200, "status");
      same(await res.text(), JSON.stringify({ echoed: body.length }), "body");
      const again = await eventsOnceThere(mf, 5);
      same(again.events.length, 5, "events after a request the monitor could not read");
    });
  } finally {
    await mf.dispose();
  }

  // A new workerd process on the same Durable Object storage, with an Analytics Engine binding
  // that throws: the thread goes on from the state the objects kept, and the response is intact.
  mf = startWorker(code, toml, provider.origin, { broken: true });
  try {
    await test("state survives a restart through the Durable Object; a throwing sink spares the response", async () => {
      const res = await send(mf, last);
      same(await res.text(), last.response, "response body with a throwing analytics binding");
      const { events } = await eventsOnceThere(mf, 6);
      const e = events.find((x) => x.cause === "tool_order_changed");
      assert(e, `no tool_order_changed event in ${JSON.stringify(events.map((x) => x.cause))}`);
      same(e.turn, 4, "turn number after the restart");
      same(e.thread, events.find((x) => x.cause === "system_changed").thread, "thread after the restart");
    });
  } finally {
    await mf.dispose();
    await new Promise((r) => provider.server.close(r));
  }

  const failures = results.filter((r) => !r.ok).map((r) => ({ name: `fleet worker > ${r.name}`, error: r.error }));
  return {
    runtime: "fleet-worker",
    version: `workerd ${require("workerd/package.json").version}`,
    result: {
      passed: results.length - failures.length,
      failed: failures.length,
      skipped: 0,
      failures,
      files: ["e2e/fleet-worker/worker.ts"],
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runtime, version, result } = await runFleetWorkerTests();
  report(runtime, version, result.files, result);
  if (result.failed > 0) process.exitCode = 1;
}
