import { describe, expect, it } from "vitest";
import { getContextBudgetReport } from "./context-budget.ts";
import { ContextBudgetError } from "./errors.ts";
import { InvalidInputError } from "../util/errors.ts";
import { UnsupportedModalityError } from "../messages/errors.ts";
import { createDefaultInputBuilder } from "./input-builder.ts";
import { systemMessage, toolCallBlock, userMessage } from "../messages/index.ts";
import type { Message, ModelRef, ToolDefinition } from "../messages/index.ts";
import { createDefaultPromptBuilder } from "./prompt-builder.ts";
import type { ContextProvider, InputBuilder, PromptBuilder } from "./index.ts";
import { assembleProviderInput, explainProviderInput } from "./assemble.ts";
import { createMiddlewareRegistry } from "./middleware.ts";
import { HistorySnapshot } from "./input-groups.ts";

const model: ModelRef = { provider: "mock", model: "demo" };
const text = (m: Message): string => m.content.map((b) => (b.type === "text" ? b.text : b.type)).join("+");
const projectContext: ContextProvider = {
  name: "project",
  resolve: () => [{ id: "project", title: "Project", content: "A demo project." }],
};
const activeTools: ToolDefinition[] = [
  { name: "read_file", description: "Reads a file", inputSchema: { type: "object" } },
];

describe("assembleProviderInput", () => {
  it("assembles the spec's prompt/provider example", async () => {
    const request = await assembleProviderInput({
      model,
      input: "Explain this file",
      inputLayout: "cache_aware",
      contextProviders: [projectContext],
      promptBuilder: createDefaultPromptBuilder(),
      tools: activeTools,
    });
    expect(request.messages.map(text)).toEqual([
      "Context Project:\nA demo project.",
      'Available tools:\n- read_file: Reads a file\n  Input schema: {"type":"object"}',
      "Explain this file",
    ]);
    expect(request.tools).toBe(activeTools);
    expect(request.model).toBe(model);
    expect(Object.keys(request).sort()).toEqual(["messages", "model", "tools"]);
  });

  it("omits text tool declarations for tool-capable models; request.tools carries the schemas", async () => {
    const request = await assembleProviderInput({
      model: { ...model, capabilities: { tools: true } },
      input: "x",
      tools: activeTools,
    });
    expect(request.messages.map(text)).toEqual(["x"]);
    expect(request.tools).toBe(activeTools);
  });

  it("passes model, provider options, metadata and signal through and stamps session defaults", async () => {
    const signal = new AbortController().signal;
    const request = await assembleProviderInput({
      model,
      input: "x",
      providerOptions: { temperature: 0 },
      metadata: { requestId: "r1" },
      signal,
      sessionId: "sess",
    });
    expect(request).toMatchObject({
      providerOptions: { temperature: 0 },
      metadata: { requestId: "r1" },
      sessionId: "sess",
      cacheKey: "sess",
    });
    expect(request.signal).toBe(signal);
    const keyed = await assembleProviderInput({ model, input: "x", sessionId: "sess", cacheKey: "k" });
    expect(keyed.cacheKey).toBe("k");
  });

  it("places context after instructions and before the rest (cache_aware) or first (legacy)", async () => {
    const common = {
      model,
      input: "now",
      systemInstructions: "I",
      summaries: "S",
      history: [userMessage("H")],
      contextProviders: [projectContext],
    };
    expect((await assembleProviderInput(common)).messages.map(text)).toEqual([
      "System instruction:\nI",
      "Context Project:\nA demo project.",
      "Summary:\nS",
      "H",
      "now",
    ]);
    expect((await assembleProviderInput({ ...common, inputLayout: "legacy" })).messages.map(text)).toEqual([
      "Context Project:\nA demo project.",
      "System instruction:\nI",
      "Summary:\nS",
      "H",
      "now",
    ]);
  });

  it("resolves context providers in order, giving each the assembled input messages", async () => {
    const seen: string[][] = [];
    const provider = (id: string): ContextProvider => ({
      name: id,
      resolve: async ({ messages }) => {
        seen.push(messages.map(text));
        return [{ id, content: id }];
      },
    });
    const request = await assembleProviderInput({
      model,
      input: "x",
      systemInstructions: "I",
      contextProviders: [provider("a"), provider("b")],
    });
    expect(request.messages.map(text)).toEqual(["System instruction:\nI", "Context a:\na", "Context b:\nb", "x"]);
    expect(seen).toEqual([
      ["System instruction:\nI", "x"],
      ["System instruction:\nI", "x"],
    ]);
  });

  it("checks the model's declared input modalities", async () => {
    const audio = { name: "clip", content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }] } as const;
    await expect(
      assembleProviderInput({
        model: { ...model, capabilities: { input: ["text"] } },
        input: "x",
        attachments: [audio],
      }),
    ).rejects.toThrow(UnsupportedModalityError);
    await expect(
      assembleProviderInput({
        model: { ...model, capabilities: { input: ["text", "audio"] } },
        input: "x",
        attachments: [audio],
      }),
    ).resolves.toBeDefined();
  });
});

describe("the history as read once", () => {
  it("lays out a history of 20,000 messages (over several lists) whole and in order, and keeps the host's array as it was", async () => {
    const history = Array.from({ length: 20_000 }, (_, i) => userMessage(`m${i}`));
    const request = await assembleProviderInput({ model, input: "next", history });
    expect(request.messages).toHaveLength(20_001);
    history.forEach((m, i) => {
      if (request.messages[i] !== m) expect.fail(`messages[${i}] is not the host's history[${i}]`);
    });
    expect(text(request.messages[20_000]!)).toBe("next");
    // The budget's labels by position reach past the first list too: the oldest half is evicted.
    const budgeted = await assembleProviderInput({
      model,
      input: "next",
      history,
      contextBudget: { maxInputTokens: 10_000 * 2 + 100 },
    });
    expect(budgeted.messages.at(-1)).toEqual(userMessage("next"));
    expect(budgeted.messages.at(-2)).toBe(history[19_999]);
    expect(budgeted.messages.length).toBeGreaterThan(9_000);
    expect(budgeted.messages.length).toBeLessThan(11_000);
    expect(history).toHaveLength(20_000);
  });

  it("reads each message of a snapshot by position, across its lists", () => {
    const messages = Array.from({ length: 20_000 }, (_, i) => userMessage(`m${i}`));
    const snapshot = new HistorySnapshot(messages);
    expect(snapshot.length).toBe(20_000);
    expect(snapshot.chunks.map((c) => c.length)).toEqual([8192, 8192, 3616]);
    messages.forEach((m, i) => {
      if (snapshot.at(i) !== m) expect.fail(`at(${i}) is not messages[${i}]`);
    });
    expect(snapshot.includes(messages[19_999]!)).toBe(true);
    expect(snapshot.includes(userMessage("m1"))).toBe(false);
    expect(new HistorySnapshot([]).chunks).toEqual([]);
  });

  it("is the history as it was before resources loaded, whatever the host does to its array meanwhile", async () => {
    const history = [userMessage("a"), userMessage("b")];
    const request = await assembleProviderInput({
      model,
      input: "next",
      history,
      resourceUris: ["mem://r"],
      resourceLoader: {
        load: async () => {
          history.push(userMessage("pushed while loading"));
          history[0] = userMessage("replaced while loading");
          return "R";
        },
      },
    });
    expect(request.messages.map(text).filter((t) => !t.includes("R"))).toEqual(["a", "b", "next"]);
  });
});

describe("middleware hooks", () => {
  const recording = () => {
    const calls: string[] = [];
    const middleware = createMiddlewareRegistry()
      .use("input_assembly", (m) => (calls.push("input_assembly"), m))
      .use("context", (c) => (calls.push("context"), c))
      .use("prompt_build", (r) => (calls.push("prompt_build"), r));
    return { calls, middleware };
  };

  it("run once each, in assembly order, on the plain path", async () => {
    const { calls, middleware } = recording();
    await assembleProviderInput({ model, input: "x", middleware });
    expect(calls).toEqual(["input_assembly", "context", "prompt_build"]);
  });

  it("input_assembly runs exactly once on the budget path", async () => {
    const { calls, middleware } = recording();
    await assembleProviderInput({
      model,
      input: "x",
      history: [userMessage("old".repeat(50))],
      middleware,
      contextBudget: { maxInputTokens: 5 },
    });
    expect(calls).toEqual(["input_assembly", "context", "prompt_build"]);
  });

  it("input_assembly runs exactly once for a custom input builder (the spec's extension example)", async () => {
    const { calls, middleware } = recording();
    const inputBuilder: InputBuilder = {
      name: "custom-input",
      build: (input) => [userMessage(`custom: ${String(input)}`)],
    };
    const promptBuilder: PromptBuilder = {
      name: "custom-prompt",
      build: ({ messages }) => [systemMessage("custom prompt"), ...messages],
    };
    const request = await assembleProviderInput({
      model,
      input: "Hello",
      inputBuilder,
      promptBuilder,
      contextProviders: [projectContext],
      middleware,
    });
    expect(calls).toEqual(["input_assembly", "context", "prompt_build"]);
    expect(request.messages.map(text)).toEqual(["custom prompt", "custom: Hello"]);
  });

  it("input_assembly output is what context providers and the prompt see", async () => {
    const middleware = createMiddlewareRegistry().use("input_assembly", (messages) => [
      ...messages,
      userMessage("added"),
    ]);
    const request = await assembleProviderInput({ model, input: "x", middleware });
    expect(request.messages.map(text)).toEqual(["x", "added"]);
  });

  it("cannot grant provider tools from prompt_build", async () => {
    const middleware = createMiddlewareRegistry().use("prompt_build", (r) => ({
      ...r,
      tools: [...(r.tools ?? []), { name: "rm_rf" }],
    }));
    const request = await assembleProviderInput({ model, input: "x", tools: activeTools, middleware });
    expect(request.tools).toBe(activeTools);
    expect(request.messages.map(text).join("\n")).not.toContain("rm_rf");
  });

  it("context middleware can filter resolved blocks", async () => {
    const middleware = createMiddlewareRegistry().use("context", (blocks) => blocks.filter((b) => b.id !== "project"));
    const request = await assembleProviderInput({ model, input: "x", contextProviders: [projectContext], middleware });
    expect(request.messages.map(text)).toEqual(["x"]);
  });
});

describe("tail segments", () => {
  const loader = (version: string) => ({ load: (uri: string) => `${uri} ${version}` });

  it("moves URI resources and loaded skill bodies to the tail; catalog rows stay in place", async () => {
    const tailSegments = new Map<string, Message>();
    const request = await assembleProviderInput({
      model,
      input: "now",
      systemInstructions: "I",
      resourceUris: ["mem://a"],
      resourceLoader: loader("v1"),
      skills: [{ name: "review", description: "Reviews", instructions: "Body." }],
      tailSegments,
    });
    expect(request.messages.map(text)).toEqual([
      "System instruction:\nI",
      "Skill review: Reviews",
      "now",
      "Resource mem://a:\nmem://a v1",
      "Skill review instructions:\nBody.",
    ]);
    expect([...tailSegments.keys()]).toEqual(["resource:mem://a", "skill:review"]);
  });

  it("first insertion fixes order; re-deriving an id replaces only its bytes", async () => {
    const tailSegments = new Map<string, Message>();
    const turn = (uris: string[], version: string, skills = [{ name: "s", instructions: `S ${version}` }]) =>
      assembleProviderInput({
        model,
        input: "now",
        resourceUris: uris,
        resourceLoader: loader(version),
        skills,
        tailSegments,
      });
    await turn(["mem://a", "mem://b"], "v1");
    const second = await turn(["mem://c", "mem://a"], "v2");
    expect(second.messages.map(text).slice(2)).toEqual([
      "Resource mem://a:\nmem://a v2",
      "Resource mem://b:\nmem://b v1",
      "Skill s instructions:\nS v2",
      "Resource mem://c:\nmem://c v2",
    ]);
  });

  it("hands custom prompt builders the tail in messages plus tailSkillBodies", async () => {
    let seen: { tail: boolean | undefined; last: string } | undefined;
    const promptBuilder: PromptBuilder = {
      name: "spy",
      build: (r) => {
        seen = { tail: r.tailSkillBodies, last: text(r.messages[r.messages.length - 1]!) };
        return r.messages;
      },
    };
    await assembleProviderInput({
      model,
      input: "x",
      skills: [{ name: "s", instructions: "B" }],
      tailSegments: new Map(),
      promptBuilder,
    });
    expect(seen).toEqual({ tail: true, last: "Skill s instructions:\nB" });
  });

  it("can be omitted by the budget (as skills / attachments)", async () => {
    const { request, trace } = await explainProviderInput({
      model,
      input: "now",
      resourceUris: ["mem://big"],
      resourceLoader: { load: () => "x".repeat(400) },
      tailSegments: new Map(),
      contextBudget: { maxInputTokens: 10 },
    });
    expect(request.messages.map(text)).toEqual(["now"]);
    expect(trace.omissions).toMatchObject([{ kind: "attachments", source: "tail:resource:mem://big" }]);
  });
});

describe("explainProviderInput", () => {
  const options = {
    model,
    input: "now",
    systemInstructions: "I",
    summaries: [{ id: "sum-1", text: "S" }],
    history: [
      userMessage("old"),
      { role: "assistant", content: [toolCallBlock("call_1", "lookup")] } satisfies Message,
    ],
    toolResults: [{ toolCallId: "call_1", name: "lookup", value: "found" }],
    attachments: [{ name: "notes.md", text: "N" }],
    resourceUris: ["mem://r"],
    resourceLoader: { load: () => "R" },
    contextProviders: [projectContext],
    skills: [{ name: "review", instructions: "B" }],
    tools: activeTools,
  };

  it("labels every message with its source (cache_aware)", async () => {
    const { trace } = await explainProviderInput(options);
    expect(trace.rows.map((r) => r.source)).toEqual([
      "instructions",
      "context:project",
      "skill:review",
      "tools",
      "attachment:notes.md",
      "resource:mem://r",
      "summary",
      "history:0",
      "history:1",
      "toolResult:call_1",
      "input",
    ]);
    expect(trace.layout).toBe("cache_aware");
  });

  it("labels tail segments", async () => {
    const { trace } = await explainProviderInput({ ...options, tailSegments: new Map() });
    expect(trace.rows.slice(-2).map((r) => r.source)).toEqual(["tail:resource:mem://r", "tail:skill:review"]);
  });

  it("returns exactly the request assembleProviderInput returns", async () => {
    const { request } = await explainProviderInput(options);
    expect(JSON.stringify(request)).toBe(JSON.stringify(await assembleProviderInput(options)));
  });

  it("measures every row: chars, UTF-8 bytes, tokens, and totals", async () => {
    const { request, trace } = await explainProviderInput({ model, input: "héllo😀", systemInstructions: "Be brief." });
    expect(trace.rows).toEqual([
      { index: 0, role: "system", source: "instructions", chars: 29, bytes: 29, tokens: 8 },
      { index: 1, role: "user", source: "input", chars: 7, bytes: 10, tokens: 2 },
    ]);
    expect(trace.totals).toEqual({ chars: 36, bytes: 39, tokens: 10 });
    expect(trace.rows).toHaveLength(request.messages.length);
    expect(trace.omissions).toEqual([]);
  });

  it("counts native tool schemas separately", async () => {
    const { trace } = await explainProviderInput({
      model: { ...model, capabilities: { tools: true } },
      input: "x",
      tools: activeTools,
    });
    expect(trace.toolSchemas).toEqual({
      chars: JSON.stringify(activeTools).length,
      bytes: JSON.stringify(activeTools).length,
      tokens: Math.ceil(JSON.stringify(activeTools).length / 4),
    });
  });

  it("labels messages a custom builder creates as custom and keeps host history labels it passes through", async () => {
    const history = [userMessage("h0"), userMessage("h1")];
    const inputBuilder: InputBuilder = {
      name: "mine",
      build: (input, ctx) => [systemMessage("mine"), ...(ctx?.history ?? []), userMessage(String(input))],
    };
    const { trace } = await explainProviderInput({ model, input: "x", history, inputBuilder });
    expect(trace.rows.map((r) => r.source)).toEqual(["custom", "history:0", "history:1", "custom"]);
  });

  it("reports omissions with their arithmetic, and the report only when asked", async () => {
    const big = { model, input: "now", history: [userMessage("x".repeat(100)), userMessage("recent")] };
    const { request, trace } = await explainProviderInput({ ...big, contextBudget: { maxInputTokens: 5 } });
    expect(trace.omissions).toEqual([
      {
        kind: "history",
        source: "history:0",
        sources: ["history:0"],
        tokens: 25,
        bytes: 100,
        tokensBefore: 28,
        bytesBefore: 109,
        exceeded: ["maxInputTokens"],
      },
    ]);
    expect(getContextBudgetReport(request)).toBeUndefined();
    const reported = await assembleProviderInput({
      ...big,
      contextBudget: { maxInputTokens: 5, reportOmissions: true },
    });
    expect(getContextBudgetReport(reported)?.omitted).toEqual(trace.omissions);
    expect(reported.messages.map(text)).toEqual(["recent", "now"]);
  });
});

describe("budget through assembly", () => {
  it("throws ContextBudgetError when instructions and input alone exceed the cap", async () => {
    await expect(
      assembleProviderInput({ model, input: "x".repeat(100), contextBudget: { maxInputBytes: 50 } }),
    ).rejects.toThrow(ContextBudgetError);
  });

  it("fails closed with TypeError for a bad tokenEstimator", async () => {
    await expect(
      assembleProviderInput({ model, input: "x", contextBudget: { maxInputTokens: 5, tokenEstimator: () => -1 } }),
    ).rejects.toThrow(TypeError);
    await expect(
      assembleProviderInput({ model, input: "x", contextBudget: { maxInputTokens: 5, tokenEstimator: 3 as never } }),
    ).rejects.toThrow(TypeError);
  });

  it("assembles 20,000 history messages and keeps the newest that fit", async () => {
    const history = Array.from(
      { length: 20_000 },
      (_, i): Message =>
        i % 2 === 0
          ? userMessage(`question ${i}`)
          : { role: "assistant", content: [{ type: "text", text: `answer ${i}` }] },
    );
    const plain = await assembleProviderInput({ model, input: "now", history });
    expect(plain.messages).toHaveLength(20_001);
    const { request, trace } = await explainProviderInput({
      model,
      input: "now",
      history,
      contextBudget: { maxInputTokens: 1000, reportOmissions: true },
    });
    expect(request.messages[request.messages.length - 2]).toBe(history[19_999]);
    expect(trace.totals.tokens).toBeLessThanOrEqual(1000);
    expect(trace.omissions[0]!.source).toBe("history:0");
  });
});

describe("bad input fails with a typed error naming the field", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["a missing model", { input: "x" }, "model"],
    ["an unknown layout", { model, input: "x", inputLayout: "newest" }, "inputLayout"],
    ["a tool without a name", { model, input: "x", tools: [{}] }, "tools[0].name"],
    ["a skill without a name", { model, input: "x", skills: [{ instructions: "b" }] }, "skills[0].name"],
    [
      "a context provider without resolve",
      { model, input: "x", contextProviders: [{ name: "p" }] },
      "contextProviders[0]",
    ],
    [
      "a provider returning bad blocks",
      { model, input: "x", contextProviders: [{ name: "p", resolve: () => [{ content: 5 }] }] },
      "contextProviders[0].resolve()[0].content",
    ],
    [
      "a custom builder returning non-messages",
      { model, input: "x", inputBuilder: { name: "b", build: () => ["x"] } },
      "inputBuilder.build()[0]",
    ],
    ["tailSegments that are not a Map", { model, input: "x", tailSegments: {} }, "tailSegments"],
    ["a budget with no cap", { model, input: "x", contextBudget: {} }, "contextBudget"],
  ])("%s", async (_, options, field) => {
    const error = await assembleProviderInput(options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
  });

  it("rejects with the signal's reason when aborted during context resolution", async () => {
    const controller = new AbortController();
    const slow: ContextProvider = {
      name: "slow",
      resolve: () => {
        queueMicrotask(() => controller.abort("cancelled"));
        return new Promise(() => {});
      },
    };
    await expect(
      assembleProviderInput({ model, input: "x", contextProviders: [slow], signal: controller.signal }),
    ).rejects.toBe("cancelled");
  });

  it("treats the default builders passed explicitly like the built-in ones", async () => {
    const explicit = await explainProviderInput({
      model,
      input: "x",
      systemInstructions: "I",
      inputBuilder: createDefaultInputBuilder(),
      promptBuilder: createDefaultPromptBuilder(),
    });
    expect(explicit.trace.rows.map((r) => r.source)).toEqual(["instructions", "input"]);
  });
});
