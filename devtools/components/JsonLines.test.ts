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
});
