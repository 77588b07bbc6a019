import { describe, expect, it } from "vitest";
import { eventStreamEvents, readUsage, sseEvents } from "./usage.ts";

// Response shapes as the providers' API references document them (read 2026-12-01).
const openAIChatResponse = {
  id: "chatcmpl-1",
  object: "chat.completion",
  model: "gpt-4.1",
  choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }],
  usage: {
    prompt_tokens: 2006,
    completion_tokens: 300,
    total_tokens: 2306,
    prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  },
};

const anthropicResponse = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "Hi" }],
  stop_reason: "end_turn",
  usage: {
    input_tokens: 21,
    cache_creation_input_tokens: 188,
    cache_read_input_tokens: 1800,
    output_tokens: 393,
    cache_creation: { ephemeral_5m_input_tokens: 88, ephemeral_1h_input_tokens: 100 },
  },
};

const sse = (events: readonly { event?: string; data: unknown }[]) =>
  events
    .map(
      (e) =>
        `${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`,
    )
    .join("");

describe("readUsage", () => {
  it("reads OpenAI Chat usage, whose prompt_tokens already include the cached tokens", () => {
    expect(readUsage("openai-chat", openAIChatResponse)).toEqual({
      input: 2006,
      cacheRead: 1920,
      cacheWrite: 0,
      cacheWrite1h: 0,
      output: 300,
    });
  });

  it("reads the usage of an OpenAI Chat stream from its last chunk", () => {
    const chunk = (content: string) => ({
      object: "chat.completion.chunk",
      choices: [{ delta: { content } }],
      usage: null,
    });
    const text = sse([
      { data: chunk("Hel") },
      { data: chunk("lo") },
      { data: { object: "chat.completion.chunk", choices: [], usage: openAIChatResponse.usage } },
      { data: "[DONE]" },
    ]);
    expect(readUsage("openai-chat", text)).toMatchObject({ input: 2006, cacheRead: 1920, output: 300 });
  });

  it("says null for a chat stream sent without include_usage", () => {
    expect(
      readUsage("openai-chat", sse([{ data: { choices: [{ delta: { content: "x" } }] } }, { data: "[DONE]" }])),
    ).toBe(null);
  });

  it("reads OpenAI Responses usage from the response and from the response.completed event", () => {
    const u = {
      input_tokens: 5000,
      input_tokens_details: { cached_tokens: 4096, cache_write_tokens: 904 },
      output_tokens: 120,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: 5120,
    };
    const expected = { input: 5000, cacheRead: 4096, cacheWrite: 904, cacheWrite1h: 0, output: 120 };
    expect(readUsage("openai-responses", { object: "response", usage: u })).toEqual(expected);
    const stream = sse([
      { event: "response.created", data: { type: "response.created", response: { usage: null } } },
      { event: "response.output_text.delta", data: { type: "response.output_text.delta", delta: "x" } },
      { event: "response.completed", data: { type: "response.completed", response: { usage: u } } },
    ]);
    expect(readUsage("openai-responses", stream)).toEqual(expected);
  });

  it("adds Anthropic's cache reads and writes to input_tokens, which excludes them", () => {
    expect(readUsage("anthropic", anthropicResponse)).toEqual({
      input: 21 + 188 + 1800,
      cacheRead: 1800,
      cacheWrite: 188,
      cacheWrite1h: 100,
      output: 393,
    });
  });

  it("reassembles Anthropic stream usage from message_start and the cumulative message_delta", () => {
    const text = sse([
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "msg_1",
            usage: {
              input_tokens: 21,
              cache_creation_input_tokens: 188,
              cache_read_input_tokens: 1800,
              output_tokens: 1,
            },
          },
        },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", delta: { type: "text_delta", text: "Hi" } },
      },
      {
        event: "message_delta",
        data: { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 15 } },
      },
      { event: "message_delta", data: { type: "message_delta", delta: {}, usage: { output_tokens: 393 } } },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
    expect(readUsage("anthropic", text)).toEqual({
      input: 2009,
      cacheRead: 1800,
      cacheWrite: 188,
      cacheWrite1h: 0,
      output: 393,
    });
  });

  it("reads Gemini usageMetadata, whose promptTokenCount includes the cached tokens, from JSON, a chunk array and SSE", () => {
    const meta = {
      promptTokenCount: 3120,
      cachedContentTokenCount: 2048,
      candidatesTokenCount: 80,
      thoughtsTokenCount: 40,
      totalTokenCount: 3240,
    };
    const expected = { input: 3120, cacheRead: 2048, cacheWrite: 0, cacheWrite1h: 0, output: 120 };
    expect(readUsage("gemini", { candidates: [], usageMetadata: meta })).toEqual(expected);
    const chunks = [
      { candidates: [], usageMetadata: { promptTokenCount: 3120 } },
      { candidates: [], usageMetadata: meta },
    ];
    expect(readUsage("gemini", JSON.stringify(chunks))).toEqual(expected);
    expect(readUsage("gemini", sse(chunks.map((data) => ({ data }))))).toEqual(expected);
  });

  it("adds Bedrock's cache reads and writes to inputTokens, in both spellings", () => {
    const expected = { input: 1100, cacheRead: 800, cacheWrite: 200, cacheWrite1h: 0, output: 50 };
    expect(
      readUsage("bedrock-converse", {
        output: {},
        usage: {
          inputTokens: 100,
          outputTokens: 50,
          totalTokens: 1150,
          cacheReadInputTokens: 800,
          cacheWriteInputTokens: 200,
        },
      }),
    ).toEqual(expected);
    expect(
      readUsage("bedrock-converse", {
        inputTokens: 100,
        outputTokens: 50,
        cacheReadInputTokenCount: 800,
        cacheWriteInputTokenCount: 200,
      }),
    ).toEqual(expected);
  });

  it("reads the metadata event of a Bedrock ConverseStream event stream (binary frames)", () => {
    const bytes = concat(
      frame("messageStart", { role: "assistant" }),
      frame("contentBlockDelta", { delta: { text: "Hi" }, contentBlockIndex: 0 }),
      frame("metadata", {
        usage: { inputTokens: 10, outputTokens: 3, cacheReadInputTokens: 1024 },
        metrics: { latencyMs: 80 },
      }),
    );
    expect(eventStreamEvents(bytes)).toHaveLength(3);
    expect(readUsage("bedrock-converse", bytes)).toEqual({
      input: 1034,
      cacheRead: 1024,
      cacheWrite: 0,
      cacheWrite1h: 0,
      output: 3,
    });
  });

  it("reads a bare usage object", () => {
    expect(readUsage("anthropic", anthropicResponse.usage)?.input).toBe(2009);
    expect(readUsage("openai-chat", openAIChatResponse.usage)?.cacheRead).toBe(1920);
  });

  it("says null when there is no usage: an error body, a cut-off stream, or not JSON at all", () => {
    expect(readUsage("anthropic", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toBe(
      null,
    );
    expect(readUsage("anthropic", 'event: message_start\ndata: {"type":"message_start","mess')).toBe(null);
    expect(readUsage("gemini", "<html>502 Bad Gateway</html>")).toBe(null);
    expect(readUsage("openai-chat", { usage: { prompt_tokens: "many" } })).toBe(null);
  });

  it("refuses an unknown format", () => {
    expect(() => readUsage("cohere" as never, {})).toThrow(/format: must be one of/);
  });
});

describe("sseEvents", () => {
  it("joins multi-line data, accepts CRLF and skips comments and [DONE]", () => {
    expect(sseEvents(': keep-alive\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: [DONE]\r\n\r\n')).toEqual([{ a: 1 }]);
  });
});

const encoder = new TextEncoder();

/** One AWS event-stream frame with `:event-type`, `:content-type` and `:message-type` headers (CRCs left zero). */
function frame(eventType: string, payload: unknown): Uint8Array {
  const header = (name: string, value: string) => {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    return concat(Uint8Array.of(n.length), n, Uint8Array.of(7, v.length >> 8, v.length & 0xff), v);
  };
  const headers = concat(
    header(":event-type", eventType),
    header(":content-type", "application/json"),
    header(":message-type", "event"),
  );
  const body = encoder.encode(JSON.stringify(payload));
  const total = 12 + headers.length + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headers.length);
  out.set(headers, 12);
  out.set(body, 12 + headers.length);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
