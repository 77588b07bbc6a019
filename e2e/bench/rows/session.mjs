// inspectSession on a HAR of 1,000 and 10,000 turns, read the way the devtools worker and the CLI
// read it (createSessionInspector, streamed in 1 MB pieces), against JSON.parse of the same text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../core-bundle.mjs";
import { measure } from "../measure.mjs";
import { formatBytes, formatCount } from "../table.mjs";
import { missing, notAvailable, ratioRow } from "./common.mjs";

const TURNS_PER_THREAD = 50;

/**
 * A HAR of `turns` turns: conversations of the recorded assistant (public/samples/conversation-turn-1.json),
 * `TURNS_PER_THREAD` turns each, interleaved; every turn appends a question and an answer, and each
 * response reports usage.
 */
export function sessionHar(turns) {
  const base = JSON.parse(readFileSync(join(root, "public/samples/conversation-turn-1.json"), "utf8"));
  const threads = Math.ceil(turns / TURNS_PER_THREAD);
  const entries = [];
  for (let t = 0; t < TURNS_PER_THREAD; t++) {
    for (let th = 0; th < threads && entries.length < turns; th++) {
      const messages = [];
      for (let i = 0; i <= t; i++) {
        messages.push({
          role: "user",
          content: `Dispatcher ${th}, question ${i}: where is container MSKU${900000 + th * 100 + i}?`,
        });
        if (i < t)
          messages.push({
            role: "assistant",
            content: `MSKU${900000 + th * 100 + i} is in the stack at Rotterdam (answer ${i}).`,
          });
      }
      const body = JSON.stringify({ ...base, messages });
      entries.push({
        startedDateTime: new Date(Date.UTC(2026, 10, 29, 8) + (t * 30 + th * 0.01) * 1000).toISOString(),
        request: {
          method: "POST",
          url: "https://api.anthropic.com/v1/messages",
          postData: { mimeType: "application/json", text: body },
        },
        response: {
          status: 200,
          content: {
            mimeType: "application/json",
            text: JSON.stringify({
              type: "message",
              usage: {
                input_tokens: 4,
                cache_read_input_tokens: t === 0 ? 0 : 1800,
                cache_creation_input_tokens: 60,
                output_tokens: 30,
              },
            }),
          },
        },
      });
    }
  }
  return JSON.stringify({ log: { version: "1.2", creator: { name: "strata-bench", version: "1" }, entries } });
}

function inspectText(core, text) {
  const inspector = core.createSessionInspector();
  const piece = 1024 * 1024;
  for (let i = 0; i < text.length; i += piece) inspector.push(text.slice(i, i + piece));
  return inspector.finish();
}

export async function run({ core, quick }) {
  const sizes = quick ? [1_000] : [1_000, 10_000];
  const absent = missing(core, ["createSessionInspector"]);
  if (absent.length > 0)
    return sizes.map((n) => notAvailable("session", "`inspectSession`", `HAR of ${formatCount(n)} turns`, absent));
  const rows = [];
  for (const turns of sizes) {
    const text = sessionHar(turns);
    const report = inspectText(core, text);
    const stats = await measure(
      { strata: () => inspectText(core, text), parse: () => JSON.parse(text) },
      quick || turns > 1_000 ? { rounds: 1, iterations: 2, warmup: 0 } : { rounds: 3, iterations: 3, warmup: 1 },
    );
    rows.push(
      ratioRow({
        group: "session",
        name: "`createSessionInspector` → `finish()` (HAR streamed in 1 MB pieces)",
        input: `HAR · ${formatBytes(text.length)} · ${formatCount(turns)} turns in ${report.threads.length} threads`,
        stats,
        subjectKey: "strata",
        baselineName: "`JSON.parse` of the file",
        baselineKey: "parse",
        goal: { max: 50, text: "≤ 50×" },
        note: `${formatCount(report.busts.length)} busts found; per turn: segment, hash, compare, simulate, price`,
        profile: turns === 1_000 ? "session-1k" : "session-10k",
      }),
    );
  }
  return rows;
}

export const profiles = {
  "session-1k": ({ core }) => {
    const text = sessionHar(1_000);
    return () => inspectText(core, text);
  },
  "session-10k": ({ core }) => {
    const text = sessionHar(10_000);
    return () => inspectText(core, text);
  },
};
