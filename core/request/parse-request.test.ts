import { describe, expect, it } from "vitest";
import { RequestFormatError } from "../formats/errors.ts";
import { badSamples } from "../test-support/samples-bad.ts";
import { samples } from "../test-support/samples.ts";
import { parseRequest } from "./parse-request.ts";

function errorOf(fn: () => unknown): RequestFormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RequestFormatError) return e;
    throw e;
  }
  throw new Error("expected a RequestFormatError");
}

describe("parseRequest detection", () => {
  it.each(samples.map((s) => [s.id, s.format, s.data] as const))("detects the %s sample as %s", (_id, format, data) => {
    expect(parseRequest(JSON.stringify(data)).format).toBe(format);
  });

  it.each([
    [
      "a plain chat request for a GPT model",
      { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] },
      "openai-chat",
    ],
    [
      "a plain request for a Claude model",
      { model: "claude-haiku-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] },
      "anthropic",
    ],
    [
      "a request with a top-level system string",
      { model: "x", system: "Be brief.", messages: [{ role: "user", content: "hi" }] },
      "anthropic",
    ],
    [
      "a system-role message for a Claude model name",
      {
        model: "claude-x",
        messages: [
          { role: "system", content: "s" },
          { role: "user", content: "hi" },
        ],
      },
      "openai-chat",
    ],
    ["a Responses request with string input", { model: "gpt-5", input: "hi" }, "openai-responses"],
    ["a Gemini body without a model", { contents: [{ parts: [{ text: "hi" }] }] }, "gemini"],
    ["a Strata request", { model: { provider: "openai", model: "gpt-4o" }, input: "hi" }, "strata"],
  ])("detects %s", (_name, value, format) => {
    expect(parseRequest(value).format).toBe(format);
  });

  it("parses a forced format or says why it is not that format", () => {
    expect(parseRequest({ model: "x", messages: [] }, { format: "anthropic" }).format).toBe("anthropic");
    const e = errorOf(() => parseRequest({ model: "x", messages: [] }, { format: "gemini" }));
    expect(e.code).toBe("invalid_request");
    expect(e.issues[0]).toMatchObject({ path: "contents", code: "missing_field" });
    expect(e.tried).toEqual(["gemini"]);
  });

  it("keeps unknown top-level parameters as provider options, in order", () => {
    const parsed = parseRequest({
      model: "gpt-4o",
      seed: 7,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    if (parsed.format === "strata") throw new Error("wrong format");
    expect(parsed.request.providerOptions).toEqual({ seed: 7, stream: true });
    expect(Object.keys(parsed.request.providerOptions!)).toEqual(["seed", "stream"]);
  });

  it("keeps tool-call arguments that are not compact JSON as text, so their bytes survive", () => {
    const parsed = parseRequest({
      model: "gpt-4o",
      messages: [
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{ "a": 1 }' } }],
        },
      ],
    });
    if (parsed.format !== "openai-chat") throw new Error("wrong format");
    expect(parsed.request.messages[0]!.content[0]).toMatchObject({ type: "tool_call", arguments: '{ "a": 1 }' });
  });

  it("names tool results after the call they answer", () => {
    const parsed = parseRequest(samples.find((s) => s.id === "anthropic")!.data);
    if (parsed.format !== "anthropic") throw new Error("wrong format");
    expect(parsed.request.messages[3]).toMatchObject({
      role: "tool",
      content: [{ type: "tool_result", toolCallId: "toolu_01D7xT", name: "search_docs" }],
    });
  });
});

describe("parseRequest errors", () => {
  it.each(badSamples.map((b) => [b.id, b] as const))(
    "rejects the %s fixture with a typed error and a path",
    (_id, bad) => {
      const e = errorOf(() => parseRequest(bad.text));
      expect(e.code).toBe(bad.expect.code);
      expect(e.issues.length).toBeGreaterThan(0);
      expect(e.issues[0]!.path).toBe(bad.expect.path);
      if (bad.expect.issueCode) expect(e.issues.map((i) => i.code)).toContain(bad.expect.issueCode);
      expect(e.message.length).toBeGreaterThan(20);
    },
  );

  it("gives line and column for JSON syntax errors", () => {
    const e = errorOf(() => parseRequest(badSamples.find((b) => b.id === "truncated")!.text));
    expect(e.issues[0]).toMatchObject({ line: 5, column: 34 });
    expect(e.message).toContain("messages[0].content");
  });

  it("lists every issue of the closest format, and the formats tried", () => {
    const e = errorOf(() =>
      parseRequest({
        model: "claude-sonnet-4-5",
        max_tokens: "1024",
        system: 5,
        messages: [{ role: "user", content: 42 }],
      }),
    );
    expect(e.code).toBe("no_format_matched");
    expect(e.tried[0]).toBe("anthropic");
    expect([...e.tried].sort()).toEqual([
      "anthropic",
      "bedrock-converse",
      "gemini",
      "openai-chat",
      "openai-responses",
      "strata",
    ]);
    expect(e.issues.map((i) => i.path)).toEqual(["max_tokens", "system", "messages[0].content"]);
    expect(e.issues[2]!.message).toBe("expected a string or an array, got the number 42");
    expect(e.message).toContain("Closest: anthropic, with 3 issues");
  });

  it("keeps a block of a type it does not know, and names it in a warning", () => {
    const text = JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 256,
      messages: [{ role: "user", content: [{ type: "txt", text: "hi" }] }],
    });
    const parsed = parseRequest(text);
    if (parsed.format !== "anthropic") throw new Error(`detected ${parsed.format}`);
    expect(parsed.request.messages[0]!.content[0]).toEqual({
      type: "opaque",
      format: "anthropic",
      wireType: "txt",
      value: { type: "txt", text: "hi" },
    });
    expect(parsed.warnings).toEqual([
      expect.objectContaining({ code: "unknown_block_type", path: "messages[0].content[0]" }),
    ]);
    expect(parsed.warnings[0]!.message).toContain('"txt"');
  });

  it("names an invisible byte-order mark inside the JSON", () => {
    expect(
      errorOf(() => parseRequest(badSamples.find((b) => b.id === "bom-inside")!.text)).issues[0]!.message,
    ).toContain("byte-order mark U+FEFF");
  });

  it("rejects a 50 MB string with its path, without hashing or copying it", () => {
    const big = "x".repeat(50 * 1024 * 1024);
    const e = errorOf(() => parseRequest({ model: "gpt-4o", messages: [{ role: "user", content: big }] }));
    expect(e.code).toBe("invalid_json_data");
    expect(e.issues[0]).toMatchObject({ code: "string_too_long", path: "messages[0].content" });
  });

  it("rejects non-JSON values and cycles in a value input", () => {
    const cyclic: Record<string, unknown> = { model: "gpt-4o", messages: [] };
    cyclic.self = cyclic;
    expect(errorOf(() => parseRequest(cyclic)).issues[0]).toMatchObject({ code: "not_json", path: "self" });
    expect(
      errorOf(() => parseRequest({ model: "gpt-4o", temperature: Number.NaN, messages: [] })).issues[0],
    ).toMatchObject({ code: "not_json", path: "temperature" });
  });

  it("rejects deep nesting in a value input without recursing", () => {
    let deep: unknown = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const e = errorOf(() => parseRequest({ model: "gpt-4o", messages: [], metadata: deep }));
    expect(e.issues[0]!.code).toBe("json_too_deep");
  });

  it("rejects a Strata request with a misspelt option by name", () => {
    const e = errorOf(() =>
      parseRequest({ model: { provider: "openai", model: "gpt-4o" }, input: "hi", systemInstruction: "x" }),
    );
    expect(e.tried[0]).toBe("strata");
    expect(e.issues[0]).toMatchObject({ code: "unknown_field", message: 'unknown field(s) "systemInstruction"' });
  });
});

describe("schema edges", () => {
  const issuesOf = (body: unknown) => {
    try {
      parseRequest(body);
    } catch (error) {
      expect(error).toBeInstanceOf(RequestFormatError);
      return (error as RequestFormatError).issues.map((i) => [i.path, i.message]);
    }
    throw new Error("expected a RequestFormatError");
  };
  const strata = { model: { provider: "openai", model: "gpt-4o" }, input: "x" };

  it.each([0, -5, 1.5])("rejects a context budget cap of %d with the message assembly gives (≥ 1)", (cap) => {
    for (const key of ["maxInputTokens", "maxInputBytes"]) {
      const issues = issuesOf({ ...strata, contextBudget: { [key]: cap } });
      expect(issues[0]![0]).toBe(`contextBudget.${key}`);
      if (cap !== 1.5) expect(issues[0]![1]).toContain("≥ 1");
    }
    expect(parseRequest({ ...strata, contextBudget: { maxInputTokens: 1 } }).format).toBe("strata");
  });

  it("rejects max_tokens that is a string, in Anthropic and OpenAI Chat requests", () => {
    const messages = [{ role: "user", content: "hi" }];
    expect(issuesOf({ model: "claude-sonnet-4-5", max_tokens: "2048", messages })).toContainEqual([
      "max_tokens",
      'expected a number, got the string "2048"',
    ]);
    expect(issuesOf({ model: "gpt-4o", max_tokens: "10", messages }).map((i) => i[0])).toContain("max_tokens");
    expect(parseRequest({ model: "claude-sonnet-4-5", max_tokens: 2048, messages }).format).toBe("anthropic");
    expect(parseRequest({ model: "gpt-4o", max_tokens: null, messages }).format).toBe("openai-chat");
  });
});
