/** fast-check generators of normalized requests, for property tests. */
import fc from "fast-check";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ContentBlock, Message } from "../messages/types.ts";

const text = fc.string({ unit: "grapheme", maxLength: 40 });

const block: fc.Arbitrary<ContentBlock> = fc.oneof(
  text.map((t): ContentBlock => ({ type: "text", text: t })),
  fc
    .record({ id: fc.string({ maxLength: 8 }), name: fc.constantFrom("search", "lookup"), q: text })
    .map(({ id, name, q }): ContentBlock => ({ type: "tool_call", id, name, arguments: { q, n: 3 } })),
  fc
    .record({ t: text, s: fc.string({ maxLength: 12 }) })
    .map(({ t, s }): ContentBlock => ({ type: "thinking", text: t, signature: s })),
);

export const messageArb: fc.Arbitrary<Message> = fc.record({
  role: fc.constantFrom("user", "assistant", "system", "tool") as fc.Arbitrary<Message["role"]>,
  content: fc.array(block, { minLength: 1, maxLength: 3 }),
});

export const requestArb: fc.Arbitrary<NormalizedRequest> = fc.record({
  model: fc.constant({ provider: "anthropic", model: "claude-sonnet-4-5" }),
  tools: fc.uniqueArray(
    fc
      .record({ name: fc.string({ minLength: 1, maxLength: 10 }), description: text })
      .map((t) => ({ ...t, inputSchema: { type: "object", properties: { q: { type: "string" } } } })),
    { maxLength: 4, selector: (t) => t.name },
  ),
  messages: fc.array(messageArb, { maxLength: 8 }),
});

export const providerArb = fc.constantFrom("openai", "anthropic", "gemini") as fc.Arbitrary<
  "openai" | "anthropic" | "gemini"
>;
