import { describe, expect, it } from "vitest";
import { samples, sampleIndex, badSampleIndex } from "../test-support/samples.ts";
import { jsonPathAt } from "./json-path.ts";

describe("jsonPathAt", () => {
  it.each([
    ['{"messages":[{"role":"user","content":"hi', "messages[0].content"],
    ['{"a":1,"b":[1,2,', "b[2]"],
    ['{"a":{"weird key":[', 'a["weird key"][0]'],
    ['{"a":1,', ""],
    ["[[[", "[0][0][0]"],
  ])("locates %j at %j", (text, path) => {
    expect(jsonPathAt(text, text.length)).toBe(path);
  });

  it("abbreviates very deep paths", () => {
    expect(jsonPathAt("[".repeat(5000), 5000)).toBe("[0][0][0][0][0][0][0][0][0][0][0][0]…(5000 levels deep)");
  });
});

describe("the sample index", () => {
  it("lists unique ids and files, and every previous turn comes before its next", () => {
    const index = sampleIndex() as { id: string; file: string; previous?: string }[];
    expect(new Set(index.map((s) => s.id)).size).toBe(index.length);
    expect(new Set(index.map((s) => s.file)).size).toBe(index.length);
    index.forEach((s, i) => {
      if (s.previous) expect(index.slice(0, i).map((x) => x.id)).toContain(s.previous);
    });
    expect(samples.filter((s) => s.format === "strata").length).toBe(1);
    expect((badSampleIndex() as unknown[]).length).toBeGreaterThanOrEqual(7);
  });
});
