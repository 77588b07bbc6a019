import { describe, expect, it } from "vitest";
import { splitPromptSections } from "./prompt-sections.ts";

const split = (text: string) =>
  splitPromptSections(text).map((s) => [s.id, s.title, s.rule, text.slice(s.start, s.end)]);

describe("splitPromptSections", () => {
  it("cuts at markdown headings, keeping the text before the first one", () => {
    const text = "You are Harbor.\n\n## Sources of truth\nOnly the tools.\n\n## Tone\nBe brief.\n";
    expect(split(text)).toEqual([
      ["p1", "You are Harbor.", "heading", "You are Harbor."],
      ["sources-of-truth", "Sources of truth", "heading", "## Sources of truth\nOnly the tools."],
      ["tone", "Tone", "heading", "## Tone\nBe brief."],
    ]);
  });

  it("ignores headings inside code fences", () => {
    const text = "Intro.\n\n```\n# not a heading\n```\n\n# Real\nBody";
    expect(split(text).map((s) => s[0])).toEqual(["p1", "real"]);
  });

  it("cuts at XML-style tag blocks, with the text between them", () => {
    const text = 'You help.\n<rules>\n1. Be kind.\n</rules>\n<examples type="short">\nQ: hi\n</examples>\nEnd.';
    expect(split(text)).toEqual([
      ["p1", "You help.", "paragraph", "You help."],
      ["rules", "rules", "tag", "<rules>\n1. Be kind.\n</rules>"],
      ["examples", "examples", "tag", '<examples type="short">\nQ: hi\n</examples>'],
      ["p2", "End.", "paragraph", "End."],
    ]);
  });

  it("leaves an unclosed tag to the paragraphs", () => {
    expect(split("<note>\nno close\n\nsecond").map((s) => s[0])).toEqual(["p1", "p2"]);
  });

  it("cuts at horizontal rules, which belong to no section", () => {
    expect(split("One.\n---\nTwo.\n\nStill two.\n***\nThree.")).toEqual([
      ["p1", "One.", "rule", "One."],
      ["p2", "Two.", "rule", "Two.\n\nStill two."],
      ["p3", "Three.", "rule", "Three."],
    ]);
  });

  it("falls back to paragraphs, and numbers repeated ids", () => {
    expect(split("A.\n\n\nB.")).toEqual([
      ["p1", "A.", "paragraph", "A."],
      ["p2", "B.", "paragraph", "B."],
    ]);
    expect(split("# Notes\na\n# Notes\nb").map((s) => s[0])).toEqual(["notes", "notes-2"]);
  });

  it("gives nothing for blank text and one section for one line", () => {
    expect(splitPromptSections("  \n\n ")).toEqual([]);
    expect(split("Only this.")).toEqual([["p1", "Only this.", "paragraph", "Only this."]]);
  });

  it("stays linear on many unclosed tags", () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `<t${i % 7}>`).join("\n");
    expect(splitPromptSections(text)).toHaveLength(1);
  });
});
