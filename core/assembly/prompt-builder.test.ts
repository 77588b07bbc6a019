import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { systemMessage, textMessage, userMessage } from "../messages/index.ts";
import type { Message, ModelRef } from "../messages/index.ts";
import { composePrompt, createDefaultPromptBuilder } from "./prompt-builder.ts";
import { contextBlockMessage, skillBodyMessage, skillMessage, toolDeclarationsText } from "./prompt-shapes.ts";
import type { PromptBuildRequest } from "./types.ts";

const first = (m: Message): string => {
  const b = m.content[0]!;
  return b.type === "text" ? b.text : b.type;
};
const model = (tools?: boolean): ModelRef =>
  tools === undefined ? { provider: "p", model: "m" } : { provider: "p", model: "m", capabilities: { tools } };

// Input-builder messages in cache_aware order: instructions, attachment, summary, history, input.
const cacheAwareInput: Message[] = [
  systemMessage("System instruction:\nI"),
  userMessage("Attachment a:\nA"),
  systemMessage("Summary:\nS"),
  userMessage("H"),
  userMessage("now"),
];
const legacyInput: Message[] = [
  systemMessage("System instruction:\nI"),
  systemMessage("Summary:\nS"),
  userMessage("H"),
  userMessage("now"),
  userMessage("Attachment a:\nA"),
];
const extras = {
  context: [{ id: "readme", title: "README", content: "ctx" }],
  skills: [{ name: "review", description: "Reviews code" }],
  tools: [{ name: "lookup", description: "Looks things up" }],
  model: model(),
} satisfies Partial<PromptBuildRequest>;

describe("default prompt builder composition (spec orders)", () => {
  it("cache_aware: leading system messages → context → skills → text tools → remaining input", async () => {
    const out = await createDefaultPromptBuilder().build({ messages: cacheAwareInput, ...extras });
    expect(out.map(first)).toEqual([
      "System instruction:\nI",
      "Context README:\nctx",
      "Skill review: Reviews code",
      "Available tools:\n- lookup: Looks things up",
      "Attachment a:\nA",
      "Summary:\nS",
      "H",
      "now",
    ]);
  });

  it("legacy: context → skills → text tools → all input messages", async () => {
    const out = await createDefaultPromptBuilder().build({ messages: legacyInput, ...extras, inputLayout: "legacy" });
    expect(out.map(first)).toEqual([
      "Context README:\nctx",
      "Skill review: Reviews code",
      "Available tools:\n- lookup: Looks things up",
      "System instruction:\nI",
      "Summary:\nS",
      "H",
      "now",
      "Attachment a:\nA",
    ]);
  });

  it("passes input messages through by identity", async () => {
    const out = await createDefaultPromptBuilder().build({ messages: cacheAwareInput, ...extras });
    for (const m of cacheAwareInput) expect(out).toContain(m);
  });

  it("uses instructionCount as the stable boundary when given", () => {
    const messages = [systemMessage("I"), systemMessage("Summary:\nS"), userMessage("now")];
    const byRun = composePrompt({ messages, context: [{ content: "c" }] }).map((i) => first(i.message));
    const byCount = composePrompt({ messages, context: [{ content: "c" }], instructionCount: 1 }).map((i) =>
      first(i.message),
    );
    expect(byRun).toEqual(["I", "Summary:\nS", "Context:\nc", "now"]);
    expect(byCount).toEqual(["I", "Context:\nc", "Summary:\nS", "now"]);
  });

  it.each<[string, ModelRef | undefined, boolean]>([
    ["capabilities.tools === true", model(true), false],
    ["capabilities.tools === false", model(false), true],
    ["no declared capability (fail-safe)", model(), true],
    ["no model at all", undefined, true],
  ])("text tool declarations with %s: %s", async (_, m, emitted) => {
    const out = await createDefaultPromptBuilder().build({
      messages: [userMessage("x")],
      tools: extras.tools,
      ...(m === undefined ? {} : { model: m }),
    });
    expect(out.some((msg) => first(msg).startsWith("Available tools:"))).toBe(emitted);
  });

  it("emits no tool declarations without tools", async () => {
    const out = await createDefaultPromptBuilder().build({ messages: [userMessage("x")], tools: [] });
    expect(out).toHaveLength(1);
  });

  it("renders skill bodies in place, or only catalog rows when bodies are in the tail", () => {
    const skills = [{ name: "review", description: "Reviews code", instructions: "Check tests." }, { name: "plain" }];
    expect(composePrompt({ messages: [], skills }).map((i) => first(i.message))).toEqual([
      "Skill review: Reviews code\nCheck tests.",
      "Skill plain",
    ]);
    expect(composePrompt({ messages: [], skills, tailSkillBodies: true }).map((i) => first(i.message))).toEqual([
      "Skill review: Reviews code",
      "Skill plain",
    ]);
  });

  it("labels what it inserts and marks passed-through messages as custom by default", () => {
    const items = composePrompt({ messages: [userMessage("x")], ...extras });
    expect(items.map((i) => i.source)).toEqual(["context:readme", "skill:review", "tools", "custom"]);
    const untitled = composePrompt({ messages: [], context: [{ title: "T", content: "a" }, { content: "b" }] });
    expect(untitled.map((i) => i.source)).toEqual(["context:T", "context:1"]);
  });

  it("rejects malformed requests naming the field", async () => {
    await expect(createDefaultPromptBuilder().build({ messages: "x" as never })).rejects.toThrow(InvalidInputError);
    await expect(
      createDefaultPromptBuilder().build({ messages: [], context: [{ content: 1 as never }] }),
    ).rejects.toThrow(/request\.context\[0\]\.content/);
    await expect(createDefaultPromptBuilder().build({ messages: [], skills: [{} as never] })).rejects.toThrow(
      /request\.skills\[0\]\.name/,
    );
    await expect(createDefaultPromptBuilder().build({ messages: [], instructionCount: 3 })).rejects.toThrow(
      /instructionCount/,
    );
  });
});

describe("text shapes", () => {
  it.each<[string, Message, Message]>([
    [
      "a titled context block",
      contextBlockMessage({ title: "README", content: "x" }),
      systemMessage("Context README:\nx"),
    ],
    ["an untitled block with an id", contextBlockMessage({ id: "k", content: "x" }), systemMessage("Context k:\nx")],
    ["an anonymous block", contextBlockMessage({ content: "x" }), systemMessage("Context:\nx")],
    [
      "a block of content blocks",
      contextBlockMessage({ title: "Pic", content: [{ type: "image", url: "u" }] }),
      {
        role: "system",
        content: [
          { type: "text", text: "Context Pic:" },
          { type: "image", url: "u" },
        ],
      },
    ],
    [
      "a catalog row",
      skillMessage({ name: "s", description: "d", instructions: "body" }, true),
      systemMessage("Skill s: d"),
    ],
    ["a skill without description", skillMessage({ name: "s" }, false), systemMessage("Skill s")],
    [
      "a skill body in the tail",
      skillBodyMessage({ name: "s", instructions: "body" }),
      textMessage("system", "Skill s instructions:\nbody"),
    ],
  ])("%s", (_, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it("declares tools with sorted JSON schemas", () => {
    expect(
      toolDeclarationsText([
        {
          name: "a",
          description: "A",
          inputSchema: { type: "object", properties: { z: { type: "string" }, b: { type: "number" } } },
        },
        { name: "b" },
      ]),
    ).toBe(
      'Available tools:\n- a: A\n  Input schema: {"properties":{"b":{"type":"number"},"z":{"type":"string"}},"type":"object"}\n- b',
    );
  });
});
