/**
 * A large HAR, generated piece by piece (never held whole): `threads` agent conversations of the
 * recorded assistant (tools and system prompt of samples-conversation.ts), interleaved round-robin,
 * `turns` turns each. Each turn appends a dispatcher question and the assistant's answer; every
 * 50th turn of a thread re-stamps the system prompt's time (a bust), and turns are 20 s apart per
 * thread. With `padding` characters of tool output per turn, 50 × 200 turns make about 200 MB.
 */
import { conversationTurns } from "./samples-conversation.ts";

export interface LargeHarOptions {
  readonly threads: number;
  readonly turns: number;
  /** Characters of tool output added to each turn's user message. */
  readonly padding: number;
}

const START = Date.UTC(2026, 10, 29, 8, 0);
const LOREM =
  "Gate-in at APM Terminals Maasvlakte II; discharged from Maersk Kensington 448W; customs documentary check cleared; reefer plugged at 5.0 C; ";

function requestFor(thread: number, turn: number, padding: number) {
  const base = conversationTurns[0];
  const stamp = Math.floor(turn / 50);
  const system = base.system.map((b) => ({
    ...b,
    text: b.text.replace("09:14", `${String(9 + (stamp % 10)).padStart(2, "0")}:${String(10 + thread).slice(-2)}`),
  }));
  const messages: object[] = [];
  for (let i = 0; i <= turn; i++) {
    const pad = LOREM.repeat(Math.ceil(padding / LOREM.length)).slice(0, padding);
    messages.push({
      role: "user",
      content: `Dispatcher ${thread}, question ${i}: status of container MSKU${900000 + thread * 1000 + i}? Tool output: ${pad}`,
    });
    if (i < turn)
      messages.push({
        role: "assistant",
        content: `Container MSKU${900000 + thread * 1000 + i} is in the stack (answer ${i}).`,
      });
  }
  return { ...base, system, messages };
}

const usage = (turn: number) => ({
  type: "message",
  usage: {
    input_tokens: 4,
    cache_creation_input_tokens: 200,
    cache_read_input_tokens: turn === 0 ? 0 : 1500,
    output_tokens: 30,
  },
});

/** One entry's JSON text (as an element of `log.entries`). */
function entryText(thread: number, turn: number, padding: number): string {
  const body = JSON.stringify(requestFor(thread, turn, padding));
  return JSON.stringify({
    startedDateTime: new Date(START + (turn * 20 + thread * 0.1) * 1000).toISOString(),
    time: 900,
    request: {
      method: "POST",
      url: "https://api.anthropic.com/v1/messages",
      httpVersion: "HTTP/2",
      headers: [{ name: "content-type", value: "application/json" }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: body.length,
      postData: { mimeType: "application/json", text: body },
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/2",
      headers: [],
      cookies: [],
      content: { size: 200, mimeType: "application/json", text: JSON.stringify(usage(turn)) },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 850, receive: 50 },
  });
}

/** The HAR's text in pieces, entry by entry; `sizes` receives each entry's length. */
export function* largeHar(options: LargeHarOptions, sizes?: number[]): Generator<string> {
  yield '{"log":{"version":"1.2","creator":{"name":"strata-test","version":"1"},"pages":[],"entries":[\n';
  let first = true;
  for (let turn = 0; turn < options.turns; turn++) {
    for (let thread = 0; thread < options.threads; thread++) {
      const text = entryText(thread, turn, options.padding);
      sizes?.push(text.length);
      yield first ? text : `,\n${text}`;
      first = false;
    }
  }
  yield "\n]}}\n";
}
