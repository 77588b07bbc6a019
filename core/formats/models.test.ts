import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchGlob } from "../util/glob.ts";
import {
  ANTHROPIC_EXPORT_MAX_TOKENS,
  findModel,
  MODEL_SOURCES,
  MODEL_TABLE,
  type ModelProvider,
  type ModelSourceId,
  normalizeModelId,
} from "./models.ts";

const rowId = (id: string, provider?: ModelProvider) => {
  const found = findModel(id, provider);
  return found.row === null ? null : found.row.id;
};

describe("MODEL_TABLE rows", () => {
  it("have unique ids, known sources, and every source is dated and cited", () => {
    expect(new Set(MODEL_TABLE.map((r) => r.id)).size).toBe(MODEL_TABLE.length);
    const cited = new Set<string>();
    for (const row of MODEL_TABLE) {
      expect(row.sources.length, row.id).toBeGreaterThan(0);
      for (const s of row.sources) {
        expect(Object.hasOwn(MODEL_SOURCES, s), `${row.id} cites ${s}`).toBe(true);
        cited.add(s);
      }
    }
    for (const [id, source] of Object.entries(MODEL_SOURCES)) {
      expect(source.date, id).toMatch(/^20\d\d-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/);
      expect(source.url, id).toMatch(/^https:\/\//);
      expect(source.title.length, id).toBeGreaterThan(10);
      expect(cited.has(id), `${id} is cited by a row`).toBe(true);
    }
  });

  it("hold plausible limits and prices", () => {
    for (const row of MODEL_TABLE) {
      expect(row.maxOutputTokens, row.id).toBeLessThanOrEqual(row.contextWindow);
      expect(row.prices.input, row.id).toBeGreaterThan(0);
      expect(row.prices.output, row.id).toBeGreaterThanOrEqual(row.prices.input);
      if (row.prices.cacheRead !== null) expect(row.prices.cacheRead, row.id).toBeLessThan(row.prices.input);
      if (row.cacheMinTokens === null) expect(row.prices.cacheRead, row.id).toBeNull();
      const long = row.prices.longContext;
      if (long) {
        expect(long.aboveInputTokens, row.id).toBeLessThan(row.contextWindowBeta ?? row.contextWindow);
        expect(long.input, row.id).toBeGreaterThan(row.prices.input);
      }
      for (const p of [...row.patterns, ...(row.notPatterns ?? [])]) expect(p, row.id).toBe(p.toLowerCase());
    }
  });

  it("give a tokenizer to OpenAI rows only and Bedrock ids to Claude rows only", () => {
    for (const row of MODEL_TABLE) {
      expect(row.tokenizer !== null, row.id).toBe(row.provider === "openai");
      expect(row.bedrockIds !== undefined, row.id).toBe(row.provider === "anthropic");
    }
    expect(findModel("gpt-3.5-turbo").row?.tokenizer).toBe("cl100k_base");
    expect(findModel("gpt-4-turbo").row?.tokenizer).toBe("cl100k_base");
    expect(findModel("gpt-4o").row?.tokenizer).toBe("o200k_base");
    expect(findModel("o3").row?.tokenizer).toBe("o200k_base");
  });

  it("resolve every Bedrock id they list to themselves", () => {
    for (const row of MODEL_TABLE)
      for (const id of row.bedrockIds ?? []) expect(rowId(id, "anthropic"), id).toBe(row.id);
  });

  it("export min(maxOutputTokens, 16,000) as the default max_tokens", () => {
    expect(ANTHROPIC_EXPORT_MAX_TOKENS).toBe(16_000);
    for (const row of MODEL_TABLE)
      expect(row.exportMaxTokens, row.id).toBe(Math.min(row.maxOutputTokens, ANTHROPIC_EXPORT_MAX_TOKENS));
    expect(findModel("claude-3-haiku-20240307").row?.exportMaxTokens).toBe(4096);
    expect(findModel("claude-opus-4-6").row?.exportMaxTokens).toBe(16_000);
    expect(findModel("claude-opus-4-1").row?.exportMaxTokensBedrockVertex).toBe(8192);
  });

  it("cite the export guidance on every Claude row", () => {
    for (const row of MODEL_TABLE.filter((r) => r.provider === "anthropic"))
      expect(row.sources, row.id).toEqual(expect.arrayContaining<ModelSourceId>(["ant-migration", "ant-sdk"]));
  });
});

describe("first match wins", () => {
  it("no row claims a literal id of a later row (each literal resolves to its own row)", () => {
    for (const row of MODEL_TABLE)
      for (const p of row.patterns.filter((q) => !q.includes("*")))
        expect(findModel(p, row.provider), `${p}`).toEqual({ row, matched: "exact" });
  });

  it("no row shadows the glob of a later row (each glob's stem resolves to its own row)", () => {
    for (const row of MODEL_TABLE)
      for (const p of row.patterns.filter((q) => q.includes("*")))
        expect(rowId(p.replaceAll("*", ""), row.provider), p).toBe(row.id);
  });

  it.each([
    ["gpt-4o-mini", "openai-gpt-4o-mini", "openai-gpt-4o", "gpt-4o*"],
    ["gpt-4o-2024-05-13", "openai-gpt-4o-2024-05-13", "openai-gpt-4o", "gpt-4o*"],
    ["gpt-5-chat-latest", "openai-gpt-5-chat", "openai-gpt-5", "gpt-5*"],
    ["claude-sonnet-4-6", "anthropic-sonnet-4-6", "anthropic-sonnet-4", "claude-sonnet-4*"],
    ["claude-opus-4-1-20250805", "anthropic-opus-4-1", "anthropic-opus-4", "claude-opus-4*"],
    ["gemini-2.5-flash-lite", "gemini-2.5-flash-lite", "gemini-2.5-flash", "gemini-2.5-flash*"],
    ["gemini-2.0-flash-lite-001", "gemini-2.0-flash-lite", "gemini-2.0-flash", "gemini-2.0-flash*"],
  ])("%s goes to %s, which comes before %s (that a broad %s would swallow it)", (id, specific, general, broad) => {
    expect(rowId(id)).toBe(specific);
    const index = (rid: string) => MODEL_TABLE.findIndex((r) => r.id === rid);
    expect(index(specific)).toBeGreaterThanOrEqual(0);
    expect(index(specific)).toBeLessThan(index(general));
    expect(matchGlob(broad, id)).toBe(true);
  });
});

// The ids and expected rows of the research's pattern check (46 cases, 2026-12-01).
const RESEARCH_CASES: readonly (readonly [ModelProvider, string, string | null])[] = [
  ["openai", "gpt-4o-2024-08-06", "openai-gpt-4o"],
  ["openai", "gpt-4o", "openai-gpt-4o"],
  ["openai", "gpt-4o-2024-05-13", "openai-gpt-4o-2024-05-13"],
  ["openai", "gpt-4o-mini-2024-07-18", "openai-gpt-4o-mini"],
  ["openai", "gpt-4.1-mini-2025-04-14", "openai-gpt-4.1-mini"],
  ["openai", "gpt-4.1", "openai-gpt-4.1"],
  ["openai", "gpt-5-mini-2025-08-07", "openai-gpt-5-mini"],
  ["openai", "gpt-5", "openai-gpt-5"],
  ["openai", "gpt-5.4-nano", "openai-gpt-5.4-nano"],
  ["openai", "gpt-5.4-2026-03-05", "openai-gpt-5.4"],
  ["openai", "o1-mini", "openai-o1-mini"],
  ["openai", "o1-2024-12-17", "openai-o1"],
  ["openai", "o3-mini-2025-01-31", "openai-o3-mini"],
  ["openai", "o3", "openai-o3"],
  ["openai", "o4-mini-2025-04-16", "openai-o4-mini"],
  ["openai", "gpt-3.5-turbo-0125", "openai-gpt-3.5-turbo"],
  ["openai", "gpt-4-turbo-2024-04-09", "openai-gpt-4-turbo"],
  ["openai", "gpt-5.6", "openai-gpt-5.6-sol"],
  ["openai", "gpt-5-chat-latest", "openai-gpt-5-chat"],
  ["openai", "o1-preview-2024-09-12", "openai-o1-preview"],
  ["openai", "gpt-5.2-chat-latest", null],
  ["anthropic", "claude-sonnet-4-5-20250929", "anthropic-sonnet-4-5"],
  ["anthropic", "claude-sonnet-4-20250514", "anthropic-sonnet-4"],
  ["anthropic", "claude-sonnet-4-0", "anthropic-sonnet-4"],
  ["anthropic", "claude-sonnet-4-6", "anthropic-sonnet-4-6"],
  ["anthropic", "claude-opus-4-1-20250805", "anthropic-opus-4-1"],
  ["anthropic", "claude-opus-4-20250514", "anthropic-opus-4"],
  ["anthropic", "claude-opus-4-5-20251101", "anthropic-opus-4-5"],
  ["anthropic", "claude-3-haiku-20240307", "anthropic-haiku-3"],
  ["anthropic", "claude-3-5-haiku-latest", "anthropic-haiku-3-5"],
  ["anthropic", "us.anthropic.claude-opus-4-6-v1", "anthropic-opus-4-6"],
  ["anthropic", "anthropic.claude-3-5-sonnet-20241022-v2:0", "anthropic-sonnet-3-5"],
  ["anthropic", "global.anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic-haiku-4-5"],
  ["anthropic", "claude-opus-4@20250514", "anthropic-opus-4"],
  ["anthropic", "claude-3-7-sonnet@20250219", "anthropic-sonnet-3-7"],
  ["anthropic", "anthropic/claude-sonnet-4-5", "anthropic-sonnet-4-5"],
  ["gemini", "models/gemini-2.5-flash", "gemini-2.5-flash"],
  ["gemini", "gemini-2.5-flash-lite-preview-06-17", "gemini-2.5-flash-lite"],
  ["gemini", "gemini-2.5-pro-preview-05-06", "gemini-2.5-pro"],
  ["gemini", "gemini-2.0-flash-001", "gemini-2.0-flash"],
  ["gemini", "gemini-2.0-flash-lite-001", "gemini-2.0-flash-lite"],
  ["gemini", "gemini-1.5-flash-002", "gemini-1.5-flash"],
  ["gemini", "gemini-1.5-flash-8b", null],
  ["gemini", "gemini-3-pro-preview", "gemini-3-pro"],
  ["gemini", "gemini-3.1-pro-preview", "gemini-3-pro"],
  ["gemini", "gemini-3-flash-preview", "gemini-3-flash"],
];

describe("findModel", () => {
  it("covers the research's 46 pattern cases", () => expect(RESEARCH_CASES).toHaveLength(46));

  it.each(RESEARCH_CASES)("%s %s → %s", (provider, id, want) => {
    expect(rowId(id, provider)).toBe(want);
    // Provider namespaces do not overlap, so the provider argument only narrows the search.
    expect(rowId(id)).toBe(want);
  });

  it("says whether a literal pattern or a glob matched", () => {
    expect(findModel("gpt-4o")).toMatchObject({ matched: "exact" });
    expect(findModel("models/gemini-2.5-flash")).toMatchObject({ matched: "exact" });
    expect(findModel("gemini-2.5-pro-preview-05-06")).toMatchObject({ matched: "pattern" });
  });

  it.each([
    ["models/gemini-2.5-pro", "gemini-2.5-pro"],
    ["google/gemini-2.5-pro", "gemini-2.5-pro"],
    ["openai/gpt-4o", "gpt-4o"],
    ["anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"],
    ["arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-6", "claude-sonnet-4-6"],
    ["eu.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"],
    ["apac.anthropic.claude-sonnet-4-20250514-v1:0", "claude-sonnet-4-20250514"],
    ["au.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5-20251001"],
    ["jp.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5-20251001"],
    ["us-gov.anthropic.claude-3-haiku-20240307-v1:0", "claude-3-haiku-20240307"],
    ["global.anthropic.claude-opus-4-6-v1", "claude-opus-4-6"],
    ["anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022"],
    ["claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929"],
    ["Claude-Opus-4-6", "claude-opus-4-6"],
    ["  GPT-4o  ", "gpt-4o"],
  ])("normalizes %s to %s", (raw, bare) => {
    expect(normalizeModelId(raw)).toBe(bare);
    expect(rowId(raw)).toBe(rowId(bare));
    expect(rowId(raw)).not.toBeNull();
  });

  it("keeps ids that only look like prefixes or suffixes", () => {
    // "-v2" inside a Vertex id is not a Bedrock version suffix; "o3" is not a region.
    expect(normalizeModelId("claude-3-5-sonnet-v2@20241022")).toBe("claude-3-5-sonnet-v2-20241022");
    expect(rowId("claude-3-5-sonnet-v2@20241022")).toBe("anthropic-sonnet-3-5");
    expect(normalizeModelId("o3-2025-04-16")).toBe("o3-2025-04-16");
  });

  it("limits the search to the given provider", () => {
    const found = findModel("gpt-4o", "anthropic");
    expect(found.row).toBeNull();
    if (found.row === null) for (const r of found.nearest) expect(r.provider).toBe("anthropic");
    expect(rowId("claude-opus-4-6", "gemini")).toBeNull();
  });

  it.each([
    ["claude-sonnet-4-7", undefined, ["anthropic-sonnet-4-6", "anthropic-sonnet-4-5", "anthropic-sonnet-4"]],
    ["claude-opus-4-7", undefined, ["anthropic-opus-4-6", "anthropic-opus-4-5", "anthropic-opus-4-1"]],
    ["gemini-2.5-flash-image", undefined, ["gemini-2.5-flash-lite", "gemini-2.5-flash", "gemini-2.0-flash-lite"]],
    ["gpt-4o-2024-09-01", undefined, ["openai-gpt-4o", "openai-gpt-4o-2024-05-13", "openai-gpt-5"]],
    // Equal distances fall back to table order.
    ["my-finetune", "openai", ["openai-o1-mini", "openai-o3-mini", "openai-o4-mini"]],
    ["llama-3.1-70b", undefined, []],
  ] as const)("suggests the rows nearest to the unknown id %s", (id, provider, want) => {
    const found = findModel(id, provider);
    expect(found.row).toBeNull();
    expect(found.row === null ? found.nearest.map((r) => r.id) : "matched").toEqual(want);
  });

  it.each([
    ["gpt-4o-mini-tts", "openai-gpt-4o-mini"],
    ["gemini-1.5-flash-8b", "gemini-1.5-flash"],
  ])("suggests first, for %s, the row it is a variant of", (id, first) => {
    const found = findModel(id);
    expect(found.row).toBeNull();
    expect(found.row === null && found.nearest[0]?.id).toBe(first);
  });

  it("suggests at most 3 rows, all of one provider, the same way every time", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(undefined, ...(["openai", "anthropic", "gemini"] as const)),
        (id, provider) => {
          const a = findModel(id, provider);
          const b = findModel(id, provider);
          expect(a).toEqual(b);
          if (a.row !== null) return;
          expect(a.nearest.length).toBeLessThanOrEqual(3);
          expect(new Set(a.nearest.map((r) => r.provider)).size).toBeLessThanOrEqual(1);
          if (provider !== undefined) for (const r of a.nearest) expect(r.provider).toBe(provider);
        },
      ),
    );
  });

  it("rejects what is not a model id, naming the argument", () => {
    expect(() => findModel(42 as unknown as string)).toThrow(/modelId/);
    expect(() => findModel("gpt-4o", "mistral" as ModelProvider)).toThrow(/provider: must be one of/);
  });
});
