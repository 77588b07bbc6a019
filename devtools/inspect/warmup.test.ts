import { describe, expect, it } from "vitest";
import { parseRequest } from "../../core/request/index.ts";
import { WARM_TURNS, warmupRequest } from "./warmup.ts";

describe("the warm-up request", () => {
  it("is a valid OpenAI Chat request with tools, tool calls and results, the same for the same seed", () => {
    const text = warmupRequest(12, 3);
    expect(warmupRequest(12, 3)).toBe(text);
    expect(warmupRequest(12, 4)).not.toBe(text);
    const parsed = parseRequest(text);
    expect(parsed.format).toBe("openai-chat");
    const body = JSON.parse(text) as { messages: { role: string }[]; tools: unknown[] };
    expect(body.messages).toHaveLength(1 + 12 * 4);
    expect(new Set(body.messages.map((m) => m.role))).toEqual(new Set(["system", "user", "assistant", "tool"]));
    expect(body.tools).toHaveLength(1);
  });

  it("with fewer turns and the same seed, is an earlier turn of the same conversation (the warm-up's previous turn)", () => {
    const longer = JSON.parse(warmupRequest(20, 2)) as { messages: unknown[] };
    const shorter = JSON.parse(warmupRequest(12, 2)) as { messages: unknown[] };
    expect(longer.messages.slice(0, shorter.messages.length)).toEqual(shorter.messages);
  });

  it("is about a third of a megabyte at the warm-up's size, with some non-ASCII text", () => {
    const text = warmupRequest(WARM_TURNS, 1);
    expect(text.length).toBeGreaterThan(200_000);
    expect(text.length).toBeLessThan(500_000);
    expect(/[\u0080-\uffff]/.test(text)).toBe(true);
  });
});
