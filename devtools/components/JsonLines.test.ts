import { describe, expect, it } from "vitest";
import { JSON_VIRTUALIZE_ABOVE, textLines } from "./JsonLines.tsx";

describe("textLines", () => {
  it.each([
    ["short", "a\nb\n\nc"],
    ["long", Array.from({ length: JSON_VIRTUALIZE_ABOVE * 3 }, (_, i) => `  "k${i}": ${i},`).join("\n")],
    ["long, ending in a newline", `${"x\n".repeat(JSON_VIRTUALIZE_ABOVE + 5)}`],
  ])("gives the lines split gives (%s)", (_name, text) => {
    const lines = textLines(text);
    const split = text.split("\n");
    expect(lines.length).toBe(split.length);
    for (const i of [0, 1, split.length >> 1, split.length - 2, split.length - 1]) expect(lines[i]).toBe(split[i]);
  });

  it("finds a long text's lines once, and never gives one text's lines for another", () => {
    const texts = Array.from({ length: 5 }, (_, t) =>
      Array.from({ length: JSON_VIRTUALIZE_ABOVE + 10 + t }, (_, i) => `${t}:${i}`).join("\n"),
    );
    const first = textLines(texts[0]!);
    expect(textLines(texts[0]!)).toBe(first);
    // an equal text made anew reads the same lines; one as long but different, its own
    expect(textLines(`${texts[0]!} `.slice(0, -1))).toBe(first);
    const other = `9${texts[0]!.slice(1)}`;
    expect(textLines(other)[0]).toBe("9:0");
    expect(textLines(texts[0]!)[0]).toBe("0:0");
    for (const round of [0, 1])
      for (const [t, text] of texts.entries()) {
        const lines = textLines(text);
        expect([round, t, lines.length, lines[0], lines[lines.length - 1]]).toEqual([
          round,
          t,
          JSON_VIRTUALIZE_ABOVE + 10 + t,
          `${t}:0`,
          `${t}:${JSON_VIRTUALIZE_ABOVE + 9 + t}`,
        ]);
      }
  });
});
