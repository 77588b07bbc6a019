import { describe, expect, it } from "vitest";
import { imageTokens, MEDIA_TOKEN_RULES, selectMediaRule, unknownImageTokens } from "./media-rules.ts";

const formula = (provider: Parameters<typeof selectMediaRule>[0], model: string) =>
  selectMediaRule(provider, model).image;

describe("MEDIA_TOKEN_RULES", () => {
  it("gives every row a source, a YYYY-MM date and at least one model pattern", () => {
    for (const r of MEDIA_TOKEN_RULES) {
      expect(r.source.length).toBeGreaterThan(10);
      expect(r.date).toMatch(/^\d{4}-\d{2}$/);
      expect(r.models.length).toBeGreaterThan(0);
    }
  });

  it("ends every provider's rows with a row that matches any model", () => {
    for (const provider of ["openai", "anthropic", "gemini", "bedrock"] as const)
      expect(selectMediaRule(provider, "some-future-model").models).toContain("*");
  });

  it("picks rows by model id, ignoring vendor paths, region prefixes and case", () => {
    expect(selectMediaRule("anthropic", "us.anthropic.claude-opus-4-7-v1:0").id).toBe("anthropic-high-res");
    expect(selectMediaRule("anthropic", "claude-sonnet-4-5").id).toBe("anthropic-standard");
    expect(selectMediaRule("openai", "openai/GPT-4o-mini").id).toBe("openai-gpt-4o-mini");
    expect(selectMediaRule("openai", "o3").id).toBe("openai-o-series");
    expect(selectMediaRule("openai", "o4-mini").id).toBe("openai-o4-mini");
    expect(selectMediaRule("gemini", "models/gemini-3-flash-preview").id).toBe("gemini-3");
    expect(selectMediaRule("gemini", "gemini-2.0-flash").id).toBe("gemini-2.0-observed");
  });
});

describe("imageTokens: the providers' documented worked examples", () => {
  it("Anthropic: about w·h/750, scaled down past 1,568 px or ~1,600 tokens", () => {
    const f = formula("anthropic", "claude-sonnet-4-5");
    expect(imageTokens(f, 1000, 1000)).toBe(1334);
    expect(imageTokens(f, 1092, 1092)).toBe(1590);
    expect(imageTokens(f, 200, 200)).toBe(54);
    expect(imageTokens(f, 4000, 3000)).toBeLessThanOrEqual(1600);
    expect(imageTokens(formula("anthropic", "claude-opus-4-7"), 4000, 3000)).toBeLessThanOrEqual(4784);
    expect(imageTokens(formula("anthropic", "claude-opus-4-7"), 4000, 3000)).toBeGreaterThan(4700);
  });

  it("OpenAI tile models: 85 + 170 per 512-px tile after fitting 2048² and a 768-px short side", () => {
    const f = formula("openai", "gpt-4o");
    expect(imageTokens(f, 1024, 1024)).toBe(765);
    expect(imageTokens(f, 2048, 4096)).toBe(1105);
    expect(imageTokens(f, 4096, 8192, { detail: "low" })).toBe(85);
    expect(imageTokens(formula("openai", "gpt-4o-mini"), 1, 1)).toBe(2833 + 5667);
    expect(imageTokens(formula("openai", "gpt-5"), 1024, 768)).toBe(630);
    expect(imageTokens(formula("openai", "o3"), 1024, 768)).toBe(675);
  });

  it("OpenAI patch models: 32-px patches within the detail level's budget, times the multiplier", () => {
    expect(imageTokens(formula("openai", "gpt-5.4"), 2048, 2048)).toBe(3000);
    expect(imageTokens(formula("openai", "gpt-5.4"), 1024, 768)).toBe(922);
    expect(imageTokens(formula("openai", "gpt-4.1-mini"), 1024, 768)).toBe(1245);
    expect(imageTokens(formula("openai", "gpt-5.5"), 1024, 768, { detail: "low" })).toBe(231);
  });

  it("Gemini 2.x: 258 per image up to 384 px, else 258 per 768-px tile; Gemini 3 by media resolution", () => {
    expect(imageTokens(formula("gemini", "gemini-2.5-flash"), 200, 200)).toBe(258);
    expect(imageTokens(formula("gemini", "gemini-2.5-flash"), 1024, 768)).toBe(516);
    const g3 = formula("gemini", "gemini-3-pro-preview");
    expect(imageTokens(g3, 4000, 3000)).toBe(1120);
    expect(imageTokens(g3, 10, 10, { resolution: "low" })).toBe(280);
    expect(imageTokens(g3, 10, 10, { resolution: "ultra_high" })).toBe(2240);
  });

  it("gives an image of unknown size the assumed photo's cost inside a band over extreme shapes", () => {
    const u = unknownImageTokens(formula("openai", "gpt-4o"));
    expect(u).toEqual({ tokens: 765, low: 255, high: 85 + 8 * 170 });
    expect(unknownImageTokens(formula("anthropic", "claude-haiku-4-5")).tokens).toBeLessThanOrEqual(1600);
  });
});
