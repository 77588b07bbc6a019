/**
 * A fake provider for the monitor's tests: a `fetch` that answers each recorded request with its
 * recorded response (JSON, or SSE sent as one chunk per event), and records what it was sent.
 */
import { anthropicStream, sampleSessionRecords, type SessionRecord } from "./samples-session.ts";
import { openaiChatSample } from "./samples-wire.ts";

export interface SentRequest {
  readonly input: unknown;
  readonly init: RequestInit | undefined;
  readonly url: string;
  readonly body: string;
}

/** The body of a recorded response as the provider sends it, cut into the chunks it would arrive in. */
export function responseChunks(r: SessionRecord): string[] {
  if (!r.stream) return [JSON.stringify(r.response)];
  const text = anthropicStream(r.response as Parameters<typeof anthropicStream>[0]);
  return text.split(/(?<=\n\n)/);
}

const encoder = new TextEncoder();

/** A response whose body arrives in exactly these chunks. */
export function chunkedResponse(chunks: readonly string[], contentType: string, status = 200): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]!));
      else controller.close();
    },
  });
  return new Response(body, { status, headers: { "content-type": contentType } });
}

/**
 * A fetch answering the records' requests (matched by their JSON text) with their responses; any
 * other request gets 404. `sent` lists every call as it was made.
 */
export function fakeProvider(records: readonly SessionRecord[] = sampleSessionRecords) {
  const byBody = new Map(records.map((r) => [JSON.stringify(r.request), r]));
  const sent: SentRequest[] = [];
  const fetchFn = async (input: unknown, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const body =
      typeof init?.body === "string"
        ? init.body
        : init?.body
          ? await new Response(init.body).text()
          : input instanceof Request
            ? await input.text()
            : "";
    sent.push({ input, init, url, body });
    const r = byBody.get(body);
    if (!r) return new Response('{"error":"unknown request"}', { status: 404 });
    return chunkedResponse(responseChunks(r), r.stream ? "text/event-stream" : "application/json");
  };
  return { fetch: fetchFn as typeof fetch, sent };
}

/** The sample session without its last turn (a re-ordered tool list): one deliberate bust, a system prompt change. */
export const oneBustRecords: readonly SessionRecord[] = sampleSessionRecords.slice(0, 5);

/** A clock that gives the records' times in order, then keeps the last. */
export function recordClock(records: readonly SessionRecord[]): () => number {
  let i = 0;
  return () => Date.parse(records[Math.min(i++, records.length - 1)]!.time);
}

/**
 * Every string the requests carry that is prompt text: each string value, except the values of
 * `role`, `type` and `model` (protocol words and ids the events name on purpose).
 */
export function promptStrings(requests: readonly unknown[]): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, key: string | null) => {
    if (typeof v === "string") {
      if (key !== "role" && key !== "type" && key !== "model") out.add(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  for (const r of requests) walk(r, null);
  return [...out];
}

/** An OpenAI Chat stream with `stream_options.include_usage`: content chunks, then a usage chunk, then `[DONE]` (OpenAI API reference, streaming chat completions). */
export function openaiChatStream(text: string, usage: { prompt: number; cached: number; completion: number }) {
  const chunk = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
  const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1764403200, model: "gpt-4.1-mini" };
  return [
    chunk({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
    ...text
      .split(" ")
      .map((w) => chunk({ ...base, choices: [{ index: 0, delta: { content: `${w} ` }, finish_reason: null }] })),
    chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
    chunk({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
        prompt_tokens_details: { cached_tokens: usage.cached },
      },
    }),
    "data: [DONE]\n\n",
  ];
}

export const openaiStreamingRequest = { ...openaiChatSample, stream: true, stream_options: { include_usage: true } };
