/**
 * `parsePrefixRequest`: a previous turn derived from the next one must be exactly what reading it
 * gives (`parseRequest`), and must be derived only when that is certain.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wireBodyArbs } from "../formats/test-support/wire-arbitraries.ts";
import { samples } from "../test-support/samples.ts";
import { WIRE_FORMATS, type WireFormat } from "../formats/types.ts";
import { type ParsedRequest, parsePrefixRequest, parseRequest } from "./parse-request.ts";

type Body = Record<string, unknown>;

const CONVERSATION: Record<WireFormat, string> = {
  "openai-chat": "messages",
  "openai-responses": "input",
  anthropic: "messages",
  gemini: "contents",
  "bedrock-converse": "messages",
};

function read(value: unknown): ParsedRequest | Error {
  try {
    return parseRequest(value);
  } catch (e) {
    return e as Error;
  }
}

/** The body with its conversation cut to `n` items, every key where it was. */
const cut = (body: Body, key: string, n: number): Body => ({ ...body, [key]: (body[key] as unknown[]).slice(0, n) });

/**
 * Every prefix of `body`'s conversation: where one is derived, it equals reading it, warnings
 * included (key order too: the JSON texts are compared). Returns how many were derived.
 */
function checkPrefixes(body: Body, next: ParsedRequest): number {
  const key = next.format === "strata" ? "messages" : CONVERSATION[next.format];
  const items = body[key];
  if (!Array.isArray(items)) return 0;
  let derived = 0;
  for (let n = 0; n <= items.length; n++) {
    const shorter = structuredClone(cut(body, key, n));
    const got = parsePrefixRequest(shorter, body, next);
    if (got === null) continue;
    derived++;
    const want = read(shorter);
    expect(want).not.toBeInstanceOf(Error);
    expect(JSON.stringify(got)).toBe(JSON.stringify(want));
    expect(got).toEqual(want);
  }
  return derived;
}

describe("parsePrefixRequest", () => {
  for (const format of WIRE_FORMATS)
    it(`derives only what parseRequest gives: every prefix of generated ${format} bodies (property, seed 1811)`, () => {
      let derived = 0;
      fc.assert(
        fc.property(wireBodyArbs[format], (body) => {
          const next = read(body);
          if (next instanceof Error) return;
          derived += checkPrefixes(body, next);
        }),
        { seed: 1811, numRuns: 150 },
      );
      // Responses merges items into messages: never derived. Every other format mostly is.
      if (format === "openai-responses") expect(derived).toBe(0);
      else expect(derived).toBeGreaterThan(100);
    });

  it("derives every prefix of the bundled samples, unknown-block warnings cut with their messages", () => {
    let derived = 0;
    for (const sample of samples) {
      const body = structuredClone(sample.data) as Body;
      const next = read(body);
      if (next instanceof Error || next.format === "strata") continue;
      derived += checkPrefixes(body, next);
    }
    expect(derived).toBeGreaterThan(10);
    // A warning on the last message goes with it.
    const body: Body = {
      model: "claude-sonnet-4-5",
      system: "Be brief.",
      messages: [
        { role: "user", content: [{ type: "brand_new_block", payload: 1 }] },
        { role: "assistant", content: "ok" },
        { role: "user", content: [{ type: "brand_new_block", payload: 2 }] },
      ],
    };
    type Wire = Exclude<ParsedRequest, { format: "strata" }>;
    const next = read(body) as Wire;
    expect(next.warnings.map((w) => w.path)).toEqual(["messages[0].content[0]", "messages[2].content[0]"]);
    const two = parsePrefixRequest(cut(body, "messages", 2), body, next) as Wire;
    expect(two.warnings.map((w) => w.path)).toEqual(["messages[0].content[0]"]);
    expect(two.request.messages).toHaveLength(3);
    expect(checkPrefixes(body, next)).toBe(4);
  });

  it("derives nothing that is not the same request with fewer messages", () => {
    const body: Body = {
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Bye" },
      ],
      temperature: 0,
    };
    const next = read(body) as ParsedRequest;
    const messages = body.messages as Body[];
    const derive = (shorter: unknown) => parsePrefixRequest(shorter, body, next);
    expect(derive(cut(body, "messages", 3))).not.toBeNull();
    // An edited message, a changed or missing or added field, another key order, a longer conversation.
    expect(derive({ ...body, messages: [messages[0], { role: "user", content: "Hi!" }] })).toBeNull();
    expect(derive({ ...body, temperature: 1, messages: messages.slice(0, 2) })).toBeNull();
    expect(derive({ model: "gpt-4o", messages: messages.slice(0, 2) })).toBeNull();
    expect(derive({ ...body, top_p: 1, messages: messages.slice(0, 2) })).toBeNull();
    expect(derive({ messages: messages.slice(0, 2), model: "gpt-4o", temperature: 0 })).toBeNull();
    expect(derive({ ...body, messages: [...messages, messages[1]] })).toBeNull();
    expect(derive({ ...body, messages: "Hi" })).toBeNull();
    expect(derive(JSON.stringify(cut(body, "messages", 3)))).toBeNull();
    expect(derive(null)).toBeNull();
    // Detected as another format once cut: only the user turn is left, and Anthropic's model id ranks first.
    const claude: Body = { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "Hi" }, messages[2]] };
    const chat: Body = {
      ...claude,
      messages: [...(claude.messages as Body[]), { role: "tool", tool_call_id: "a", content: "x" }],
    };
    const chatNext = read(chat) as ParsedRequest;
    expect(chatNext.format).toBe("openai-chat");
    const shorter = cut(chat, "messages", 1);
    expect((read(shorter) as ParsedRequest).format).toBe("anthropic");
    expect(parsePrefixRequest(shorter, chat, chatNext)).toBeNull();
  });
});
