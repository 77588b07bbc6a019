// Every sample and fixture, read in its own format and written by every converter: the body parses
// as the target format, holds no field foreign to it, and the warnings name everything dropped.
import { describe, expect, it } from "vitest";
import { assembleProviderInput } from "../assembly/assemble.ts";
import { checkExport } from "../test-support/export-check.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { samples } from "../test-support/samples.ts";
import { toAnthropic } from "./anthropic.ts";
import type { ExportResult } from "./export-context.ts";
import { toBedrock } from "./bedrock.ts";
import { toGemini } from "./gemini.ts";
import { toOpenAIChat } from "./openai-chat.ts";
import { toOpenAIResponses } from "./openai-responses.ts";
import { parseWireRequest } from "./parse.ts";
import type { NormalizedRequest, WireFormat } from "./types.ts";

const WRITERS: Record<WireFormat, (r: NormalizedRequest) => ExportResult> = {
  "openai-chat": (r) => toOpenAIChat(r),
  "openai-responses": (r) => toOpenAIResponses(r),
  anthropic: (r) => toAnthropic(r),
  gemini: (r) => toGemini(r),
  "bedrock-converse": (r) => toBedrock(r),
};
const TARGETS = Object.keys(WRITERS) as WireFormat[];

// Shapes the samples lack: Anthropic server-tool blocks (kept verbatim as opaque blocks) and a
// hosted tool; a snake_case Gemini body with thinking and a function declaration in OpenAPI style.
const anthropicServerTools = {
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }],
  messages: [
    { role: "user", content: "Who won yesterday?" },
    {
      role: "assistant",
      content: [
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "match result" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        { type: "text", text: "No result found." },
      ],
    },
    { role: "user", content: "Try again." },
  ],
};
const geminiSnake = {
  system_instruction: { parts: [{ text: "Be brief." }] },
  tools: [
    { function_declarations: [{ name: "f", parameters: { type: "OBJECT", properties: { a: { type: "STRING" } } } }] },
  ],
  generation_config: { max_output_tokens: 256, thinking_config: { thinking_budget: 2048 } },
  contents: [{ role: "user", parts: [{ text: "hi" }] }],
};

const inputs: [string, unknown][] = [
  ["anthropic server tools", anthropicServerTools],
  ["gemini snake_case", geminiSnake],
  ...samples.filter((s) => s.format !== "strata").map((s) => [s.id, s.data] as [string, unknown]),
  ...conversationTurns.map((t, i) => [`conversation turn ${i + 1}`, t] as [string, unknown]),
];

const cells = inputs.flatMap(([id, data]) => TARGETS.map((t) => [id, t, data] as const));

describe("export matrix: every sample through every converter", () => {
  it.each(cells)("%s → %s", (_id, target, data) => {
    checkExport(data, target, WRITERS[target]);
  });
});

describe("the Responses writer names each block of an assistant message by its own index", () => {
  const call = { type: "tool_call", id: "call_1", name: "lookup", arguments: {} } as const;
  /** A user's text, then an assistant message of `content`. */
  const answeredWith = (content: readonly object[]) =>
    ({
      model: { provider: "openai", model: "gpt-4.1" },
      tools: [],
      messages: [
        { role: "user", content: [{ type: "text", text: "Go." }] },
        { role: "assistant", content },
      ],
    }) as unknown as NormalizedRequest;

  it("in a dropped thinking block's warning, after other blocks", () => {
    const thinking = { type: "thinking", text: "Plan.", signature: "sig" } as const;
    const request = answeredWith([call, { type: "text", text: "Looking." }, thinking, call, thinking]);
    const dropped = toOpenAIResponses(request).warnings.filter((w) => w.code === "signed_content_dropped");
    expect(dropped.map((w) => w.path)).toEqual(["messages[1].content[2]", "messages[1].content[4]"]);
  });

  it("in the error for a block of a run that does not start the message", () => {
    const audio = { type: "audio", mimeType: "audio/wav", url: "https://example.com/a.wav" } as const;
    const request = answeredWith([call, { type: "text", text: "Listen:" }, audio]);
    expect(() => toOpenAIResponses(request)).toThrow(
      expect.objectContaining({ field: "messages[1].content[2]" }) as unknown as Error,
    );
  });
});

describe("cross-format export translates instead of copying", () => {
  const wire = (format: WireFormat) => parseWireRequest(samples.find((s) => s.format === format)!.data).request;

  it("Anthropic → Gemini puts max tokens, thinking and tool choice in Gemini's own fields", () => {
    const src = wire("anthropic");
    const { body, warnings } = toGemini({
      ...src,
      providerOptions: {
        ...src.providerOptions,
        tool_choice: { type: "tool", name: "search_docs" },
        stream: true,
        stop_sequences: ["END"],
      },
    });
    for (const k of ["max_tokens", "thinking", "tool_choice", "stream", "stop_sequences"])
      expect(body).not.toHaveProperty(k);
    expect(body.generationConfig).toMatchObject({
      maxOutputTokens: 2048,
      stopSequences: ["END"],
      thinkingConfig: { thinkingBudget: 1024 },
    });
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["search_docs"] } });
    expect(warnings.find((w) => w.path === "providerOptions.stream")?.code).toBe("setting_dropped");
    expect(warnings.find((w) => w.path === "model")?.message).toMatch(/claude-sonnet-4-5 is not a model/);
  });

  it("Gemini → Anthropic: max_tokens from generationConfig, tool schemas as JSON Schema, a missing model reported", () => {
    const src = wire("gemini");
    const { body, warnings } = toAnthropic({ ...src, model: { ...src.model, model: "" } });
    expect(body).not.toHaveProperty("generationConfig");
    expect(body.max_tokens).toBe(1024);
    expect((body.tools as { input_schema?: unknown }[]).every((t) => t.input_schema !== undefined)).toBe(true);
    expect(JSON.stringify(body.tools)).not.toMatch(/"(OBJECT|STRING)"/);
    expect(warnings.find((w) => w.path === "model")?.code).toBe("field_missing");
    expect(toAnthropic(src, { model: "claude-sonnet-4-5" }).body.model).toBe("claude-sonnet-4-5");
  });

  it("Anthropic → OpenAI Chat writes reasoning_effort, never thinking", () => {
    const { body } = toOpenAIChat(wire("anthropic"));
    expect(body).not.toHaveProperty("thinking");
    expect(body.reasoning_effort).toBe("low");
  });

  it("Responses → Anthropic never turns encrypted reasoning into a Claude signature", () => {
    const { body, warnings } = toAnthropic(wire("openai-responses"));
    expect(JSON.stringify(body)).not.toContain("signature");
    expect(warnings.some((w) => w.code === "signed_content_dropped")).toBe(true);
  });

  it("response formats: Chat json_schema ↔ Responses text.format ↔ Gemini responseJsonSchema ↔ Anthropic output_config", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const chat = parseWireRequest({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      response_format: { type: "json_schema", json_schema: { name: "out", schema, strict: true } },
      max_completion_tokens: 300,
      stop: "END",
      safety_identifier: "u-1",
    }).request;
    const r = toOpenAIResponses(chat).body;
    expect(r.text).toEqual({ format: { type: "json_schema", name: "out", schema, strict: true } });
    expect(r.max_output_tokens).toBe(300);
    expect(r.safety_identifier).toBe("u-1");
    expect(r).not.toHaveProperty("stop");
    const g = toGemini(chat).body;
    expect(g.generationConfig).toEqual({
      maxOutputTokens: 300,
      stopSequences: ["END"],
      responseMimeType: "application/json",
      responseJsonSchema: schema,
    });
    const a = toAnthropic(chat).body;
    expect(a.output_config).toEqual({ format: { type: "json_schema", schema } });
    expect(a.metadata).toEqual({ user_id: "u-1" });
    expect(a.stop_sequences).toEqual(["END"]);
    const back = toOpenAIChat(parseWireRequest(r).request).body;
    expect(back.response_format).toEqual(chat.providerOptions!.response_format);
  });

  it("an assembled request exported to Anthropic gets max_tokens from the model table", async () => {
    const { signal: _s, ...req } = await assembleProviderInput({
      model: { provider: "anthropic", model: "claude-sonnet-4-5" },
      input: "Hello",
    });
    const { body, warnings } = toAnthropic(req);
    expect(body.max_tokens).toBe(16_000);
    expect(warnings.map((w) => w.code)).toEqual(["field_filled"]);
  });

  it("a same-format body is written verbatim, with no warnings", () => {
    for (const s of samples.filter((x) => x.format !== "strata")) {
      const p = parseWireRequest(s.data);
      const out = WRITERS[p.format](p.request);
      expect(JSON.stringify(out.body)).toBe(JSON.stringify(s.data));
      expect(out.warnings).toEqual([]);
    }
  });
});
