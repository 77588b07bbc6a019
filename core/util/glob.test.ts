import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchGlob } from "./glob.ts";

describe("matchGlob", () => {
  it.each([
    ["search_*", "search_corpus", true],
    ["search_*", "search_", true],
    ["search_*", "web_search_corpus", false],
    ["*_search", "web_search", true],
    ["*", "", true],
    ["*", "anything", true],
    ["", "", true],
    ["", "x", false],
    ["fetch_url", "fetch_url", true],
    ["fetch_url", "fetch_urls", false],
    ["Fetch_url", "fetch_url", false],
    ["tool_v?", "tool_v2", true],
    ["tool_v?", "tool_v", false],
    ["a*b*c", "aXXbYYc", true],
    ["a*b*c", "aXXcYYb", false],
    ["*.*", "a.b", true],
    ["[abc]", "b", true],
    ["[abc]", "d", false],
    ["o[34]*", "o4-mini", true],
    ["o[34]*", "o1", false],
    ["[]", "[]", true],
    ["a[b", "a[b", true],
    ["(x)+", "(x)+", true],
  ])("%j matches %j: %s", (pattern, name, expected) => {
    expect(matchGlob(pattern, name)).toBe(expected);
  });

  it("matches any name against itself when it has no wildcard", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[*?[]/.test(s)),
        (name) => matchGlob(name, name),
      ),
      { seed: 310, numRuns: 200 },
    );
  });

  it("treats prefix* as startsWith", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 6 }).filter((s) => !/[*?[]/.test(s)),
        fc.string({ maxLength: 8 }),
        (prefix, name) => matchGlob(`${prefix}*`, name) === name.startsWith(prefix),
      ),
      { seed: 311, numRuns: 200 },
    );
  });

  it("stays fast on patterns that make backtracking regexes explode", () => {
    expect(matchGlob("*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(5_000))).toBe(false);
  });
});
