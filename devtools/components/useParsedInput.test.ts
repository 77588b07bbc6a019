import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8Length } from "./useParsedInput.ts";

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe("utf8Length", () => {
  it("counts what TextEncoder writes, lone surrogates as U+FFFD", () => {
    for (const text of ["", "abc", "café", "東京", "🙂👍🏽", "a\ud800b", "\udc00", "x\ud83d", "\ud83d\ude42\ud83d"])
      expect(utf8Length(text)).toBe(encoded(text));
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => utf8Length(text) === encoded(text)));
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => utf8Length(text) === encoded(text)));
  });
});
