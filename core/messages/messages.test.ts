import { describe, expect, it } from "vitest";
import { UnsupportedModalityError } from "./errors.ts";
import {
  assertMessagesSupportModelCapabilities,
  blockModality,
  isContentBlockType,
  isRole,
  messageText,
  textMessage,
  toolCallBlock,
  toolCallsOf,
  toolResultMessage,
  toolResultsOf,
  userMessage,
} from "./index.ts";
import type { Message } from "./index.ts";
import { isPlainObject } from "../util/plain-object.ts";

describe("message constructors", () => {
  it("builds a user text message in the spec's shape", () => {
    expect(userMessage("Hello")).toEqual({ role: "user", content: [{ type: "text", text: "Hello" }] });
  });

  it("builds a tool result message with a tool_result block", () => {
    expect(toolResultMessage("call_1", "lookup", { ok: true })).toEqual({
      role: "tool",
      content: [{ type: "tool_result", toolCallId: "call_1", name: "lookup", result: { ok: true } }],
    });
  });

  it("keeps isError only when it is given", () => {
    expect(toolResultMessage("c", "n", "boom", true).content[0]).toHaveProperty("isError", true);
    expect(toolResultMessage("c", "n", "ok").content[0]).not.toHaveProperty("isError");
  });
});

describe("guards", () => {
  it.each([
    ["system", true],
    ["user", true],
    ["assistant", true],
    ["tool", true],
    ["developer", false],
    ["", false],
    [1, false],
  ] as const)("isRole(%j) is %s", (value, expected) => {
    expect(isRole(value)).toBe(expected);
  });

  it("recognises every content block type and nothing else", () => {
    for (const type of ["text", "image", "audio", "file", "document", "thinking", "tool_call", "tool_result"]) {
      expect(isContentBlockType(type)).toBe(true);
    }
    expect(isContentBlockType("video")).toBe(false);
    expect(isContentBlockType("toString")).toBe(false);
  });
});

describe("message helpers", () => {
  const mixed: Message = {
    role: "assistant",
    content: [
      { type: "text", text: "a" },
      { type: "thinking", text: "hidden" },
      toolCallBlock("c1", "search", { q: "x" }),
      { type: "text", text: "b" },
    ],
  };

  it("joins only text blocks", () => {
    expect(messageText(mixed)).toBe("a\nb");
    expect(messageText({ role: "user", content: [] })).toBe("");
  });

  it("lists tool calls and results in order", () => {
    expect(toolCallsOf(mixed).map((c) => c.id)).toEqual(["c1"]);
    expect(toolResultsOf(toolResultMessage("c1", "search", 1)).map((r) => r.toolCallId)).toEqual(["c1"]);
  });

  it("maps blocks to the modality they need", () => {
    expect(blockModality({ type: "image", url: "https://x/y.png" })).toBe("image");
    expect(blockModality({ type: "thinking", text: "" })).toBeUndefined();
    expect(blockModality(toolCallBlock("a", "b"))).toBeUndefined();
  });
});

describe("assertMessagesSupportModelCapabilities", () => {
  const withAudio: Message[] = [
    textMessage("system", "s"),
    {
      role: "user",
      content: [
        { type: "text", text: "hi" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
    },
  ];

  it("does not check models that declare no input modalities", () => {
    expect(() => assertMessagesSupportModelCapabilities(withAudio, { provider: "p", model: "m" })).not.toThrow();
  });

  it("accepts declared modalities", () => {
    expect(() =>
      assertMessagesSupportModelCapabilities(withAudio, {
        provider: "p",
        model: "m",
        capabilities: { input: ["text", "audio"] },
      }),
    ).not.toThrow();
  });

  it("throws UnsupportedModalityError naming the block's path", () => {
    let error: unknown;
    try {
      assertMessagesSupportModelCapabilities(withAudio, {
        provider: "p",
        model: "m",
        capabilities: { input: ["text", "image"] },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnsupportedModalityError);
    const typed = error as UnsupportedModalityError;
    expect(typed.code).toBe("unsupported_modality");
    expect([typed.modality, typed.messageIndex, typed.blockIndex]).toEqual(["audio", 1, 1]);
    expect(typed.message).toContain("messages[1].content[1]");
  });
});

describe("isPlainObject", () => {
  it("accepts literals, JSON output and null-prototype objects, but not class instances", () => {
    class Point {
      x = 1;
    }
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(JSON.parse('{"a":1}') as object)).toBe(true);
    expect(isPlainObject(Object.create(null) as object)).toBe(true);
    expect(isPlainObject(new Point())).toBe(false);
    expect(isPlainObject(new Date(0))).toBe(false);
    expect(isPlainObject(new Map())).toBe(false);
  });

  it("accepts an object from another realm's Object.prototype", () => {
    const foreignObjectPrototype = Object.create(null) as object;
    expect(isPlainObject(Object.create(foreignObjectPrototype) as object)).toBe(true);
  });
});
