import { describe, expect, it } from "vitest";
import { DEFAULT_SIMULATED_NEXT_INPUT } from "../../core/inspect/index.ts";
import { reportFor, reportOf, SAMPLE_TEXT } from "../test-support/reports.ts";
import { nextTurnText, previousTurnText } from "./simulate.ts";

describe("simulated turns", () => {
  it("builds the next turn of a wire request that only appends (a cache hit)", async () => {
    const report = await reportFor("conversation-turn-2");
    const next = nextTurnText(report, JSON.parse(SAMPLE_TEXT["conversation-turn-2"]));
    expect(next.ok).toBe(true);
    if (!next.ok) return;
    expect(next.text).toContain(DEFAULT_SIMULATED_NEXT_INPUT);
    const compared = await reportOf(next.text, { previous: SAMPLE_TEXT["conversation-turn-2"] });
    expect(compared.format).toBe("anthropic");
    expect(compared.prefix!.divergence?.cause ?? "appended").toBe("appended");
  });

  it("rebuilds the previous turn of a wire request, which this one extends", async () => {
    const report = await reportFor("openai-chat");
    const prev = previousTurnText(report, JSON.parse(SAMPLE_TEXT["openai-chat"]));
    expect(prev.ok).toBe(true);
    if (!prev.ok) return;
    const compared = await reportOf(SAMPLE_TEXT["openai-chat"], { previous: prev.text });
    expect(compared.prefix!.divergence!.cause).toBe("appended");
    expect(compared.prefix!.divergence!.bustsCache).toBe(false);
  });

  it("moves an assembly request's input into its history for the next turn", async () => {
    const report = await reportFor("assembly-tiers");
    const req = JSON.parse(SAMPLE_TEXT["assembly-tiers"]);
    const next = nextTurnText(report, req);
    expect(next.ok).toBe(true);
    if (!next.ok) return;
    const parsed = JSON.parse(next.text);
    expect(parsed.input).toBe(DEFAULT_SIMULATED_NEXT_INPUT);
    expect(parsed.history.length).toBe(req.history.length + 2);
    const prev = previousTurnText(report, req);
    expect(prev.ok).toBe(true);
  });

  it("says why there is no previous turn", async () => {
    const report = await reportOf(JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }));
    expect(previousTurnText(report, null)).toMatchObject({ ok: false });
  });
});
