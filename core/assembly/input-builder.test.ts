import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { toolCallBlock, userMessage } from "../messages/index.ts";
import type { Message } from "../messages/index.ts";
import { createDefaultInputBuilder } from "./input-builder.ts";
import { EMPTY_TOOL_RESULT_TEXT } from "./input-shapes.ts";
import type { DefaultInputBuildContext } from "./types.ts";

const texts = (messages: readonly Message[]): string[] =>
  messages.map((m) => `${m.role}|${m.content.map((b) => (b.type === "text" ? b.text : b.type)).join("+")}`);

describe("createDefaultInputBuilder", () => {
  it("reproduces the spec's three-message example byte for byte", async () => {
    const expected = `[
  { "role": "system", "content": [{ "type": "text", "text": "System instruction:\\nAnswer briefly." }] },
  { "role": "user", "content": [{ "type": "text", "text": "Attachment notes.md:\\nRemember the release date." }] },
  { "role": "user", "content": [{ "type": "text", "text": "Hello" }] }
]`;
    const messages = await createDefaultInputBuilder().build("Hello", {
      systemInstructions: "Answer briefly.",
      attachments: [{ name: "notes.md", text: "Remember the release date." }],
    });
    expect(JSON.stringify(messages)).toBe(JSON.stringify(JSON.parse(expected)));
  });

  it("builds the spec's full input example in cache_aware order", async () => {
    const history: Message[] = [
      userMessage("earlier"),
      { role: "assistant", content: [{ type: "text", text: "reply" }] },
    ];
    const messages = await createDefaultInputBuilder().build("Summarize", {
      systemInstructions: "Be accurate.",
      developerInstructions: "Cite supplied context only.",
      history,
      attachments: [{ name: "notes.md", text: "# Notes" }],
      toolResults: [{ toolCallId: "call_1", name: "lookup", value: { ok: true } }],
      metadata: { requestId: "r1" },
    });
    expect(texts(messages)).toEqual([
      "system|System instruction:\nBe accurate.",
      "system|Developer instruction:\nCite supplied context only.",
      "user|Attachment notes.md:\n# Notes",
      "user|earlier",
      "assistant|reply",
      "tool|tool_result",
      "user|Summarize",
    ]);
    expect(messages[5]).toEqual({
      role: "tool",
      content: [{ type: "tool_result", toolCallId: "call_1", name: "lookup", result: { ok: true } }],
    });
    expect(messages[3]).toBe(history[0]);
  });

  it("keeps Message and Message[] input as given", async () => {
    const one = userMessage("one");
    const two: Message[] = [userMessage("a"), { role: "assistant", content: [toolCallBlock("c", "t")] }];
    expect((await createDefaultInputBuilder().build(one))[0]).toBe(one);
    const built = await createDefaultInputBuilder().build(two);
    expect(built[0]).toBe(two[0]);
    expect(built[1]).toBe(two[1]);
  });

  it.each<[string, DefaultInputBuildContext, string[]]>([
    [
      "labeled instructions use the label as heading",
      { systemInstructions: [{ label: "Style", text: "Short." }, "Plain."] },
      ["system|Style:\nShort.", "system|System instruction:\nPlain.", "user|x"],
    ],
    [
      "developer instruction lists",
      { developerInstructions: ["a", { text: "b" }] },
      ["system|Developer instruction:\na", "system|Developer instruction:\nb", "user|x"],
    ],
    ["summaries as string", { summaries: "so far" }, ["system|Summary:\nso far", "user|x"]],
    [
      "summaries with ids",
      { summaries: [{ id: "s1", text: "one" }, "two"] },
      ["system|Summary:\none", "system|Summary:\ntwo", "user|x"],
    ],
  ])("%s", async (_, context, expected) => {
    expect(texts(await createDefaultInputBuilder().build("x", context))).toEqual(expected);
  });

  it("passes content attachments (audio, file, document, image) through unchanged", async () => {
    const content = [
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "file", url: "https://x/y.pdf", name: "y.pdf" },
      { type: "document", text: "doc" },
      { type: "image", url: "https://x/i.png" },
    ] as const;
    const [attachment] = await createDefaultInputBuilder().build("x", { attachments: [{ name: "media", content }] });
    expect(attachment).toEqual({ role: "user", content });
    expect(attachment!.content).toBe(content);
  });

  it("loads explicit resources through the caller's loader (spec implementation example)", async () => {
    const loaded: string[] = [];
    const messages = await createDefaultInputBuilder().build("Review package://demo/prompt.md", {
      resourceUris: ["package://demo/prompt.md"],
      resourceLoader: {
        async load(uri) {
          loaded.push(uri);
          return { uri, text: "Host-loaded resource text." };
        },
      },
    });
    expect(loaded).toEqual(["package://demo/prompt.md"]);
    expect(texts(messages)).toEqual([
      "user|Resource package://demo/prompt.md:\nHost-loaded resource text.",
      "user|Review package://demo/prompt.md",
    ]);
  });

  it("loads URI attachments, named or not, and accepts strings and content from the loader", async () => {
    const messages = await createDefaultInputBuilder().build("x", {
      attachments: [{ name: "spec.md", uri: "mem://spec" }, { uri: "mem://raw" }, { uri: "mem://img" }],
      resourceLoader: {
        load: (uri) =>
          uri === "mem://img" ? { content: [{ type: "image", url: "https://x/i.png" }] } : `text of ${uri}`,
      },
      inputLayout: "legacy",
    });
    expect(texts(messages)).toEqual([
      "user|x",
      "user|Attachment spec.md:\ntext of mem://spec",
      "user|Resource mem://raw:\ntext of mem://raw",
      "user|image",
    ]);
  });

  it("does not run middleware itself", async () => {
    let calls = 0;
    const middleware = {
      use: () => middleware,
      run: async () => {
        calls++;
        return [];
      },
      count: () => 1,
    };
    await createDefaultInputBuilder().build("x", { middleware: middleware as never });
    expect(calls).toBe(0);
  });
});

describe("tool results", () => {
  const build = async (toolResults: NonNullable<DefaultInputBuildContext["toolResults"]>) =>
    (await createDefaultInputBuilder().build("x", { toolResults, inputLayout: "legacy" })).slice(1);

  it.each<[string, NonNullable<DefaultInputBuildContext["toolResults"]>[number], unknown]>([
    [
      "a value",
      { toolCallId: "c", name: "n", value: 0 },
      [{ type: "tool_result", toolCallId: "c", name: "n", result: 0 }],
    ],
    [
      "null as a value",
      { toolCallId: "c", name: "n", value: null },
      [{ type: "tool_result", toolCallId: "c", name: "n", result: null }],
    ],
    [
      "text content as the result",
      {
        toolCallId: "c",
        name: "n",
        content: [
          { type: "text", text: "a" },
          { type: "image", url: "u" },
          { type: "text", text: "b" },
        ],
      },
      [
        { type: "tool_result", toolCallId: "c", name: "n", result: "a\nb" },
        { type: "image", url: "u" },
      ],
    ],
    [
      "an error string",
      { toolCallId: "c", name: "n", error: "boom" },
      [{ type: "tool_result", toolCallId: "c", name: "n", result: "boom", isError: true }],
    ],
    [
      "an error object",
      { toolCallId: "c", name: "n", error: { message: "bad", code: "E" } },
      [{ type: "tool_result", toolCallId: "c", name: "n", result: "bad", isError: true }],
    ],
    [
      "nothing: EMPTY_TOOL_RESULT_TEXT",
      { toolCallId: "c", name: "n" },
      [{ type: "tool_result", toolCallId: "c", name: "n", result: EMPTY_TOOL_RESULT_TEXT }],
    ],
    [
      "only non-text content: EMPTY_TOOL_RESULT_TEXT plus the blocks",
      { toolCallId: "c", name: "n", content: [{ type: "image", url: "u" }] },
      [
        { type: "tool_result", toolCallId: "c", name: "n", result: EMPTY_TOOL_RESULT_TEXT },
        { type: "image", url: "u" },
      ],
    ],
  ])("carries %s", async (_, result, content) => {
    expect(await build([result])).toEqual([{ role: "tool", content }]);
  });

  it("uses the spec's constant text", () => {
    expect(EMPTY_TOOL_RESULT_TEXT).toBe("(tool completed with no output)");
  });
});

describe("bad input fails with a typed error naming the field", () => {
  const cases: [string, unknown, DefaultInputBuildContext, string][] = [
    ["non-string input", 42, {}, "input"],
    [
      "a message with a non-string text",
      { role: "user", content: [{ type: "text", text: 1 }] },
      {},
      "input.content[0].text",
    ],
    ["a message list with a bad role", [userMessage("a"), { role: "robot", content: [] }], {}, "input[1].role"],
    [
      "history text that is not a string",
      "x",
      { history: [userMessage("ok"), { role: "user", content: [{ type: "text", text: null }] } as never] },
      "history[1].content[0].text",
    ],
    [
      "an attachment with neither text, content nor uri",
      "x",
      { attachments: [{ name: "a", text: "t" }, { name: "b" }] },
      "attachments[1]",
    ],
    [
      "an attachment text that is not a string",
      "x",
      { attachments: [{ name: "a", text: 5 as never }] },
      "attachments[0].text",
    ],
    ["a text attachment without a name", "x", { attachments: [{ text: "t" }] }, "attachments[0].name"],
    ["an instruction that is not a string", "x", { systemInstructions: [1 as never] }, "systemInstructions[0]"],
    [
      "a labeled instruction without text",
      "x",
      { developerInstructions: [{ label: "L" } as never] },
      "developerInstructions[0].text",
    ],
    ["a summary without text", "x", { summaries: [{ id: "s" } as never] }, "summaries[0].text"],
    ["a tool result without toolCallId", "x", { toolResults: [{ name: "n" } as never] }, "toolResults[0].toolCallId"],
    ["a resource uri without a loader", "x", { resourceUris: ["mem://a"] }, "resourceUris[0]"],
    [
      "a uri that is not a string",
      "x",
      { resourceUris: [3 as never], resourceLoader: { load: () => "" } },
      "resourceUris[0]",
    ],
  ];
  it.each(cases)("%s", async (_, input, context, field) => {
    const error = await createDefaultInputBuilder()
      .build(input as never, context)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
    expect((error as Error).message.startsWith(`${field}:`)).toBe(true);
  });

  it("wraps a loader that throws, naming the field and keeping the cause", async () => {
    const cause = new Error("disk on fire");
    const error = await createDefaultInputBuilder()
      .build("x", {
        attachments: [{ name: "ok", text: "t" }, { uri: "mem://bad" }],
        resourceLoader: { load: () => Promise.reject(cause) },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: "attachments[1]", code: "resource_load_failed", cause });
    expect((error as Error).message).toContain("disk on fire");
  });

  it("rejects a loader result with neither text nor content", async () => {
    const error = await createDefaultInputBuilder()
      .build("x", { resourceUris: ["mem://a"], resourceLoader: { load: () => ({ uri: "mem://a" }) } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ field: "resourceUris[0]", code: "resource_load_failed" });
  });
});

describe("abort signals", () => {
  it("rejects with the signal's reason when already aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(createDefaultInputBuilder().build("x", { signal: controller.signal })).rejects.toBe(reason);
  });

  it("rejects with the reason when aborted while a loader is pending, even if it never settles", async () => {
    const controller = new AbortController();
    const reason = { why: "user cancelled" };
    const pending = createDefaultInputBuilder().build("x", {
      resourceUris: ["mem://slow"],
      signal: controller.signal,
      resourceLoader: {
        load: () => {
          queueMicrotask(() => controller.abort(reason));
          return new Promise<string>(() => {});
        },
      },
    });
    await expect(pending).rejects.toBe(reason);
  });
});
