import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContentBlock } from "../messages/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { utf8Length } from "../util/utf8.ts";
import { jsonLikeArb, jsonStringArb } from "../test-support/arbitraries.ts";
import { specialJsonValues } from "../test-support/json-special.ts";
import { blockJson, blockJsonBytes, plainTextJson } from "./segment-json.ts";

const anyText = jsonStringArb;
const anyValue = jsonLikeArb;

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
    const values = specialJsonValues();
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

describe("plainTextJson", () => {
  it("writes a text block's JSON as JSON.stringify does, even with a toJSON on String.prototype", () => {
    // JSON.stringify asks only objects (and BigInts) for toJSON: a string field is written as itself.
    const proto = String.prototype as { toJSON?: () => string };
    proto.toJSON = () => "replaced";
    try {
      fc.assert(
        fc.property(anyText, (text) => {
          const block: ContentBlock = { type: "text", text };
          expect(plainTextJson(text)).toBe(JSON.stringify({ type: "text", text }));
          expect(blockJson(block, 0, 0)).toBe(JSON.stringify({ type: "text", text }));
        }),
        { numRuns: 300 },
      );
    } finally {
      delete proto.toJSON;
    }
  });
});
