import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useInput } from "../../store/input.ts";
import { reportFor, reportOf, SAMPLE_TEXT } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { arithmetic, DroppedView } from "./Dropped.tsx";

describe("Dropped", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("lists one row per dropped item with its rule, size and arithmetic", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<DroppedView report={report} />);
    const rows = screen.getAllByTestId("dropped-row");
    expect(rows.map((r) => r.dataset["id"])).toEqual(report.dropped.map((d) => d.id));
    const tierDrop = report.dropped.find((d) => d.stage === "tiers")!;
    const row = rows.find((r) => r.dataset["id"] === tierDrop.id)!;
    expect(row.textContent).toContain(`${tierDrop.size} ${tierDrop.unit}`);
    expect(row.textContent).toContain(tierDrop.reason);
    expect(row.querySelector('[data-testid="dropped-arithmetic"]')?.textContent).toBe(arithmetic(tierDrop));
  });

  it("writes the sum and the comparison with the limit", () => {
    expect(
      arithmetic({
        stage: "tiers",
        id: "x",
        path: null,
        kind: "active",
        size: 208,
        unit: "chars",
        limit: 504,
        usedBefore: 331,
        reason: "",
      }),
    ).toBe("331 + 208 = 539 > 504 chars");
    expect(
      arithmetic({
        stage: "context_budget",
        id: "h",
        path: null,
        kind: "history",
        size: 5,
        unit: "tokens",
        limit: null,
        usedBefore: null,
        reason: "",
      }),
    ).toBeNull();
  });

  it("says so when nothing was dropped", async () => {
    renderWithClient(<DroppedView report={await reportFor("openai-chat")} />);
    expect(screen.getByTestId("dropped-empty")).toBeTruthy();
  });

  it("lists a wire request's omissions under a cap, with paths, and opens the trimmed request in the editor", async () => {
    useInput.getState().setText("current", SAMPLE_TEXT.anthropic, "sample");
    // A cap just under the request without its oldest history message: that one goes, then the next.
    const whole = await reportFor("anthropic");
    const cap = whole.tokens!.total - whole.parts!.parts.find((p) => p.source === "history:1")!.tokens - 1;
    const report = await reportFor("anthropic", { contextBudget: { maxInputTokens: cap } });
    renderWithClient(<DroppedView report={report} />);
    expect(screen.getAllByTestId("dropped-row").map((r) => r.dataset["id"])).toEqual(["history:1", "history:2"]);
    expect(screen.getAllByTestId("dropped-path").map((p) => p.textContent)).toEqual(["messages[1]", "messages[2]"]);
    fireEvent.click(screen.getByTestId("trimmed-export-open"));
    const trimmed = JSON.parse(useInput.getState().current) as { messages: unknown[] };
    expect(trimmed.messages).toHaveLength(JSON.parse(SAMPLE_TEXT.anthropic).messages.length - 3);
    expect(useInput.getState().previous).toBe(SAMPLE_TEXT.anthropic);
    const again = await reportOf(useInput.getState().current, { contextBudget: { maxInputTokens: cap } });
    expect(again.format).toBe("anthropic");
    expect(again.dropped).toEqual([]);
  });

  it("says why nothing was dropped: no cap, everything fits, or a cap below the protected parts", async () => {
    const reason = async (options: Parameters<typeof reportFor>[1]) => {
      cleanup();
      renderWithClient(<DroppedView report={await reportFor("gemini", options)} />);
      return screen.getByTestId("dropped-empty").dataset["reason"];
    };
    expect(await reason({})).toBe("no-cap");
    expect(await reason({ contextBudget: { maxInputTokens: 100_000 } })).toBe("fits");
    expect(await reason({ contextBudget: { maxInputTokens: 10 } })).toBe("overflow");
  });
});
