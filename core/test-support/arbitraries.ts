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

/** A character JSON escapes, writes in more than one UTF-8 byte, or cannot encode (a lone surrogate). */
const specialChar = fc.constantFrom(
  "\u0000",
  "\u001f",
  "\b",
  "\n",
  "\r",
  "\t",
  '"',
  "\\",
  "\ud800",
  "\udc00",
  "😀",
  "é",
  "€",
);
/** Long mostly plain strings (past json-size.ts's `SHORT`, where a native scan comes first), with at most one special character. */
const longText = fc
  .tuple(fc.string({ unit: "grapheme-ascii", minLength: 20, maxLength: 60 }), fc.option(specialChar), fc.nat(60))
  .map(([text, char, at]) => (char === null ? text : text.slice(0, at) + char + text.slice(at)));

/**
 * Strings with every kind of character JSON escapes or UTF-8 writes in more than one byte, lone
 * surrogates included, short and long.
 */
export const jsonStringArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: "binary", minLength: 20, maxLength: 60 }),
  longText,
  fc.string({
    maxLength: 40,
    unit: fc.constantFrom(
      "\u0000",
      "\u001f",
      "\b",
      "\t",
      "\n",
      "\f",
      "\r",
      '"',
      "\\",
      "\ud800",
      "\udc00",
      "é",
      "€",
      "😀",
      "a",
      "\u007f",
      "\u2028",
    ),
  }),
);

/** JSON-like data with every kind of string, numbers JSON writes oddly and the values it drops. */
export const jsonLikeArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: jsonStringArb, weight: 4 },
    fc.double(),
    fc.integer(),
    fc.constantFrom(
      0,
      -0,
      1e21,
      1e-7,
      -1.5e300,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      NaN,
      Infinity,
      -Infinity,
    ),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(undefined, () => 1, Symbol("s")),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("0", "10", "2", "__proto__", "a\nb")),
      tie("value"),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;
