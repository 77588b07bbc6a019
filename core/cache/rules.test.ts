import { describe, expect, it } from "vitest";
import { findModel, MODEL_TABLE, type ModelRow } from "../formats/models.ts";
import { selectCacheRule } from "./rules.ts";

// Real ids as providers publish them: at least one per MODEL_TABLE row.
const REAL_IDS = [
  "gpt-3.5-turbo-0125",
  "gpt-4-turbo-2024-04-09",
  "gpt-4o-mini-2024-07-18",
  "gpt-4o-2024-05-13",
  "gpt-4o-2024-08-06",
  "gpt-4o-2024-11-20",
  "gpt-4.1-mini-2025-04-14",
  "gpt-4.1-nano-2025-04-14",
  "gpt-4.1-2025-04-14",
  "gpt-5-chat-latest",
  "gpt-5-mini-2025-08-07",
  "gpt-5-nano-2025-08-07",
  "gpt-5-2025-08-07",
  "gpt-5-codex",
  "gpt-5.1-2025-11-13",
  "gpt-5.1-codex-max",
  "gpt-5.2-2025-12-11",
  "gpt-5.4-mini-2026-03-17",
  "gpt-5.4-nano-2026-03-17",
  "gpt-5.4-2026-03-05",
  "gpt-5.5-2026-04-23",
  "gpt-5.6",
  "gpt-5.6-sol",
  "gpt-5.6-terra",
  "gpt-5.6-luna",
  "o1-mini-2024-09-12",
  "o1-2024-12-17",
  "o1-preview-2024-09-12",
  "o3-mini-2025-01-31",
  "o3-2025-04-16",
  "o4-mini-2025-04-16",
  "claude-3-haiku-20240307",
  "claude-3-5-haiku-20241022",
  "claude-3-5-sonnet-20241022",
  "claude-3-7-sonnet-20250219",
  "claude-sonnet-4-6",
  "claude-sonnet-4-5-20250929",
  "claude-sonnet-4-20250514",
  "claude-haiku-4-5-20251001",
  "claude-opus-4-6",
  "claude-opus-4-5-20251101",
  "claude-opus-4-1-20250805",
  "claude-opus-4-20250514",
  "gemini-1.5-pro-002",
  "gemini-1.5-flash-002",
  "gemini-2.0-flash-lite-001",
  "gemini-2.0-flash-001",
  "gemini-2.5-flash-lite",
  "gemini-2.5-flash",
  "gemini-2.5-pro",
  "gemini-3-flash-preview",
  "gemini-3-pro-preview",
  "gemini-3.1-pro-preview",
  "gemini-3.1-flash-lite",
  "gemini-3.5-flash",
];

const resolved = REAL_IDS.map((id) => {
  const found = findModel(id);
  if (found.row === null) throw new Error(`${id} is in no MODEL_TABLE row`);
  return [id, found.row] as const;
});

const withCache = (rows: typeof resolved) => rows.filter(([, row]) => row.cacheMinTokens !== null);

// Where sources conflict, both tables use the documented value of the newest docs (Sonnet 4.6:
// 1,024; Gemini 2.5: 2,048; Gemini 1.5: 4,096); the observed and earlier values stay CACHE_RULES
// alternatives (`observed` / `legacy` rows), which `selectCacheRule` reports but does not pick.
describe("CACHE_RULES agree with MODEL_TABLE", () => {
  it("the id list covers every model row", () => {
    const covered = new Set(resolved.map(([, row]) => row.id));
    expect(MODEL_TABLE.filter((r) => !covered.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it.each(withCache(resolved))("%s: the documented cache minimum is the row's", (id, row: ModelRow) => {
    expect(selectCacheRule(row.provider, id).rule.minTokens).toBe(row.cacheMinTokens);
  });

  // Gemini 1.5 and 2.0 have explicit caching only, which CACHE_RULES (implicit caching) does not model.
  const priced = withCache(resolved).filter(([, row]) => row.provider !== "gemini" || row.prices.implicitCacheRead);
  it.each(priced)(
    "%s: the read and write multipliers are the row's prices over its input price",
    (id, row: ModelRow) => {
      const { rule } = selectCacheRule(row.provider, id);
      const p = row.prices;
      expect(rule.readMultiplier).toBeCloseTo((p.cacheRead ?? p.input) / p.input, 6);
      const write = row.provider === "anthropic" ? p.cacheWrite5m : p.cacheWrite;
      expect(rule.writeMultiplier).toBeCloseTo((write ?? p.input) / p.input, 6);
      if (row.provider === "anthropic") expect(rule.writeMultiplier1h).toBeCloseTo(p.cacheWrite1h! / p.input, 6);
      else expect(rule.writeMultiplier1h).toBeNull();
    },
  );
});
