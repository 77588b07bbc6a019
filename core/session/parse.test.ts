import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WIRE_FORMATS } from "../formats/types.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { harOf, jsonlOf, sampleSessionRecords, type SessionRecord } from "../test-support/samples-session.ts";
import { matchEndpoint } from "./endpoints.ts";
import { createSessionReader, parseSession, type SessionItem } from "./parse.ts";

const minutes = (m: number) => new Date(Date.UTC(2026, 10, 29, 8, 14) + m * 60_000).toISOString();
const conversation: SessionRecord[] = conversationTurns.map((request, i) => ({
  time: minutes(i),
  request,
  response: { type: "message", usage: { input_tokens: 4, cache_read_input_tokens: 100 * i, output_tokens: 20 } },
}));

const harEntries = (text: string) => (JSON.parse(text) as { log: { entries: Record<string, unknown>[] } }).log.entries;
const withEntries = (text: string, entries: unknown[]) => {
  const har = JSON.parse(text) as { log: { entries: unknown[] } };
  har.log.entries = entries;
  return JSON.stringify(har);
};

describe("matchEndpoint", () => {
  it.each([
    ["https://api.openai.com/v1/chat/completions", "openai-chat", null],
    ["https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2025-01-01", "openai-chat", null],
    ["https://openrouter.ai/api/v1/chat/completions", "openai-chat", null],
    ["https://api.openai.com/v1/responses", "openai-responses", null],
    ["https://api.anthropic.com/v1/messages", "anthropic", null],
    [
      "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
      "anthropic",
      "claude-sonnet-4-5@20250929",
    ],
    [
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      "gemini",
      "gemini-2.5-flash",
    ],
    [
      "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
      "bedrock-converse",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ],
  ])("reads %s as %s", (url, format, model) => {
    expect(matchEndpoint(url)).toEqual({ format, model });
  });

  it.each([
    "https://api.anthropic.com/v1/messages/count_tokens",
    "https://api.openai.com/v1/responses/resp_123",
    "https://example.com/app.js",
    "not a url at all ::",
  ])("does not read %s", (url) => {
    expect(matchEndpoint(url)).toBe(null);
  });
});

describe("parseSession: HAR", () => {
  it("reads each model request with its time and the usage of its response, JSON or SSE", () => {
    const session = parseSession(harOf(sampleSessionRecords, { others: true }));
    expect(session.kind).toBe("har");
    expect(session.records).toBe(8);
    expect(session.entries.map((e) => [e.index, e.at, e.format])).toEqual([
      [2, "log.entries[2]", "anthropic"],
      [3, "log.entries[3]", "anthropic"],
      [4, "log.entries[4]", "anthropic"],
      [5, "log.entries[5]", "anthropic"],
      [6, "log.entries[6]", "anthropic"],
      [7, "log.entries[7]", "anthropic"],
    ]);
    expect(session.entries[0]!.time).toBe(Date.parse("2026-11-29T08:14:05.120Z"));
    // the third model request was recorded as an SSE stream
    expect(session.entries[2]!.usage).toEqual({
      input: 4 + 66 + 1738,
      cacheRead: 1738,
      cacheWrite: 66,
      cacheWrite1h: 0,
      output: 48,
    });
    expect(session.skipped.map((s) => s.code)).toEqual(["not_a_provider_endpoint", "not_a_post"]);
    expect(session.skipped[0]!.message).toMatch(
      /^log\.entries\[0\]: GET https:\/\/dispatch\.brightline\.example\/app\.js is not a model endpoint/,
    );
    expect(session.problems).toEqual([]);
  });

  it("reads the same requests from the HAR, the JSONL and a JSON array of the records", () => {
    const fromHar = parseSession(harOf(conversation)).entries;
    const fromJsonl = parseSession(jsonlOf(conversation)).entries;
    const fromArray = parseSession(
      JSON.stringify(conversation.map((r) => ({ time: r.time, request: r.request }))),
    ).entries;
    expect(fromJsonl.map((e) => e.request)).toEqual(fromHar.map((e) => e.request));
    expect(fromArray.map((e) => e.request)).toEqual(fromHar.map((e) => e.request));
    expect(fromJsonl.map((e) => e.at)).toEqual(["line 1", "line 2", "line 3", "line 4"]);
    expect(fromArray.map((e) => e.time)).toEqual(fromHar.map((e) => e.time));
    expect(fromJsonl.map((e) => e.usage?.cacheRead)).toEqual([0, 100, 200, 300]);
  });

  it("decodes base64 bodies and responses", () => {
    const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
    const [entry] = harEntries(harOf(conversation.slice(0, 1))) as {
      request: { postData: Record<string, unknown> };
      response: { content: Record<string, unknown> };
    }[];
    entry!.request.postData = {
      mimeType: "application/json",
      text: b64(entry!.request.postData["text"] as string),
      encoding: "base64",
    };
    entry!.response.content = {
      ...entry!.response.content,
      text: b64(entry!.response.content["text"] as string),
      encoding: "base64",
    };
    const session = parseSession(withEntries(harOf([]), [entry]));
    expect(session.entries[0]!.request).toEqual(parseSession(harOf(conversation.slice(0, 1))).entries[0]!.request);
    expect(session.entries[0]!.usage?.output).toBe(20);
  });

  it("takes a Gemini model from the URL and its usage from a streamed chunk array", () => {
    const body = { contents: [{ role: "user", parts: [{ text: "Plan a day in Lisbon." }] }] };
    const chunks = [
      { candidates: [{ content: { parts: [{ text: "Start" }] } }], usageMetadata: { promptTokenCount: 9 } },
      { candidates: [], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 120, cachedContentTokenCount: 0 } },
    ];
    const session = parseSession({
      log: {
        entries: [
          {
            startedDateTime: "2026-11-29T10:00:00.000+01:00",
            request: {
              method: "POST",
              url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent",
              postData: { mimeType: "application/json", text: JSON.stringify(body) },
            },
            response: { status: 200, content: { mimeType: "application/json", text: JSON.stringify(chunks) } },
          },
        ],
      },
    });
    const [e] = session.entries;
    expect(e!.format).toBe("gemini");
    expect((e!.request as { model: { model: string } }).model.model).toBe("gemini-2.5-flash");
    expect(e!.time).toBe(Date.parse("2026-11-29T09:00:00.000Z"));
    expect(e!.usage).toMatchObject({ input: 9, output: 120 });
  });

  it("recognises Bedrock Converse requests and reads them once the format is supported", () => {
    const session = parseSession({
      log: {
        entries: [
          {
            request: {
              method: "POST",
              url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
              postData: { text: JSON.stringify({ messages: [{ role: "user", content: [{ text: "Hi" }] }] }) },
            },
            response: {
              status: 200,
              content: { text: JSON.stringify({ usage: { inputTokens: 8, outputTokens: 3 } }) },
            },
          },
        ],
      },
    });
    if ((WIRE_FORMATS as readonly string[]).includes("bedrock-converse")) expect(session.entries).toHaveLength(1);
    else
      expect(session.skipped.map((s) => [s.code, s.message])).toEqual([
        ["unsupported_format", expect.stringMatching(/bedrock-converse request bodies are not read yet/)],
      ]);
  });

  it("leaves out failed calls, requests without a body and bodies that are not model requests, saying why", () => {
    const [ok] = harEntries(harOf(conversation.slice(0, 1)));
    const failed = { ...ok, response: { status: 429, content: { text: '{"type":"error"}' } } };
    const noBody = { ...ok, request: { ...(ok!["request"] as object), postData: undefined } };
    const notRequest = { ...ok, request: { ...(ok!["request"] as object), postData: { text: '{"hello":"world"}' } } };
    const notJson = { ...ok, request: { ...(ok!["request"] as object), postData: { text: "{oops" } } };
    const session = parseSession(withEntries(harOf([]), [failed, noBody, notRequest, notJson, ok]));
    expect(session.entries.map((e) => e.index)).toEqual([4]);
    expect(session.skipped.map((s) => s.code)).toEqual([
      "error_response",
      "no_request_body",
      "invalid_request",
      "invalid_json",
    ]);
    expect(session.skipped[0]!.message).toMatch(/failed with HTTP 429/);
    expect(session.skipped[2]!.message).toMatch(/is not a model request/);
  });

  it("keeps the entries before the cut of a truncated HAR and says where it ends", () => {
    const text = harOf(conversation);
    const cut = text.slice(0, text.indexOf('"startedDateTime": "2026-11-29T08:16'));
    const session = parseSession(cut);
    expect(session.entries).toHaveLength(2);
    expect(session.problems).toEqual([
      {
        code: "truncated",
        message: expect.stringMatching(
          /^The HAR file ends early, inside element 2 of log\.entries \(which starts at line \d+, column 7\)/,
        ),
        line: expect.any(Number),
        column: expect.any(Number),
      },
    ]);
  });

  it("reads a HAR with no model requests as an empty session with every entry accounted for", () => {
    const others = harEntries(harOf(sampleSessionRecords.slice(0, 1), { others: true })).slice(0, 2);
    const session = parseSession(withEntries(harOf([]), others));
    expect(session.entries).toEqual([]);
    expect(session.records).toBe(2);
    expect(session.skipped).toHaveLength(2);
  });
});

describe("parseSession: JSONL and JSON", () => {
  it("reports a broken line with its number and column, and still loads the others", () => {
    const lines = jsonlOf(conversation).split("\n");
    lines[2] = '{"time":"2026-11-29T08:16:00.000Z","request":}';
    const session = parseSession(lines.join("\n"));
    expect(session.kind).toBe("jsonl");
    expect(session.entries.map((e) => e.at)).toEqual(["line 1", "line 2", "line 4"]);
    expect(session.skipped).toEqual([
      {
        index: 2,
        at: "line 3",
        code: "invalid_json",
        message: expect.stringMatching(/^line 3: invalid JSON at line 3, column 46: [a-z]/),
      },
    ]);
  });

  it("reads plain request bodies, skips lines that are not requests, and blank lines count for nothing", () => {
    const text = `${JSON.stringify(conversationTurns[0])}\n\n  \n[1,2]\n${JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "Hi" }] })}\n`;
    const session = parseSession(text);
    expect(session.entries.map((e) => [e.at, e.format, e.time])).toEqual([
      ["line 1", "anthropic", null],
      ["line 5", "openai-chat", null],
    ]);
    expect(session.skipped.map((s) => [s.at, s.code])).toEqual([["line 4", "not_a_record"]]);
  });

  it("reads a single pretty-printed request as a session of one", () => {
    const session = parseSession(JSON.stringify(conversationTurns[0], null, 2));
    expect(session.entries.map((e) => e.at)).toEqual(["(document)"]);
  });

  it("says what is wrong with input that is not a session at all", () => {
    expect(parseSession("hello").problems[0]).toMatchObject({ code: "unreadable" });
    expect(parseSession("").problems[0]).toMatchObject({ code: "unreadable", message: "The file is empty." });
    expect(parseSession('{\n "a": [1,\n').problems[0]).toMatchObject({ code: "json_syntax", line: 3 });
    expect(() => parseSession(42)).toThrow(/input: must be the text of a HAR/);
  });

  it("reads the same entries whatever the chunks a stream delivers", () => {
    const inputs = [harOf(sampleSessionRecords, { others: true }), jsonlOf(sampleSessionRecords)];
    const whole = inputs.map((text) => parseSession(text));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 }), fc.array(fc.nat(), { maxLength: 12 }), (which, rawCuts) => {
        const text = inputs[which]!;
        const cuts = [...new Set(rawCuts.map((c) => c % text.length))].sort((a, b) => a - b);
        const reader = createSessionReader();
        const items: SessionItem[] = [];
        let at = 0;
        for (const c of [...cuts, text.length]) {
          items.push(...reader.push(text.slice(at, c)));
          at = c;
        }
        items.push(...reader.end());
        expect(items.filter((i) => i.kind === "entry").map((i) => i.entry)).toEqual(whole[which]!.entries);
        expect(reader.problems).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe("createSessionReader({ bodies })", () => {
  it("keeps the recorded body of the entries asked for, with a URL's model added", () => {
    const text = harOf(sampleSessionRecords, { others: true });
    const reader = createSessionReader({ bodies: (i) => i === 3 });
    const entries = [...reader.push(text), ...reader.end()].flatMap((i) => (i.kind === "entry" ? [i.entry] : []));
    expect(entries.filter((e) => e.body !== undefined).map((e) => e.index)).toEqual([3]);
    expect(JSON.parse(entries.find((e) => e.index === 3)!.body!)).toEqual(sampleSessionRecords[1]!.request);
    const gemini = parseSession(
      JSON.stringify([
        {
          url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent",
          request: { contents: [{ role: "user", parts: [{ text: "Hi" }] }] },
        },
      ]),
    );
    expect(gemini.entries[0]!.body).toBeUndefined();
    const kept = createSessionReader({ bodies: () => true });
    const [item] = kept.push(
      JSON.stringify([
        {
          url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent",
          request: { contents: [{ role: "user", parts: [{ text: "Hi" }] }] },
        },
      ]),
    );
    expect(item?.kind === "entry" && JSON.parse(item.entry.body!).model).toBe("gemini-2.5-pro");
  });
});
