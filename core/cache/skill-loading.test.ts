// Loading a skill mid-session adds its body at the session tail (the cache_aware layout). For every
// provider that must read as an append: formats with one system slot write a later system message in
// place, as a marked user turn, instead of hoisting it into the system prompt.
import { describe, expect, it } from "vitest";
import { assembleProviderInput } from "../assembly/assemble.ts";
import { toAnthropic } from "../formats/anthropic.ts";
import { toBedrock } from "../formats/bedrock.ts";
import { toGemini } from "../formats/gemini.ts";
import { toOpenAIChat } from "../formats/openai-chat.ts";
import { toOpenAIResponses } from "../formats/openai-responses.ts";
import { DEFAULT_SYSTEM_MARKER } from "../formats/system-placement.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { Message } from "../messages/types.ts";
import { parseRequest } from "../request/parse-request.ts";
import { compareRequests } from "./compare.ts";
import type { CacheProvider } from "./types.ts";

const skill = { name: "review", description: "Reviews pull requests" };
async function turn(provider: string, model: string, loaded: boolean): Promise<NormalizedRequest> {
  const { signal: _s, ...request } = await assembleProviderInput({
    model: { provider, model },
    systemInstructions: "You are a careful assistant.",
    history: [
      { role: "user", content: [{ type: "text", text: "Please look at my change." }] },
      { role: "assistant", content: [{ type: "text", text: "Sure, send it over." }] },
    ] as Message[],
    input: "Here it is: the diff.",
    skills: [loaded ? { ...skill, instructions: "Check tests first, then naming." } : skill],
    tailSegments: new Map(),
  });
  return request;
}

const wire = (body: unknown): NormalizedRequest => {
  const p = parseRequest(body);
  if (p.format === "strata") throw new Error("expected a wire request");
  return p.request;
};

const cases: [string, CacheProvider, string, (r: NormalizedRequest) => unknown][] = [
  ["anthropic", "anthropic", "claude-sonnet-4-5", (r) => toAnthropic(r).body],
  ["gemini", "gemini", "gemini-2.5-flash", (r) => toGemini(r).body],
  ["openai-chat", "openai", "gpt-4o", (r) => toOpenAIChat(r).body],
  ["openai-responses", "openai", "gpt-4o", (r) => toOpenAIResponses(r).body],
  ["bedrock-converse", "anthropic", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", (r) => toBedrock(r).body],
];

describe("loading a skill is an append", () => {
  it.each(cases)("%s: before / after loading a skill compare as appended", async (_f, provider, model, write) => {
    const before = await turn(provider === "openai" ? "openai" : provider, model, false);
    const after = await turn(provider === "openai" ? "openai" : provider, model, true);
    expect(after.messages.length).toBe(before.messages.length + 1);
    expect(after.messages[after.messages.length - 1]!.role).toBe("system");
    // The normalized requests, segmented in the provider's prompt order.
    const normalized = compareRequests(before, after, { provider }).divergence;
    expect(normalized?.cause).toBe("appended");
    expect(normalized?.bustsCache).toBe(false);
    // The wire bodies the converter writes, read back.
    const sent = compareRequests(wire(write(before)), wire(write(after)), { provider }).divergence;
    expect(sent?.cause).toBe("appended");
    expect(sent?.bustsCache).toBe(false);
  });

  it("Anthropic and Gemini keep the system slot unchanged and write the skill as a marked user turn", async () => {
    const before = await turn("anthropic", "claude-sonnet-4-5", false);
    const after = await turn("anthropic", "claude-sonnet-4-5", true);
    const [a, b] = [toAnthropic(before).body, toAnthropic(after).body] as {
      system?: unknown;
      messages: { role: string; content: unknown }[];
    }[];
    expect(b!.system).toEqual(a!.system);
    const last = b!.messages[b!.messages.length - 1]!;
    expect(last.role).toBe("user");
    expect(last.content).toBe(
      `${DEFAULT_SYSTEM_MARKER.open}Skill review instructions:\nCheck tests first, then naming.${DEFAULT_SYSTEM_MARKER.close}`,
    );
    const g = toGemini(after).body as {
      systemInstruction: unknown;
      contents: { role: string; parts: { text: string }[] }[];
    };
    expect(g.systemInstruction).toEqual(toGemini(before).body.systemInstruction);
    expect(g.contents[g.contents.length - 1]!.role).toBe("user");
    expect(g.contents[g.contents.length - 1]!.parts[0]!.text.startsWith(DEFAULT_SYSTEM_MARKER.open)).toBe(true);
  });

  it("the marker is configurable, and a bad one is a typed error", async () => {
    const after = await turn("anthropic", "claude-sonnet-4-5", true);
    const body = toAnthropic(after, { systemMarker: { open: "[system] ", close: "" } }).body as {
      messages: { content: unknown }[];
    };
    expect(body.messages[body.messages.length - 1]!.content).toBe(
      "[system] Skill review instructions:\nCheck tests first, then naming.",
    );
    expect(() => toAnthropic(after, { systemMarker: { open: 1 } as never }).body).toThrow(/systemMarker/);
  });
});
