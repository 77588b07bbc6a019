// createMonitoredFetch against the plain fetch, both calling a fake provider on 127.0.0.1: the
// latency a request gains (time to the last byte of the response, p50 and p99 over paired
// requests), the time to the first byte of a streamed response (unchanged if the monitor does not
// buffer), and the monitor's own work per request (parse, hash, compare, simulate, price), which
// runs after the response is delivered and is waited for outside the timed part.
import { createServer } from "node:http";
import { formatBytes, formatMs } from "../table.mjs";
import { missing, notAvailable } from "./common.mjs";

/** Milliseconds between a streamed response's first event and the rest (so the first byte is measured alone). */
const STREAM_PAUSE_MS = 20;

/** An OpenAI Chat request of about `bytes` bytes: a support conversation repeated until it is that long. */
function chatRequest(bytes) {
  const messages = [{ role: "system", content: "You are the Northwind support assistant. Answer briefly." }];
  for (let i = 0; JSON.stringify(messages).length < bytes; i++)
    messages.push(
      { role: "user", content: `Order A-${10_000 + i}: where is it? ${"The parcel was due on Monday. ".repeat(8)}` },
      {
        role: "assistant",
        content: `Order A-${10_000 + i} left the depot today. ${"Tracking shows it in transit. ".repeat(6)}`,
      },
    );
  return JSON.stringify({ model: "gpt-4.1-mini", stream: true, stream_options: { include_usage: true }, messages });
}

/** The fake provider: an OpenAI Chat stream, first event at once, usage after a pause. */
async function startServer() {
  const chunk = (data) => `data: ${JSON.stringify(data)}\n\n`;
  const base = { id: "chatcmpl-b", object: "chat.completion.chunk", created: 1764403200, model: "gpt-4.1-mini" };
  const head = chunk({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "It ships today." } }] });
  const tail =
    chunk({
      ...base,
      choices: [],
      usage: { prompt_tokens: 2500, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 2048 } },
    }) + "data: [DONE]\n\n";
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(head);
      setTimeout(() => res.end(tail), STREAM_PAUSE_MS);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/v1/chat/completions` };
}

/** One request: ms to the first body byte and to the last. */
async function timed(fetchFn, url, body) {
  const t0 = performance.now();
  const res = await fetchFn(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const reader = res.body.getReader();
  let first = null;
  for (;;) {
    const r = await reader.read();
    if (first === null) first = performance.now() - t0;
    if (r.done) break;
  }
  return { first, total: performance.now() - t0 };
}

/** A latency difference with its sign (a negative one is noise: the monitor cannot make a request faster). */
const signed = (ms) => `${ms < 0 ? "−" : "+"}${formatMs(Math.abs(ms))}`;

const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export async function run({ core, quick }) {
  const sizes = [10 * 1024, 1024 * 1024];
  const absent = missing(core, ["createMonitoredFetch"]);
  if (absent.length > 0)
    return sizes.map((n) => notAvailable("monitor", "`createMonitoredFetch`", `${formatBytes(n)} request`, absent));
  const { server, url } = await startServer();
  const rows = [];
  try {
    for (const size of sizes) {
      const body = chatRequest(size);
      let events = 0;
      const monitored = core.createMonitoredFetch(fetch, { onEvent: () => void events++ });
      const pairs = size > 100_000 ? (quick ? 20 : 60) : quick ? 60 : 200;
      const plain = [];
      const watched = [];
      const analysis = [];
      for (let i = 0; i < pairs + 5; i++) {
        // Alternate which goes first, so drift and warm-up hit both sides; the monitor's analysis is
        // waited for (and timed) before the next request, so it never runs during a measured one.
        let m = null;
        let work = 0;
        const watch = async () => {
          m = await timed(monitored, url, body);
          const t0 = performance.now();
          await monitored.settled();
          work = performance.now() - t0;
        };
        if (i % 2 === 1) await watch();
        const b = await timed(fetch, url, body);
        if (i % 2 === 0) await watch();
        if (i < 5) continue; // warm-up
        plain.push(b);
        watched.push(m);
        analysis.push(work);
      }
      if (events !== pairs + 5) throw new Error(`monitor: ${events} events for ${pairs + 5} requests`);
      const p = (list, key, q) =>
        percentile(
          list.map((x) => x[key]),
          q,
        );
      const added50 = p(watched, "total", 50) - p(plain, "total", 50);
      const added99 = p(watched, "total", 99) - p(plain, "total", 99);
      const stats = (list) => ({
        min: Math.min(...list.map((x) => x.total)),
        median: p(list, "total", 50),
        max: Math.max(...list.map((x) => x.total)),
      });
      const fmt = (s) => `${formatMs(s.min)} / **${formatMs(s.median)}** / ${formatMs(s.max)}`;
      rows.push({
        group: "monitor",
        name: "`createMonitoredFetch` vs plain `fetch` (time to the last byte)",
        input: `${formatBytes(body.length)} request, SSE response, ${pairs} pairs`,
        subject: fmt(stats(watched)),
        baselineName: "plain `fetch`",
        baseline: fmt(stats(plain)),
        ratioText: `${signed(added50)} p50, ${signed(added99)} p99`,
        goal: { max: 2, text: "≤ +2 ms p50" },
        verdict: added50 <= 2 ? "met" : `**missed** (${signed(added50)})`,
        note:
          `${formatBytes(body.length)}: first byte p50 ${formatMs(p(watched, "first", 50))} monitored vs ` +
          `${formatMs(p(plain, "first", 50))} plain (the rest of the stream comes ${STREAM_PAUSE_MS} ms later); ` +
          `the analysis after each response takes ${formatMs(percentile(analysis, 50))} p50, ${formatMs(percentile(analysis, 99))} p99 ` +
          "(off the request's path: it runs on a later task, and in a Worker under waitUntil)",
      });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return rows;
}

export const profiles = {};
