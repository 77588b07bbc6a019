import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { segmentRequest } from "./segments.ts";

function nested(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = wrap(v);
  return v;
}

function errorOf(f: () => unknown): InvalidInputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return e as InvalidInputError;
  }
  throw new Error("expected an InvalidInputError");
}

describe("segmentRequest on hostile caller JSON", () => {
  const request = (args: unknown) => ({
    model: { provider: "openai", model: "gpt-4o" },
    tools: [],
    messages: [
      {
        role: "assistant" as const,
        content: [{ type: "tool_call" as const, id: "c1", name: "f", arguments: args as never }],
      },
    ],
  });

  it("names the block whose arguments nest too deep for a canonical form", () => {
    const e = errorOf(() => segmentRequest(request({ a: nested(1_500, (v) => ({ a: v })) }), { provider: "openai" }));
    expect(e.code).toBe("json_too_deep");
    expect(e.field.startsWith("messages[0].content[0].arguments.a")).toBe(true);
  });

  it.each<[string, () => unknown, string, string]>([
    [
      "100,000 levels",
      () => nested(100_000, (v) => [v]),
      "json_too_deep",
      `messages[0].content[0].arguments${"[0]".repeat(11)}…(1000 levels deep)`,
    ],
    [
      "a cycle",
      () => {
        const o: Record<string, unknown> = {};
        o["self"] = o;
        return o;
      },
      "json_cycle",
      "messages[0].content[0].arguments.self",
    ],
    ["a BigInt", () => ({ n: 1n }), "not_json", "messages[0].content[0].arguments.n"],
  ])("names the field whose arguments hold %s, the same in every runtime", (_, make, code, field) => {
    expect(errorOf(() => segmentRequest(request(make()), { provider: "anthropic" }))).toMatchObject({ code, field });
  });
});
