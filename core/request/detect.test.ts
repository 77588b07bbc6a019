import { describe, expect, it } from "vitest";
import { rankFormats, wireEvidence } from "../formats/detect.ts";
import type { Obj } from "../formats/detect.ts";
import { REQUEST_FORMATS } from "./parse-request.ts";
import { strataEvidence } from "./detect.ts";
import { parseRequest } from "./parse-request.ts";

const userText = [{ role: "user", content: [{ type: "text", text: "Hello" }] }];
const userString = [{ role: "user", content: "Hello" }];

const rank = (o: Obj) => rankFormats(REQUEST_FORMATS, { strata: strataEvidence(o), ...wireEvidence(o) });

describe("format detection when a value is valid under several formats", () => {
  it.each<[string, Record<string, unknown>, string]>([
    // Valid as both OpenAI Chat and Anthropic: the model id prefix decides.
    [
      "the issue's Anthropic body: a Claude model with text blocks",
      { model: "claude-sonnet-4-5", max_tokens: 1024, messages: userText },
      "anthropic",
    ],
    [
      "a Claude model behind a vendor path",
      { model: "anthropic/claude-3-5-sonnet", max_tokens: 1024, messages: userText },
      "anthropic",
    ],
    [
      "a Bedrock Claude id",
      { model: "us.anthropic.claude-sonnet-4-5-v1:0", max_tokens: 1024, messages: userString },
      "anthropic",
    ],
    ["a GPT model with text blocks", { model: "gpt-4.1", max_tokens: 1024, messages: userText }, "openai-chat"],
    ["an o-series model", { model: "o3-mini", messages: userText }, "openai-chat"],
    [
      "an unknown model and no other evidence (OpenAI-compatible servers)",
      { model: "llama-3.1-70b", max_tokens: 1024, messages: userText },
      "openai-chat",
    ],
    // Decisive features beat the model id.
    [
      "a top-level system string, even for a GPT model id",
      { model: "gpt-4o", system: "Be brief.", messages: userString },
      "anthropic",
    ],
    [
      "a top-level system block array",
      { model: "my-model", system: [{ type: "text", text: "Be brief." }], messages: userString },
      "anthropic",
    ],
    [
      "cache_control on a block",
      {
        model: "my-model",
        messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }],
      },
      "anthropic",
    ],
    [
      "top-level cache_control (automatic caching)",
      { model: "gpt-4o", cache_control: { type: "ephemeral" }, messages: userString },
      "anthropic",
    ],
    [
      "anthropic_version",
      { model: "gpt-4o", anthropic_version: "vertex-2023-10-16", messages: userString },
      "anthropic",
    ],
    [
      "thinking",
      { model: "my-model", thinking: { type: "enabled", budget_tokens: 2048 }, messages: userString },
      "anthropic",
    ],
    [
      "max_completion_tokens for a Claude model id",
      { model: "claude-sonnet-4-5", max_completion_tokens: 100, messages: userText },
      "openai-chat",
    ],
    [
      "response_format for a Claude model id",
      { model: "claude-sonnet-4-5", response_format: { type: "json_object" }, messages: userString },
      "openai-chat",
    ],
    [
      "input and messages together (Responses' input wins)",
      { model: "gpt-5", input: "Hello", messages: userString },
      "openai-responses",
    ],
    [
      "instructions for an unknown model",
      { model: "my-model", instructions: "Be brief.", input: "Hello" },
      "openai-responses",
    ],
    [
      "contents for a GPT model id",
      { model: "gpt-4o", contents: [{ role: "user", parts: [{ text: "Hello" }] }] },
      "gemini",
    ],
    [
      "a Gemini model behind models/",
      { model: "models/gemini-2.5-flash", contents: [{ parts: [{ text: "Hello" }] }] },
      "gemini",
    ],
  ])("detects %s", (_, value, format) => {
    expect(parseRequest(value).format).toBe(format);
  });

  it("a real Anthropic tool exchange is never OpenAI Chat, whatever the model id", () => {
    const value = {
      model: "my-proxy-model",
      max_tokens: 100,
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "sunny" }] },
      ],
    };
    expect(parseRequest(value).format).toBe("anthropic");
  });

  it("ranks by decisive features, then the messages container, then the model prefix, then table order", () => {
    expect(rank({ model: "claude-x", messages: [] })).toEqual([
      "anthropic",
      "openai-chat",
      "bedrock-converse",
      "strata",
      "openai-responses",
      "gemini",
    ]);
    expect(rank({ model: "gpt-4o", messages: [] })).toEqual([
      "openai-chat",
      "anthropic",
      "bedrock-converse",
      "openai-responses",
      "strata",
      "gemini",
    ]);
    expect(rank({ model: "x", messages: [] })).toEqual([
      "openai-chat",
      "anthropic",
      "bedrock-converse",
      "strata",
      "openai-responses",
      "gemini",
    ]);
    // A Bedrock model id ranks Converse above the other `messages` formats.
    expect(rank({ model: "amazon.nova-pro-v1:0", messages: [] })[0]).toBe("bedrock-converse");
    expect(rank({ model: "gemini-2.5-pro", system: "s", messages: [] })[0]).toBe("anthropic");
  });

  it("still fails closed, naming the closest format, when nothing matches", () => {
    expect(() =>
      parseRequest({
        model: "claude-sonnet-4-5",
        system: "s",
        messages: [{ role: "user", content: [{ type: "text", text: 1 }] }],
      }),
    ).toThrow(/Closest: anthropic/);
  });
});
