/**
 * Sessions built from the recorded conversation (samples-conversation.ts), as a browser would save
 * them (HAR 1.2) and as a proxy would log them (JSONL of `{ time, request, response }` records).
 *
 * The bundled sample interleaves two dispatcher conversations of the same assistant:
 *   t1 — the four conversation turns: 2 appends, 3 changes the system prompt's time after a
 *        6 min 38 s pause (past Anthropic's 5-minute lifetime), 4 swaps two tools;
 *   t2 — a second dispatcher who asks about a vessel 35 s after t1 started (same tools and system
 *        prompt, so its first turn reads what t1's first turn cached), then follows up.
 * The responses carry `usage` in the Messages API's shape (turn 2 of t1 as an SSE stream). Their
 * numbers are illustrative — near what Claude's tokenizer gives for these texts — not recorded.
 */
import { conversationTurns } from "./samples-conversation.ts";

export interface SessionRecord {
  /** ISO 8601 time the request was sent. */
  readonly time: string;
  readonly request: Readonly<Record<string, unknown>>;
  readonly response: unknown;
  readonly url?: string;
  /** Record the response as an SSE stream (HAR) instead of JSON. */
  readonly stream?: boolean;
}

type Usage = {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
};

/** An Anthropic Messages response with `text` and `usage`. */
export function anthropicResponse(id: string, text: string, usage: Usage) {
  return {
    id,
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5-20250929",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage,
  };
}

/** The same response as the SSE events the streaming Messages API sends. */
export function anthropicStream(response: ReturnType<typeof anthropicResponse>): string {
  const { usage, content, ...message } = response;
  const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    event("message_start", {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    }),
    event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    event("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: content[0]!.text },
    }),
    event("content_block_stop", { type: "content_block_stop", index: 0 }),
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    event("message_stop", { type: "message_stop" }),
  ].join("");
}

const ANTHROPIC_URL = "https://api.anthropic.com/v1/messages";

/** The assistant replies of the conversation (samples-conversation.ts), per turn. */
const REPLIES = [
  "**MSKU 907032 3** was discharged from *Maersk Kensington* (voyage 448W) at Rotterdam APM Terminals on **28 Nov 2026, 14:20 CET**. It is in the stack and cleared by customs.",
  "It has **2 free days left** (free time ends **1 Dec 2026, 23:59 CET**). No demurrage has accrued yet; after that the rate is **EUR 95 per day**.",
  "Collect the dispute details and open a ticket: the contract terms are checked by the billing team. I can open it now if you confirm the customer's booking reference.",
  "I opened ticket **BRL-T-58213** (priority normal) for the free-days dispute on booking **BRL-2026-11873**.",
];

/** A second dispatcher's conversation with the same assistant (tools and system prompt of turn 1). */
function otherDispatcher(turn: 1 | 2) {
  const first = conversationTurns[0];
  const question = "Is Maersk Kensington still on schedule for Hamburg this week?";
  const answer =
    "Yes: *Maersk Kensington* (voyage 448W) is due at **Hamburg Eurogate on 2 Dec 2026, 06:00 CET**, on schedule.";
  const marked = (text: string) => [{ type: "text", text, cache_control: { type: "ephemeral" } }];
  const messages =
    turn === 1
      ? [{ role: "user", content: marked(question) }]
      : [
          { role: "user", content: question },
          { role: "assistant", content: answer },
          { role: "user", content: marked("What is the documentation cut-off there?") },
        ];
  return { ...first, messages };
}

/** The bundled sample session, in the order the requests were sent. */
export const sampleSessionRecords: readonly SessionRecord[] = [
  {
    time: "2026-11-29T08:14:05.120Z",
    request: conversationTurns[0],
    response: anthropicResponse("msg_01", REPLIES[0]!, {
      input_tokens: 4,
      cache_creation_input_tokens: 1738,
      cache_read_input_tokens: 0,
      output_tokens: 61,
    }),
  },
  {
    time: "2026-11-29T08:14:40.760Z",
    request: otherDispatcher(1),
    response: anthropicResponse(
      "msg_02",
      "Yes: *Maersk Kensington* (voyage 448W) is due at **Hamburg Eurogate on 2 Dec 2026, 06:00 CET**, on schedule.",
      { input_tokens: 4, cache_creation_input_tokens: 21, cache_read_input_tokens: 1704, output_tokens: 44 },
    ),
  },
  {
    time: "2026-11-29T08:15:02.480Z",
    request: conversationTurns[1],
    stream: true,
    response: anthropicResponse("msg_03", REPLIES[1]!, {
      input_tokens: 4,
      cache_creation_input_tokens: 66,
      cache_read_input_tokens: 1738,
      output_tokens: 48,
    }),
  },
  {
    time: "2026-11-29T08:16:10.030Z",
    request: otherDispatcher(2),
    response: anthropicResponse(
      "msg_04",
      "The documentation cut-off for voyage 448W at Hamburg is **30 Nov 2026, 18:00 CET**: about 33 hours from now.",
      { input_tokens: 4, cache_creation_input_tokens: 47, cache_read_input_tokens: 1725, output_tokens: 38 },
    ),
  },
  {
    time: "2026-11-29T08:21:40.310Z",
    request: conversationTurns[2],
    response: anthropicResponse("msg_05", REPLIES[2]!, {
      input_tokens: 4,
      cache_creation_input_tokens: 1872,
      cache_read_input_tokens: 0,
      output_tokens: 39,
    }),
  },
  {
    time: "2026-11-29T08:22:31.900Z",
    request: conversationTurns[3],
    response: anthropicResponse("msg_06", REPLIES[3]!, {
      input_tokens: 4,
      cache_creation_input_tokens: 1949,
      cache_read_input_tokens: 0,
      output_tokens: 57,
    }),
  },
];

const header = (name: string, value: string) => ({ name, value });

/** One HAR 1.2 entry for a recorded model request (as Chrome writes it; no credentials). */
function harEntry(r: SessionRecord) {
  const body = JSON.stringify(r.request);
  const responseText =
    r.response === undefined
      ? ""
      : r.stream
        ? anthropicStream(r.response as ReturnType<typeof anthropicResponse>)
        : JSON.stringify(r.response);
  return {
    startedDateTime: r.time,
    time: 1840.5,
    request: {
      method: "POST",
      url: r.url ?? ANTHROPIC_URL,
      httpVersion: "HTTP/2",
      headers: [header("content-type", "application/json"), header("anthropic-version", "2023-06-01")],
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
      headers: [header("content-type", r.stream ? "text/event-stream" : "application/json")],
      cookies: [],
      content: {
        size: responseText.length,
        mimeType: r.stream ? "text/event-stream" : "application/json",
        ...(responseText === "" ? {} : { text: responseText }),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0.2, wait: 1700.1, receive: 140.2 },
  };
}

/** Requests a page makes besides the model calls: left out of the session, with their reasons. */
function otherEntries(time: string) {
  const entry = (method: string, url: string) => ({
    startedDateTime: time,
    time: 12,
    request: {
      method,
      url,
      httpVersion: "HTTP/2",
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/2",
      headers: [],
      cookies: [],
      content: { size: 0, mimeType: "text/plain" },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
  });
  return [entry("GET", "https://dispatch.brightline.example/app.js"), entry("OPTIONS", ANTHROPIC_URL)];
}

/** A HAR 1.2 file of `records` (plus, with `others`, two page requests that are not model calls). */
export function harOf(records: readonly SessionRecord[], options: { readonly others?: boolean } = {}): string {
  const entries = records.map(harEntry);
  if (options.others && records[0]) entries.unshift(...(otherEntries(records[0].time) as never[]));
  return `${JSON.stringify(
    {
      log: {
        version: "1.2",
        creator: { name: "WebInspector", version: "537.36" },
        pages: [],
        entries,
      },
    },
    null,
    2,
  )}\n`;
}

/** JSONL: one `{ time, request, response }` record per line. */
export const jsonlOf = (records: readonly SessionRecord[]): string =>
  records.map((r) => `${JSON.stringify({ time: r.time, request: r.request, response: r.response })}\n`).join("");

/** The bundled sample session's files (public/samples/sessions/). */
export const sessionSamples = [
  {
    id: "dispatch-har",
    title: "Two interleaved dispatcher conversations (HAR, with responses)",
    file: "sessions/dispatch.har",
    text: harOf(sampleSessionRecords, { others: true }),
  },
  {
    id: "dispatch-jsonl",
    title: "The same session as a request log (JSONL of { time, request, response })",
    file: "sessions/dispatch.jsonl",
    text: jsonlOf(sampleSessionRecords),
  },
] as const;
