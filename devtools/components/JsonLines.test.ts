import { describe, expect, it } from "vitest";
import { JSON_VIRTUALIZE_ABOVE, textLines } from "./JsonLines.tsx";
import { splitAtLines, TextParts } from "./textParts.ts";

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

  const long = Array.from({ length: JSON_VIRTUALIZE_ABOVE * 3 }, (_, i) => `  "k${i}": "${"é".repeat(i % 7)}",`).join(
    "\n",
  );
  it.each([
    ["short", "a\nb\n\nc", 3],
    ["long, in parts of 1,000 characters", long, 1000],
    ["long, ending in a newline, blank lines", `${"x\n\n".repeat(JSON_VIRTUALIZE_ABOVE + 5)}`, 64],
    ["a line longer than a part", `a\n${"b".repeat(5000)}\nc\n`, 100],
    ["empty", "", 10],
  ])("gives the lines split gives, read from the text in parts (%s)", (_name, text, size) => {
    const parts = splitAtLines(text, size);
    expect(parts.join("")).toBe(text);
    // every part but the last ends a line
    for (const part of parts.slice(0, -1)) expect(part.endsWith("\n")).toBe(true);
    const inParts = new TextParts(parts);
    expect(inParts.length).toBe(text.length);
    expect(inParts.text()).toBe(text);
    const lines = textLines(inParts);
    const split = text.split("\n");
    expect(lines.length).toBe(split.length);
    for (let i = 0; i < split.length; i++) if (lines[i] !== split[i]) expect([i, lines[i]]).toEqual([i, split[i]]);
    // A list too short to virtualize is mapped over (each index asked for whether it is there).
    expect(lines.map((line) => line)).toEqual(split);
    expect(textLines(inParts)).toBe(lines);
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
