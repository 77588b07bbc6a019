import { describe, expect, it } from "vitest";
import type { NormalizedRequest, WireFormat } from "../formats/types.ts";
import { parseRequest } from "../request/parse-request.ts";
import {
  anthropicSample,
  geminiSample,
  openaiChatSample,
  openaiResponsesSample,
} from "../test-support/samples-wire.ts";
import { historyIssues } from "./history.ts";
import { providerHistoryIssues, validateProviderHistory } from "./provider-history.ts";

function issuesOf(body: unknown) {
  const parsed = parseRequest(body);
  if (parsed.format === "strata") throw new Error("expected a wire request");
  const messages = (parsed.request as NormalizedRequest).messages;
  return { format: parsed.format, messages, issues: providerHistoryIssues(messages, parsed.format) };
}
const codes = (body: unknown) => issuesOf(body).issues.map((i) => `${i.index} ${i.code}`);

const anthropicResultAndText = {
  model: "claude-sonnet-4-5",
  max_tokens: 256,
  messages: [
    { role: "user", content: "Weather in Oslo?" },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Oslo" } }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "4°C, light rain" },
        { type: "text", text: "Should I take an umbrella?" },
      ],
    },
  ],
};

const chatImageAfterTools = {
  model: "gpt-4.1",
  messages: [
    { role: "user", content: "What's on my calendar?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "calendar", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_1", content: '{"events":["dentist 14:00"]}' },
    {
      role: "user",
      content: [
        { type: "image_url", image_url: { url: "https://example.com/map.png" } },
        { type: "text", text: "How do I get there?" },
      ],
    },
  ],
};

describe("providerHistoryIssues: what each provider accepts", () => {
  it("accepts an Anthropic user message holding [tool_result, text] (Strata's pipeline rules would flag it)", () => {
    const { messages, issues } = issuesOf(anthropicResultAndText);
    expect(issues).toEqual([]);
    expect(historyIssues(messages).map((i) => i.code)).toEqual(["tool_call_without_response"]);
  });

  it("accepts an OpenAI Chat user message with an image right after the tool messages", () => {
    const { messages, issues } = issuesOf(chatImageAfterTools);
    expect(issues).toEqual([]);
    expect(historyIssues(messages).map((i) => i.code)).toEqual(["non_assistant_after_tool_response"]);
  });

  it.each([
    ["openai-chat", openaiChatSample],
    ["openai-responses", openaiResponsesSample],
    ["anthropic", anthropicSample],
    ["gemini", geminiSample],
  ] as const)("accepts the %s sample", (_f, body) => {
    expect(issuesOf(body).issues).toEqual([]);
  });

  it("flags Anthropic text ahead of the tool result it answers with", () => {
    const body = structuredClone(anthropicResultAndText);
    body.messages[2]!.content = [
      { type: "text", text: "Should I take an umbrella?" },
      { type: "tool_result", tool_use_id: "toolu_1", content: "4°C" },
    ] as never;
    expect(codes(body)).toEqual(["2 tool_result_not_first"]);
  });

  it("flags an Anthropic tool call answered two messages later", () => {
    const body = structuredClone(anthropicResultAndText);
    body.messages.splice(2, 0, { role: "user", content: "Hello?" });
    expect(codes(body)).toEqual(["1 tool_call_without_response", "3 orphan_tool_response"]);
  });

  it("flags an OpenAI Chat call with no tool message, and a tool message answering nothing", () => {
    const body = structuredClone(chatImageAfterTools);
    body.messages.splice(2, 1);
    body.messages.push({ role: "tool", tool_call_id: "call_9", content: "{}" } as never);
    expect(codes(body)).toEqual(["1 tool_call_without_response", "3 orphan_tool_response"]);
  });

  it("flags an OpenAI Chat result for an id the call did not make", () => {
    const body = structuredClone(chatImageAfterTools);
    (body.messages[2] as { tool_call_id: string }).tool_call_id = "call_2";
    expect(codes(body)).toEqual(["1 missing_tool_response", "2 extra_tool_response"]);
  });

  it("checks a run of many calls and results by id: unknown, repeated and missing ids, each list of ids cut short", () => {
    const calls = Array.from({ length: 12 }, (_, k) => ({
      id: `call_${k}`,
      type: "function",
      function: { name: "lookup", arguments: "{}" },
    }));
    const answer = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
    const body = {
      model: "gpt-4.1",
      messages: [
        { role: "user", content: "Look everything up." },
        { role: "assistant", content: null, tool_calls: calls },
        // calls 0–9 answered, call 3 twice, and one id no call made; calls 10 and 11 never
        ...calls.slice(0, 10).map((c) => answer(c.id)),
        answer("call_3"),
        answer("call_x"),
      ],
    };
    const { issues } = issuesOf(body);
    expect(issues.map((i) => `${i.index} ${i.code}`)).toEqual([
      "1 missing_tool_response",
      "12 extra_tool_response",
      "13 extra_tool_response",
    ]);
    expect(issues[0]!.message).toBe(
      'tool calls "call_10", "call_11" have no result in messages[2..13]: add one for each.',
    );
    expect(issues[1]!.message).toBe('tool call "call_3" is answered more than once: keep one result.');
    expect(issues[2]!.message).toBe(
      'tool result answers "call_x", which messages[1] did not call ("call_0", "call_1", "call_2", "call_3", "call_4" and 7 more): fix its id or remove it.',
    );
  });

  it("lets a Responses function_call_output come later, but not without its call", () => {
    const body = structuredClone(openaiResponsesSample);
    const output = body.input.splice(3, 1)[0]!;
    body.input.push(output);
    expect(codes(body)).toEqual([]);
    const orphan = structuredClone(openaiResponsesSample);
    orphan.input.splice(2, 1);
    // Indexes are the parsed request's: `instructions` is messages[0].
    expect(codes(orphan)).toEqual(["3 orphan_tool_response"]);
  });

  it("counts Gemini function responses when the calls carry no ids", () => {
    const body = structuredClone(geminiSample);
    body.contents[2]!.parts.push(structuredClone(body.contents[2]!.parts[0]!) as never);
    // messages[0] is the systemInstruction; the response turn is messages[3].
    expect(codes(body)).toEqual(["3 missing_tool_response"]);
    // Two calls and one response: as wrong as one call and two.
    const fewer = structuredClone(geminiSample);
    fewer.contents[1]!.parts.push(structuredClone(fewer.contents[1]!.parts[0]!) as never);
    const { issues } = issuesOf(fewer);
    expect(issues.map((i) => `${i.index} ${i.code}`)).toEqual(["3 missing_tool_response"]);
    expect(issues[0]!.message).toBe(
      "2 function calls in messages[2] but 1 response here: Gemini wants one response per call.",
    );
  });

  it("names a bad message field and a bad format", () => {
    expect(() => validateProviderHistory([{ role: "user" }] as never, "anthropic")).toThrow(
      expect.objectContaining({ field: "messages[0].content" }),
    );
    expect(() => validateProviderHistory([], "bedrock" as WireFormat)).toThrow(
      expect.objectContaining({ field: "format" }),
    );
  });
});
