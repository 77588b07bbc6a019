import { describe, expect, it } from "vitest";
import { confirmLiteralChanges, lintLiteralVolatility, MAX_FINDINGS } from "./literal-volatility.ts";

const lint = (text: string) => lintLiteralVolatility([{ path: "system[0]", text }]).map((f) => [f.kind, f.value]);

/** Values that change between requests, as hosts write them into prompts. */
const POSITIVES: readonly (readonly [string, string, string])[] = [
  ["Current time: 2026-11-29T08:30:00Z.", "iso_timestamp", "2026-11-29T08:30:00Z"],
  ["Now: 2026-11-29T08:30:15.123+01:00", "iso_timestamp", "2026-11-29T08:30:15.123+01:00"],
  ["Session started: 2026-11-29 09:14 CET.", "iso_timestamp", "2026-11-29 09:14"],
  ["Today is 2026-11-29.", "date", "2026-11-29"],
  ["Today is 29/11/2026.", "date", "29/11/2026"],
  ["Date: 11/29/26", "date", "11/29/26"],
  ["Today is 3 Dec 2026.", "date", "3 Dec 2026"],
  ["Today is December 3, 2026.", "date", "December 3, 2026"],
  ["It is 14:05 now.", "time", "14:05"],
  ["Local time 9:15 pm", "time", "9:15 pm"],
  ["Clock: 08:30:59", "time", "08:30:59"],
  ["ts=1764405000 ", "epoch", "1764405000"],
  ["now_ms: 1764405000123", "epoch", "1764405000123"],
  ["Request id 9b2f6c1e-4d3a-4f8b-a1c2-7e9d0b3f5a61", "uuid", "9b2f6c1e-4d3a-4f8b-a1c2-7e9d0b3f5a61"],
  ["session: 01HZX8K2M4N6P8Q0R2S4T6V8W0", "random_id", "01HZX8K2M4N6P8Q0R2S4T6V8W0"],
  ["trace sess_8f3a9c2b1d7e4f60", "random_id", "sess_8f3a9c2b1d7e4f60"],
  ["nonce 3f9a1c7e5b2d8046a1b3", "random_id", "3f9a1c7e5b2d8046a1b3"],
  ["This is turn 7 of the conversation.", "counter", "turn 7"],
  ["Attempt #3 after a failure.", "counter", "Attempt #3"],
  ["iteration 12", "counter", "iteration 12"],
];

/** Stable ids that look a little like the above and must not be flagged. */
const NEGATIVES: readonly string[] = [
  "Use the track_container tool, then vessel_schedule, then open_ticket.",
  "Tools: lookup_order, update_address, get_weather, find_flights, search_docs.",
  "Model claude-sonnet-4-5, claude-3-5-sonnet-20241022, gpt-4.1-mini, gpt-4o-2024-08-06, gemini-2.5-flash, o200k_base.",
  "text-embedding-3-large and whisper-1 are available.",
  "SDK v2.3.1, API 2023-06 (version 2.5.0-beta.1), schema 1.0.0-rc.2.",
  "Container numbers follow ISO 6346, e.g. MSKU9070323 or MSKU 907032 3.",
  "Booking reference BRL-2026-11873; order A-10293; invoice INV-000123.",
  "Charges are EUR 85 per bill of lading; 1.5 days; 12.50 per day.",
  "Call +1 415 555 0100 or 0800 123 4567.",
  "Step 1: read the order. Step 2: answer. Rule 3 applies.",
  "Ratios such as 16:9 and 4:3 are fine; version 1:2:3 is not a time.",
  "Documentation cut-off is 48 hours before departure.",
  "Port codes NLRTM, DEHAM, BEANR, GBFXT.",
  "The response_format is json_schema with additionalProperties false.",
  "Cite passages as [doc:keys-42].",
  "Use the o3-mini and gpt-5-nano models for drafts.",
  "A hash like sha256 is 64 hex characters long.",
];

describe("lintLiteralVolatility", () => {
  it.each(POSITIVES)("flags %j as %s", (text, kind, value) => {
    expect(lint(text)).toEqual([[kind, value]]);
  });

  it.each(NEGATIVES)("does not flag %j", (text) => {
    expect(lint(text)).toEqual([]);
  });

  it("says where, with an excerpt and what it costs", () => {
    const text = `${"x".repeat(200)} é Updated 2026-11-29T08:30:00Z by the scheduler.`;
    const [f] = lintLiteralVolatility([{ path: "messages[0].content[0]", text }]);
    // "é" is two UTF-8 bytes: the offset is in bytes (its UTF-16 index is 211).
    expect(f).toMatchObject({ kind: "iso_timestamp", path: "messages[0].content[0]", byteOffset: 212 });
    expect(f!.excerpt).toBe("xxxxxxxxxxxxxxxxxxx é Updated 2026-11-29T08:30:00Z by the scheduler.");
    expect(f!.message).toBe(
      "a timestamp at messages[0].content[0] byte 212 — it changes each turn, so nothing after it can be read from cache.",
    );
  });

  it("stops at MAX_FINDINGS", () => {
    const text = Array.from({ length: MAX_FINDINGS + 50 }, (_, i) => `turn ${i}`).join(". ");
    expect(lintLiteralVolatility([{ path: "p", text }])).toHaveLength(MAX_FINDINGS);
  });

  it("confirms with the previous turn which flagged values changed", () => {
    const now = lintLiteralVolatility([
      { path: "a", text: "Started 2026-11-29 09:21. Write dates as 3 Dec 2026." },
      { path: "b", text: "turn 8" },
    ]);
    const before = new Map([
      ["a", "Started 2026-11-29 09:14. Write dates as 3 Dec 2026."],
      ["c", "turn 7"],
    ]);
    expect(confirmLiteralChanges(now, before)).toEqual([true, false, null]);
  });
});
