import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContentBlock } from "../messages/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { utf8Length } from "../util/utf8.ts";
import { blockJson, blockJsonBytes } from "./segment-json.ts";

/** Strings with everything JSON escapes or encodes in more than one byte, lone surrogates included. */
const anyText = fc.string({
  maxLength: 40,
  unit: fc.oneof(
    fc.constantFrom(
      "\u0000",
      "\u001f",
      "\b",
      "\t",
      "\n",
      "\r",
      '"',
      "\\",
      "\ud800",
      "\udc00",
      "é",
      "€",
      "😀",
      "\u2028",
    ),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 30 }),
  ),
});

/** JSON-like values as callers send them: with numbers JSON writes oddly and members it drops. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    anyText,
    fc.double(),
    fc.integer(),
    fc.constantFrom(-0, 1e21, NaN, -Infinity, 2 ** 53 + 2),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(anyText, fc.constantFrom("2", "10", "__proto__")), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const providerFields = fc.option(fc.dictionary(anyText, anyValue, { maxKeys: 3 }), { nil: undefined });

/** Every block type, with text, media and caller JSON fields. */
const anyBlock: fc.Arbitrary<ContentBlock> = fc.oneof(
  fc.record({ type: fc.constant("text"), text: anyText, providerFields }, { requiredKeys: ["type", "text"] }),
  fc.record({
    type: fc.constant("thinking"),
    text: anyText,
    signature: anyText,
    redacted: fc.boolean(),
    providerFields,
  }),
  fc.record({ type: fc.constant("tool_call"), id: anyText, name: anyText, arguments: anyValue, providerFields }),
  fc.record({
    type: fc.constant("tool_result"),
    toolCallId: anyText,
    name: anyText,
    result: anyValue,
    isError: fc.option(fc.boolean(), { nil: undefined }),
    providerFields,
  }),
  fc.record(
    {
      type: fc.constantFrom("image", "audio", "file", "document"),
      name: anyText,
      mimeType: anyText,
      data: anyText,
      url: anyText,
      text: anyText,
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("opaque"), format: anyText, wireType: anyText, value: anyValue, providerFields }),
) as fc.Arbitrary<ContentBlock>;

describe("blockJsonBytes", () => {
  it("is the UTF-8 length of blockJson for every block type and any caller JSON (property, seed 1806)", () => {
    fc.assert(
      fc.property(anyBlock, fc.nat(50), fc.nat(50), (block, i, j) => {
        expect(blockJsonBytes(block, i, j)).toBe(utf8Length(blockJson(block, i, j)));
      }),
      { seed: 1806, numRuns: 800 },
    );
  });

  it("measures what JSON.stringify treats specially as written: toJSON, a Date, a class instance, a boxed string", () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const values = [
      { when: new Date(Date.UTC(2026, 11, 4)) },
      { custom: { toJSON: () => "replaced" } },
      { point: new Point(1, 2), boxed: new String("b") },
      [new Map([[1, 2]]), new Uint8Array([1, 2])],
    ];
    for (const value of values) {
      const block: ContentBlock = { type: "tool_call", id: "c1", name: "f", arguments: value as never };
      expect(blockJsonBytes(block, 3, 1)).toBe(utf8Length(blockJson(block, 3, 1)));
    }
  });

  it("throws blockJson's error, naming the block, for a cycle or a BigInt", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle["self"] = { back: cycle };
    for (const value of [cycle, { n: 10n }]) {
      const block = { type: "tool_result", toolCallId: "c1", name: "f", result: value } as unknown as ContentBlock;
      let written: unknown;
      try {
        blockJson(block, 4, 2);
      } catch (e) {
        written = e;
      }
      expect(written).toBeInstanceOf(InvalidInputError);
      expect(() => blockJsonBytes(block, 4, 2)).toThrow(written as Error);
      expect((written as InvalidInputError).message).toContain("messages[4].content[2]");
    }
  });
});
