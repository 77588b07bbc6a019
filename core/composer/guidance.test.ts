import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { createGuidanceRegistry, resolveGuidance } from "./guidance.ts";
import { estimateGuidanceChars } from "./sections-tools.ts";
import type { GuidanceEntry } from "./guidance.ts";
import { buildToolGuidanceSection } from "./sections-tools.ts";

const registry = createGuidanceRegistry([
  { match: { toolName: "search_*" }, mode: "prefix", text: "Always cite sources." },
  { match: { toolName: "*" }, mode: "suffix", text: "Report failures plainly." },
  { match: { toolName: "search_corpus" }, mode: "prefix", text: "Search the corpus before the web." },
  { match: { toolName: "search_*" }, mode: "suffix", text: "Quote at most two sentences." },
  { match: { toolName: "search_web" }, mode: "prefix", text: "Always cite sources." },
]);

describe("resolveGuidance", () => {
  it("matches globs such as search_*", () => {
    const resolved = resolveGuidance({ registry, toolName: "search_corpus" });
    expect(resolved.prefix).toEqual(["Always cite sources.", "Search the corpus before the web."]);
    expect(resolved.suffix).toEqual(["Report failures plainly.", "Quote at most two sentences."]);
    expect(resolved.matched).toHaveLength(4);
  });

  it("applies every matching entry: prefixes, then the base text, then suffixes, each in registration order", () => {
    const resolved = resolveGuidance({ registry, toolName: "search_corpus", base: "Use short queries." });
    expect(resolved.text).toBe(
      [
        "Always cite sources.",
        "Search the corpus before the web.",
        "Use short queries.",
        "Report failures plainly.",
        "Quote at most two sentences.",
      ].join("\n"),
    );
  });

  it("keeps a text repeated by several matching entries once", () => {
    expect(resolveGuidance({ registry, toolName: "search_web" }).prefix).toEqual(["Always cite sources."]);
  });

  it("keeps each prefix and suffix text once, in first-registration order, the same text allowed in both groups", () => {
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      match: { toolName: "*" },
      mode: i % 2 === 0 ? ("prefix" as const) : ("suffix" as const),
      text: `rule ${i % 7}`,
    }));
    const resolved = resolveGuidance({ registry: createGuidanceRegistry(entries), toolName: "any_tool" });
    expect(resolved.prefix).toEqual(["rule 0", "rule 2", "rule 4", "rule 6", "rule 1", "rule 3", "rule 5"]);
    expect(resolved.suffix).toEqual(["rule 1", "rule 3", "rule 5", "rule 0", "rule 2", "rule 4", "rule 6"]);
  });

  it("gives only catch-all guidance to other tools, and nothing when nothing matches", () => {
    expect(resolveGuidance({ registry, toolName: "fetch_url" }).text).toBe("Report failures plainly.");
    expect(resolveGuidance({ registry: createGuidanceRegistry([]), toolName: "fetch_url" })).toEqual({
      toolName: "fetch_url",
      text: "",
      prefix: [],
      suffix: [],
      matched: [],
    });
  });
});

describe("createGuidanceRegistry", () => {
  it.each([
    ["an empty glob", { match: { toolName: "" }, mode: "prefix", text: "x" }, "entries[0].match.toolName"],
    ["a missing match", { mode: "prefix", text: "x" }, "entries[0].match.toolName"],
    ["an unknown mode", { match: { toolName: "a" }, mode: "replace", text: "x" }, "entries[0].mode"],
    ["non-string text", { match: { toolName: "a" }, mode: "suffix", text: 1 }, "entries[0].text"],
  ])("rejects %s", (_name, entry, field) => {
    expect(() => createGuidanceRegistry([entry as unknown as GuidanceEntry])).toThrow(
      expect.objectContaining({ field }),
    );
    expect(() => createGuidanceRegistry([entry as unknown as GuidanceEntry])).toThrow(InvalidInputError);
  });

  it("copies its entries, so later changes to the input do not leak in", () => {
    const entries: GuidanceEntry[] = [{ match: { toolName: "a" }, mode: "prefix", text: "x" }];
    const reg = createGuidanceRegistry(entries);
    entries.push({ match: { toolName: "a" }, mode: "prefix", text: "y" });
    expect(reg.entries).toHaveLength(1);
  });
});

describe("estimateGuidanceChars", () => {
  it("is the exact length of the tool-guidance section for that guidance", () => {
    const resolved = ["search_corpus", "fetch_url"].map((toolName) => resolveGuidance({ registry, toolName }));
    expect(estimateGuidanceChars(resolved)).toBe(buildToolGuidanceSection(resolved).length);
    expect(estimateGuidanceChars(resolved[0]!)).toBe(buildToolGuidanceSection([resolved[0]!]).length);
    expect(estimateGuidanceChars([])).toBe(0);
  });
});
