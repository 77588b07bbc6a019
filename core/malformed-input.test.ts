/**
 * Malformed input at every public entry point that takes messages or requests: a typed error
 * naming the field, never a raw TypeError from deep inside and never a silently wrong result.
 */
import { describe, expect, it } from "vitest";
import { InvalidInputError, StrataError } from "./util/errors.ts";
import { getContextBudgetReport, messageText } from "./index.ts";
import { applyContextBudget } from "./assembly/index.ts";
import { segmentRequest, serializeRequest, suggestCacheBreakpoints } from "./cache/index.ts";
import { simulateNextTurn } from "./inspect/index.ts";
import { resolveGuidance } from "./composer/index.ts";
import { runRequestPipeline, validateHistory } from "./conversation/index.ts";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "./formats/index.ts";
import { prepareAssembly } from "./request/index.ts";

const good = {
  model: { provider: "openai", model: "gpt-4o" },
  messages: [
    { role: "user", content: [{ type: "text", text: "hi" }] },
    { role: "assistant", content: [{ type: "text", text: "hello" }] },
  ],
  tools: [],
};
const badBlock = {
  ...good,
  messages: [
    good.messages[0],
    good.messages[1],
    good.messages[0],
    { role: "user", content: [{ type: "text", text: "x" }, { kind: "text" }] },
  ],
};
const noTools = { model: good.model, messages: good.messages };
const stringContent = { ...good, messages: [{ role: "user", content: "hi" }] };

type Call = () => unknown;
const wrap = (f: (x: never) => unknown) => (x: unknown) => () => f(x as never);
const converters: [string, (x: unknown) => Call][] = [
  ["toOpenAIChat", wrap(toOpenAIChat)],
  ["toOpenAIResponses", wrap(toOpenAIResponses)],
  ["toAnthropic", wrap(toAnthropic)],
  ["toGemini", wrap(toGemini)],
  ["segmentRequest", (x) => () => segmentRequest(x as never, { provider: "openai" })],
  ["serializeRequest", (x) => () => serializeRequest(x as never, { provider: "anthropic" })],
  ["suggestCacheBreakpoints", (x) => () => suggestCacheBreakpoints(x as never)],
];

function thrown(f: Call): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("request entry points", () => {
  it.each(
    converters.flatMap(
      ([name, call]) =>
        [
          [name, "undefined", call(undefined), "request"],
          [name, "a block without a type", call(badBlock), "messages[3].content[1].type"],
          [name, "no tools", call(noTools), "tools"],
          [name, "content as a string", call(stringContent), "messages[0].content"],
        ] as const,
    ),
  )("%s with %s throws InvalidInputError naming %s", (_, __, call, field) => {
    const e = thrown(call);
    expect(e).toBeInstanceOf(InvalidInputError);
    expect((e as InvalidInputError).field).toBe(field);
  });

  it("still converts and segments well-formed requests", () => {
    for (const [, call] of converters) expect(call(good)).not.toThrow();
  });
});

describe("message and pipeline entry points", () => {
  it.each<[string, Call, string]>([
    ["messageText(undefined)", () => messageText(undefined as never), "message"],
    [
      "messageText with string content (was silently empty)",
      () => messageText({ role: "user", content: "hi" } as never),
      "message.content",
    ],
    [
      "messageText with a null block",
      () => messageText({ role: "user", content: [{ type: "text", text: "a" }, null] } as never),
      "message.content[1]",
    ],
    [
      "messageText with a numeric text",
      () => messageText({ role: "user", content: [{ type: "text", text: 3 }] } as never),
      "message.content[0].text",
    ],
    ["runRequestPipeline(undefined)", () => runRequestPipeline(undefined as never), "input"],
    [
      "runRequestPipeline with a malformed history",
      () => runRequestPipeline({ packet: { text: "x" }, history: [{ role: "user" }] } as never),
      "history[0].content",
    ],
    ["applyContextBudget(undefined)", () => applyContextBudget(undefined as never), "options"],
    [
      "applyContextBudget with a malformed item",
      () =>
        applyContextBudget({
          items: [{ source: "input", message: { role: "user", content: "x" } }],
          budget: { maxInputTokens: 5 },
        } as never),
      "items[0].message.content",
    ],
    [
      "applyContextBudget with an unlabeled item",
      () => applyContextBudget({ items: [{ message: good.messages[0] }], budget: { maxInputTokens: 5 } } as never),
      "items[0]",
    ],
    ["getContextBudgetReport(undefined)", () => getContextBudgetReport(undefined as never), "request"],
    ["resolveGuidance(undefined)", () => resolveGuidance(undefined as never), "params"],
    ["resolveGuidance without a registry", () => resolveGuidance({ toolName: "search" } as never), "registry"],
    ["prepareAssembly(undefined)", () => prepareAssembly(undefined as never), "request"],
    [
      "prepareAssembly with a malformed tail segment",
      () => prepareAssembly({ model: good.model, input: "x", tailSegments: [{ id: "a", message: null }] } as never),
      "tailSegments[0].message",
    ],
    [
      "prepareAssembly with a template that is a string",
      () => prepareAssembly({ model: good.model, input: "x", template: "{{ x }}" } as never),
      "template",
    ],
    [
      "validateHistory with a malformed tool call",
      () => validateHistory([{ role: "assistant", content: [{ type: "tool_call", id: 1, name: "f" }] }] as never),
      "messages[0].content[0].id",
    ],
  ])("%s throws InvalidInputError naming %s", (_, call, field) => {
    const e = thrown(call);
    expect(e).toBeInstanceOf(InvalidInputError);
    expect((e as InvalidInputError).field).toBe(field);
  });

  it.each<[string, unknown, unknown, string]>([
    ["undefined", undefined, { reply: "r", nextInput: "n" }, "request"],
    ["a request without a model", { input: "x" }, { reply: "r", nextInput: "n" }, "model"],
    ["no options", { model: good.model, input: "x" }, undefined, "options"],
    ["a numeric reply", { model: good.model, input: "x" }, { reply: 5, nextInput: "n" }, "reply"],
    [
      "a malformed next input",
      { model: good.model, input: "x" },
      { reply: "r", nextInput: [{ role: "user", content: 1 }] },
      "nextInput[0].content",
    ],
  ])("simulateNextTurn with %s rejects with InvalidInputError naming %s", async (_, request, options, field) => {
    const e = await simulateNextTurn(request as never, options as never).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StrataError);
    expect((e as InvalidInputError).field).toBe(field);
  });
});
