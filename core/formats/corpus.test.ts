/**
 * The formats corpus: one request per block or item type each format takes, written from the
 * providers' references and checked against the official SDK type definitions:
 * - OpenAI Chat and Responses: openai/openai-node src/resources/chat/completions, responses/responses.ts @7b7d6ca (2026-08-21)
 * - Anthropic: anthropics/anthropic-sdk-typescript src/resources/messages/messages.ts and beta/messages/messages.ts @bfa9197 (2026-08-19)
 * - Gemini: googleapis/js-genai src/types.ts `Part`, `FunctionDeclaration` @6e9b35c (2026-08-21); snake_case per proto3 JSON
 * - Bedrock Converse: aws/aws-sdk-js-v3 clients/client-bedrock-runtime models (`ContentBlock`, `CachePointBlock` with ttl), read 2026-12-01
 *
 * Each request is parsed (its format detected), segmented, compared with itself (identical) and
 * with itself plus one more user turn (`appended`), and written back byte for byte by its own writer.
 */
import { describe, expect, it } from "vitest";
import { compareRequests } from "../cache/compare.ts";
import { selectCacheRule } from "../cache/rules.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { segmentRequest } from "../cache/segments.ts";
import { simulateCache } from "../cache/simulate.ts";
import { inspect } from "../inspect/inspect.ts";
import { countRequestTokens } from "../tokens/count.ts";
import { toAnthropic } from "./anthropic.ts";
import { toBedrock } from "./bedrock.ts";
import { checkExport } from "../test-support/export-check.ts";
import { toGemini } from "./gemini.ts";
import { toOpenAIChat } from "./openai-chat.ts";
import { toOpenAIResponses } from "./openai-responses.ts";
import { parseWireRequest } from "./parse.ts";
import type { NormalizedRequest, WireFormat } from "./types.ts";

type Body = Record<string, unknown>;
interface Fixture {
  readonly id: string;
  readonly body: Body;
  /** The wire type of a block Strata does not know (a warning names it, with this path). */
  readonly unknown?: { readonly type: string; readonly path: string };
  /** Where a cache marker is (a segment with `cacheBreakpoint`). */
  readonly breakpoint?: string;
  /** Nothing in the body to segment (a stored prompt lives on the provider's side). */
  readonly noSegments?: true;
}

const user = (text: string) => ({ role: "user", content: text });

const chat: Fixture[] = [
  {
    id: "legacy function role and assistant function_call",
    body: {
      model: "gpt-3.5-turbo",
      messages: [
        user("Weather in Paris?"),
        { role: "assistant", content: null, function_call: { name: "weather", arguments: '{"city":"Paris"}' } },
        { role: "function", name: "weather", content: "sunny" },
      ],
    },
  },
  {
    // OpenRouter / LiteLLM: Anthropic's marker on an OpenAI content part, for a Claude model.
    id: "cache_control on a content part",
    body: {
      model: "anthropic/claude-sonnet-4.5",
      messages: [
        { role: "system", content: [{ type: "text", text: "Long rules.", cache_control: { type: "ephemeral" } }] },
        user("Hi"),
      ],
    },
    breakpoint: "messages[0].content[0]",
  },
  {
    id: "Ollama images beside the text",
    body: {
      model: "llava",
      messages: [{ role: "user", content: "What is in this picture?", images: ["iVBORw0KGgo="] }],
    },
  },
];

const item = (x: Body) => ({ model: "gpt-5", input: [user("Go on."), x] });
const items = (...xs: Body[]) => ({ model: "gpt-5", input: [user("Go on."), ...xs] });
const responses: Fixture[] = [
  { id: "item_reference", body: item({ type: "item_reference", id: "msg_abc" }) },
  { id: "item_reference without type", body: item({ id: "msg_abc" }) },
  {
    id: "web_search_call",
    body: item({ type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "w" } }),
  },
  {
    id: "file_search_call",
    body: item({ type: "file_search_call", id: "fs_1", queries: ["refund policy"], status: "completed" }),
  },
  {
    id: "computer_call and its output",
    body: items(
      {
        type: "computer_call",
        id: "cu_1",
        call_id: "call_1",
        action: { type: "screenshot" },
        pending_safety_checks: [],
        status: "completed",
      },
      {
        type: "computer_call_output",
        call_id: "call_1",
        output: { type: "computer_screenshot", image_url: "data:image/png;base64,AAAA" },
      },
    ),
  },
  {
    id: "custom_tool_call and its output",
    body: items(
      { type: "custom_tool_call", call_id: "call_2", name: "code_exec", input: "print(1)" },
      { type: "custom_tool_call_output", call_id: "call_2", output: "1" },
    ),
  },
  {
    id: "local_shell_call and its output",
    body: items(
      {
        type: "local_shell_call",
        id: "lsh_1",
        call_id: "call_3",
        action: { type: "exec", command: ["ls"], env: {} },
        status: "completed",
      },
      { type: "local_shell_call_output", id: "lsh_1", output: "a.txt" },
    ),
  },
  {
    id: "mcp_list_tools",
    body: item({
      type: "mcp_list_tools",
      id: "mcpl_1",
      server_label: "docs",
      tools: [{ name: "s", input_schema: {} }],
    }),
  },
  {
    id: "mcp_approval_request and response",
    body: items(
      { type: "mcp_approval_request", id: "mcpr_1", name: "search", server_label: "docs", arguments: "{}" },
      { type: "mcp_approval_response", approval_request_id: "mcpr_1", approve: true },
    ),
  },
  {
    id: "mcp_call",
    body: item({ type: "mcp_call", id: "mcp_1", name: "search", server_label: "docs", arguments: "{}", output: "x" }),
  },
  {
    id: "image_generation_call",
    body: item({ type: "image_generation_call", id: "ig_1", result: "iVBORw0KGgo=", status: "completed" }),
  },
  {
    id: "code_interpreter_call",
    body: item({
      type: "code_interpreter_call",
      id: "ci_1",
      code: "1+1",
      container_id: "cntr_1",
      outputs: [],
      status: "completed",
    }),
  },
  {
    id: "a stored prompt and nothing else",
    body: { model: "gpt-5", prompt: { id: "pmpt_1", variables: { c: "P" } } },
    noSegments: true,
  },
  {
    id: "an unknown item type",
    body: item({ type: "future_call", id: "fc_1" }),
    unknown: { type: "future_call", path: "input[1]" },
  },
];

const assistant = (...content: Body[]) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [user("Look it up."), { role: "assistant", content }],
});
const userBlocks = (...content: Body[]) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [{ role: "user", content }],
});
const anthropic: Fixture[] = [
  {
    id: "server_tool_use and web_search_tool_result",
    body: assistant(
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "weather" } },
      {
        type: "web_search_tool_result",
        tool_use_id: "srvtoolu_1",
        content: [{ type: "web_search_result", url: "https://example.com", title: "W", encrypted_content: "abc" }],
      },
      { type: "text", text: "Sunny." },
    ),
  },
  {
    id: "web_fetch_tool_result",
    body: assistant(
      { type: "server_tool_use", id: "srvtoolu_2", name: "web_fetch", input: { url: "https://example.com" } },
      {
        type: "web_fetch_tool_result",
        tool_use_id: "srvtoolu_2",
        content: { type: "web_fetch_result", url: "https://example.com", content: { type: "document", source: {} } },
      },
    ),
  },
  {
    id: "code_execution_tool_result",
    body: assistant({
      type: "code_execution_tool_result",
      tool_use_id: "srvtoolu_3",
      content: { type: "code_execution_result", stdout: "2", stderr: "", return_code: 0, content: [] },
    }),
  },
  {
    id: "bash_code_execution_tool_result",
    body: assistant({
      type: "bash_code_execution_tool_result",
      tool_use_id: "srvtoolu_4",
      content: { type: "bash_code_execution_result", stdout: "ok", stderr: "", return_code: 0, content: [] },
    }),
  },
  {
    id: "text_editor_code_execution_tool_result",
    body: assistant({
      type: "text_editor_code_execution_tool_result",
      tool_use_id: "srvtoolu_5",
      content: { type: "text_editor_code_execution_view_result", content: "x", file_type: "text" },
    }),
  },
  {
    id: "search_result with a cache marker",
    body: userBlocks(
      {
        type: "search_result",
        source: "https://docs.example.com",
        title: "Docs",
        content: [{ type: "text", text: "Snippet" }],
        cache_control: { type: "ephemeral" },
      },
      { type: "text", text: "Summarize." },
    ),
    breakpoint: "messages[0].content[0]",
  },
  {
    id: "container_upload",
    body: userBlocks({ type: "container_upload", file_id: "file_1" }, { type: "text", text: "Run" }),
  },
  {
    id: "mcp_tool_use and mcp_tool_result",
    body: {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [
        user("Search the docs."),
        {
          role: "assistant",
          content: [{ type: "mcp_tool_use", id: "mcptoolu_1", name: "search", server_name: "docs", input: { q: "x" } }],
        },
        {
          role: "user",
          content: [{ type: "mcp_tool_result", tool_use_id: "mcptoolu_1", content: [{ type: "text", text: "found" }] }],
        },
      ],
    },
  },
  {
    id: "redacted_thinking",
    body: assistant({ type: "redacted_thinking", data: "EmwKAhgB" }, { type: "text", text: "A" }),
  },
  {
    id: "an unknown block type",
    body: assistant({ type: "future_block", x: 1 }),
    unknown: { type: "future_block", path: "messages[1].content[0]" },
  },
];

const turn = (role: string, parts: Body[]) => ({ role, parts });
const gemini: Fixture[] = [
  {
    id: "snake_case inline_data",
    body: {
      contents: [
        turn("user", [{ text: "Describe." }, { inline_data: { mime_type: "image/png", data: "iVBORw0KGgo=" } }]),
      ],
    },
  },
  {
    id: "snake_case file_data",
    body: {
      contents: [
        turn("user", [{ file_data: { mime_type: "application/pdf", file_uri: "gs://b/d.pdf" } }, { text: "Sum." }]),
      ],
    },
  },
  {
    id: "snake_case function_call and function_response",
    body: {
      model: "gemini-2.5-flash",
      contents: [
        turn("user", [{ text: "Weather?" }]),
        turn("model", [{ function_call: { name: "weather", args: { city: "Paris" } } }]),
        turn("user", [{ function_response: { name: "weather", response: { temp: 21 } } }]),
      ],
    },
  },
  {
    id: "snake_case system_instruction",
    body: { system_instruction: { parts: [{ text: "Be brief." }] }, contents: [turn("user", [{ text: "Hi" }])] },
  },
  {
    id: "snake_case thought_signature",
    body: { contents: [turn("user", [{ text: "Hi" }]), turn("model", [{ text: "Hello", thought_signature: "c2ln" }])] },
  },
  {
    id: "parameters_json_schema tool schemas",
    body: {
      tools: [
        {
          function_declarations: [
            { name: "weather", description: "Get weather", parameters_json_schema: { type: "object", properties: {} } },
          ],
        },
      ],
      contents: [turn("user", [{ text: "Weather?" }])],
    },
  },
  {
    id: "parametersJsonSchema tool schemas",
    body: {
      tools: [{ functionDeclarations: [{ name: "weather", parametersJsonSchema: { type: "object" } }] }],
      contents: [turn("user", [{ text: "Weather?" }])],
    },
  },
  { id: "contents as a string", body: { model: "gemini-2.5-flash", contents: "Hello" } },
  {
    id: "cachedContent",
    body: {
      model: "gemini-2.5-flash",
      cachedContent: "cachedContents/abc123",
      contents: [turn("user", [{ text: "Q" }])],
    },
  },
  {
    id: "executableCode and codeExecutionResult",
    body: {
      contents: [
        turn("user", [{ text: "Compute." }]),
        turn("model", [
          { executableCode: { language: "PYTHON", code: "print(1)" } },
          { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1" } },
        ]),
      ],
    },
  },
  {
    id: "an unknown part",
    body: { contents: [turn("user", [{ text: "Hi" }, { futurePart: { a: 1 } }])] },
    unknown: { type: "futurePart", path: "contents[0].parts[1]" },
  },
];

const converse = (messages: Body[], rest: Body = {}) => ({
  modelId: "anthropic.claude-3-7-sonnet-20250219-v1:0",
  ...rest,
  messages,
});
const said = (...content: Body[]) => ({ role: "user", content });
const bedrock: Fixture[] = [
  {
    id: "system with a cachePoint, inferenceConfig",
    body: converse([said({ text: "Hi" })], {
      inferenceConfig: { maxTokens: 512 },
      system: [{ text: "Long rules." }, { cachePoint: { type: "default" } }],
    }),
    breakpoint: "messages[0].content[0]",
  },
  {
    id: "toolConfig with a cachePoint and toolChoice",
    body: converse([said({ text: "Weather?" })], {
      toolConfig: {
        tools: [
          { toolSpec: { name: "weather", description: "Get weather", inputSchema: { json: { type: "object" } } } },
          { cachePoint: { type: "default" } },
        ],
        toolChoice: { auto: {} },
      },
    }),
    breakpoint: "tools[0]",
  },
  {
    id: "a cachePoint with a 1-hour ttl in a message",
    body: converse([said({ text: "A long document." }, { cachePoint: { type: "default", ttl: "1h" } }, { text: "Q" })]),
    breakpoint: "messages[0].content[0]",
  },
  { id: "image bytes", body: converse([said({ image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } })]) },
  {
    id: "document bytes",
    body: converse([said({ document: { format: "pdf", name: "report", source: { bytes: "JVBERi0=" } } })]),
  },
  {
    id: "toolUse and toolResult",
    body: converse([
      said({ text: "Weather?" }),
      { role: "assistant", content: [{ toolUse: { toolUseId: "tu_1", name: "weather", input: { city: "Paris" } } }] },
      said({ toolResult: { toolUseId: "tu_1", content: [{ json: { temp: 21 } }], status: "success" } }),
    ]),
  },
  {
    id: "reasoningContent, text and redacted",
    body: converse([
      said({ text: "Think." }),
      {
        role: "assistant",
        content: [
          { reasoningContent: { reasoningText: { text: "Let me see.", signature: "c2ln" } } },
          { reasoningContent: { redactedContent: "AAAA" } },
          { text: "Done." },
        ],
      },
    ]),
  },
  {
    id: "guardContent in the system prompt",
    body: converse([said({ text: "Hi" })], { system: [{ guardContent: { text: { text: "Policy." } } }] }),
  },
  {
    id: "video from S3",
    body: converse([said({ video: { format: "mp4", source: { s3Location: { uri: "s3://b/v" } } } })]),
  },
  {
    id: "image from S3",
    body: converse([said({ image: { format: "png", source: { s3Location: { uri: "s3://b/i" } } } })]),
  },
  {
    id: "an unknown member",
    body: converse([said({ text: "Hi" }, { futureBlock: { a: 1 } })]),
    unknown: { type: "futureBlock", path: "messages[0].content[1]" },
  },
];

const CONVERTERS = {
  "openai-chat": toOpenAIChat,
  "openai-responses": toOpenAIResponses,
  anthropic: toAnthropic,
  gemini: toGemini,
  "bedrock-converse": toBedrock,
} as const;
const WRITERS = Object.fromEntries(
  Object.entries(CONVERTERS).map(([f, to]) => [f, (r: NormalizedRequest) => to(r).body]),
) as Record<WireFormat, (r: NormalizedRequest) => unknown>;

/** The body with one more user turn, in its own format. */
function withTurn(format: WireFormat, body: Body): Body | null {
  const list = (k: string, x: unknown) => ({ ...body, [k]: [...((body[k] as unknown[]) ?? []), x] });
  switch (format) {
    case "openai-chat":
    case "anthropic":
      return list("messages", user("And next?"));
    case "openai-responses":
      return list("input", user("And next?"));
    case "gemini":
      return typeof body.contents === "string" ? null : list("contents", turn("user", [{ text: "And next?" }]));
    case "bedrock-converse":
      return list("messages", said({ text: "And next?" }));
  }
}

const corpus = [
  ...chat.map((f) => ["openai-chat", f] as const),
  ...responses.map((f) => ["openai-responses", f] as const),
  ...anthropic.map((f) => ["anthropic", f] as const),
  ...gemini.map((f) => ["gemini", f] as const),
  ...bedrock.map((f) => ["bedrock-converse", f] as const),
];

describe("the formats corpus through every other converter", () => {
  const targets = Object.keys(CONVERTERS) as WireFormat[];
  it.each(
    corpus.flatMap(([format, f]) => targets.filter((t) => t !== format).map((t) => [format, f.id, t, f] as const)),
  )("%s: %s → %s translates or reports", (_f, _id, target, fixture) =>
    checkExport(fixture.body, target, (r) => CONVERTERS[target](r)),
  );
});

describe("the formats corpus", () => {
  it.each(corpus.map(([format, f]) => [format, f.id, format, f] as const))(
    "%s: %s — parsed, segmented, identical to itself, appended to, written back",
    (_f, _id, format, fixture) => {
      const text = JSON.stringify(fixture.body);
      const parsed = parseWireRequest(text);
      expect(parsed.format).toBe(format);
      expect(JSON.stringify(WRITERS[format](parsed.request))).toBe(text);
      const provider = inferCacheProvider(format, parsed.request.model.provider, parsed.request.model.model);
      const seg = segmentRequest(parsed.request, { provider });
      expect(seg.segments.length === 0).toBe(fixture.noSegments === true);
      expect(compareRequests(parsed.request, parsed.request, { provider }).identical).toBe(true);
      const next = withTurn(format, fixture.body);
      if (next) {
        const longer = parseWireRequest(next, { format });
        expect(compareRequests(parsed.request, longer.request, { provider }).divergence?.cause).toBe("appended");
      }
      if (fixture.unknown) {
        expect(parsed.warnings).toEqual([
          expect.objectContaining({ code: "unknown_block_type", path: fixture.unknown.path }),
        ]);
        expect(parsed.warnings[0]!.message).toContain(JSON.stringify(fixture.unknown.type));
      } else expect(parsed.warnings).toEqual([]);
      if (fixture.breakpoint)
        expect(seg.segments.find((s) => s.path === fixture.breakpoint)?.cacheBreakpoint).toBe(true);
    },
  );

  it("keeps an opaque block in its place, its bytes in the segment, and counts its tokens", () => {
    const body = anthropic[0]!.body;
    const parsed = parseWireRequest(body);
    const seg = segmentRequest(parsed.request, { provider: "anthropic" });
    const i = seg.segments.findIndex((s) => s.path === "messages[1].content[0]");
    expect(seg.segments[i]!.blockType).toBe("opaque");
    expect(seg.texts[i]).toContain(JSON.stringify(((body.messages as Body[])[1]!.content as Body[])[0]));
    const without: NormalizedRequest = {
      ...parsed.request,
      messages: parsed.request.messages.map((m, j) => (j === 1 ? { ...m, content: m.content.slice(2) } : m)),
    };
    const all = countRequestTokens(parsed.request, { provider: "anthropic" }).total;
    expect(all).toBeGreaterThan(countRequestTokens(without, { provider: "anthropic" }).total + 20);
  });

  it("names the unknown block in the inspect report, with its path", async () => {
    const r = await inspect(anthropic.at(-1)!.body);
    expect(r.problems).toContainEqual(
      expect.objectContaining({
        stage: "parse",
        code: "unknown_block_type",
        severity: "warning",
        path: "messages[1].content[0]",
      }),
    );
  });

  it("puts Gemini's snake_case system_instruction in the system region", () => {
    const parsed = parseWireRequest(gemini.find((f) => f.id === "snake_case system_instruction")!.body);
    const seg = segmentRequest(parsed.request, { provider: "gemini" });
    expect(seg.segments.filter((s) => s.region === "system").map((s) => s.path)).toEqual([
      "messages[0]",
      "messages[0].content[0]",
    ]);
    const tools = parseWireRequest(gemini.find((f) => f.id === "parameters_json_schema tool schemas")!.body);
    expect(tools.request.tools[0]!.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("says a Gemini cachedContent's tokens count as cached", async () => {
    const r = await inspect(gemini.find((f) => f.id === "cachedContent")!.body);
    expect(r.cache!.assumptions.join(" ")).toContain('"cachedContents/abc123"');
    expect(r.cache!.assumptions.join(" ")).toMatch(/count as cached/);
  });

  it("simulates a Claude router body and a Bedrock body at their cache markers", () => {
    for (const [format, f] of [
      ["openai-chat", chat[1]!],
      ["bedrock-converse", bedrock[0]!],
    ] as const) {
      const { request } = parseWireRequest(f.body);
      const provider = inferCacheProvider(format, request.model.provider, request.model.model);
      expect(provider).toBe("anthropic");
      const sim = simulateCache([request], { provider });
      expect(sim.turns[0]!.prevented.noBreakpoints).toBe(false);
    }
  });

  it("picks Bedrock's cache rules by the model behind the Bedrock id", () => {
    expect(selectCacheRule("anthropic", "us.anthropic.claude-3-5-haiku-20241022-v1:0").rule.id).toBe(
      "anthropic-haiku-3-5",
    );
    expect(selectCacheRule("anthropic", "amazon.nova-pro-v1:0").rule).toMatchObject({
      id: "bedrock-nova",
      minTokens: 1000,
    });
  });

  it("shows prompt_cache_key as the request's cache routing key", async () => {
    const body = { model: "gpt-5", prompt_cache_key: "tenant-42", input: "Hi" };
    expect(parseWireRequest(body).request.cacheKey).toBe("tenant-42");
    const r = await inspect(body);
    expect(r.cache!.assumptions.join(" ")).toContain('prompt_cache_key "tenant-42" is a routing key');
  });
});

describe("Bedrock Converse or Anthropic Messages (both have system and messages)", () => {
  const conversation = { system: "Be brief.", user: "Hi", reply: "Hello" };
  it("tells them apart by their blocks", () => {
    const bedrockBody = {
      modelId: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      system: [{ text: conversation.system }],
      messages: [said({ text: conversation.user })],
    };
    const anthropicBody = {
      model: "claude-sonnet-4-5",
      max_tokens: 256,
      system: [{ type: "text", text: conversation.system }],
      messages: [{ role: "user", content: [{ type: "text", text: conversation.user }] }],
    };
    expect(parseWireRequest(bedrockBody).format).toBe("bedrock-converse");
    expect(parseWireRequest(anthropicBody).format).toBe("anthropic");
    // A Bedrock model id in an Anthropic body (an Anthropic SDK call on Bedrock) is still Anthropic.
    expect(parseWireRequest({ ...anthropicBody, model: "us.anthropic.claude-sonnet-4-5-v1:0" }).format).toBe(
      "anthropic",
    );
  });

  it("breaks a tie (no blocks at all) by table order: Anthropic", () => {
    expect(parseWireRequest({ model: "anthropic.claude-3-haiku-20240307-v1:0", messages: [] }).format).toBe(
      "anthropic",
    );
    expect(parseWireRequest({ modelId: "amazon.nova-pro-v1:0", messages: [] }).format).toBe("bedrock-converse");
  });

  it("rejects an Anthropic block in a Converse body with its path", () => {
    let error: unknown;
    try {
      parseWireRequest({
        modelId: "amazon.nova-pro-v1:0",
        messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      });
    } catch (e) {
      error = e;
    }
    expect((error as { issues: { path: string }[] }).issues[0]!.path).toBe("messages[0].content[0].type");
  });
});
