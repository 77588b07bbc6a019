import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useUi } from "../../store/settings.ts";
import { reportFor, reportOf, turnReport } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { allChars, gateAt } from "./model.ts";
import { TierGatingView } from "./TierGating.tsx";

const verdicts = () => screen.getAllByTestId("tier-row").map((r) => `${r.dataset["id"]}:${r.dataset["verdict"]}`);

describe("Tier gating", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("at the request's budget, shows exactly the report's verdicts and arithmetic", async () => {
    const report = await reportFor("assembly-tiers");
    const tiers = report.tiers!;
    renderWithClient(<TierGatingView report={report} />);
    expect(verdicts()).toEqual(tiers.rows.map((r) => `${r.id}:${r.verdict}`));
    expect(screen.getAllByTestId("tier-reason").map((c) => c.textContent)).toEqual(
      gateAt(tiers, tiers.effectiveBudget!).rows.map((r) => r.reason),
    );
    expect(screen.getByTestId("tier-line-budget").dataset["value"]).toBe(String(tiers.effectiveBudget));
    expect(screen.getByTestId("tier-line-core").dataset["value"]).toBe(String(tiers.coreChars));
  });

  it("re-runs the gate when the budget slider moves", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<TierGatingView report={report} />);
    const droppedAtRequestBudget = Number(screen.getByTestId("tier-summary").dataset["dropped"]);
    expect(droppedAtRequestBudget).toBeGreaterThan(0);

    fireEvent.change(screen.getByTestId("tier-budget-slider"), { target: { value: String(allChars(report.tiers!)) } });
    expect(useUi.getState().tierBudget).toBe(allChars(report.tiers!));
    expect(screen.getByTestId("tier-summary").dataset["dropped"]).toBe("0");
    expect(screen.getByTestId("tier-dropped-list").dataset["count"]).toBe("0");

    fireEvent.change(screen.getByTestId("tier-budget-slider"), { target: { value: "0" } });
    const kept = screen.getAllByTestId("tier-row").filter((r) => r.dataset["verdict"] === "included");
    expect(kept.every((r) => r.dataset["tier"] === "core")).toBe(true);

    act(() => fireEvent.click(screen.getByTestId("tier-budget-reset")));
    expect(screen.getByTestId("tier-summary").dataset["dropped"]).toBe(String(droppedAtRequestBudget));
  });

  it("explains that a request without a system prompt has no tier gating", async () => {
    const report = await reportOf(JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }));
    renderWithClient(<TierGatingView report={report} />);
    expect(screen.getByTestId("tiers-empty").textContent).toContain("no system prompt text");
  });

  it("does not treat a cleared or non-numeric budget field as a budget of 0", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<TierGatingView report={report} />);
    const input = screen.getByTestId("tier-budget-input") as HTMLInputElement;
    fireEvent.change(input, { target: { value: "300" } });
    expect(useUi.getState().tierBudget).toBe(300);
    fireEvent.change(input, { target: { value: "" } });
    expect(useUi.getState().tierBudget).toBe(300);
    expect(input.value).toBe("");
    fireEvent.blur(input);
    expect(input.value).toBe("300");
  });

  it("splits a wire request's system prompt into sections, all active, and re-gates them as tiers are assigned", async () => {
    const report = await turnReport(2);
    renderWithClient(<TierGatingView report={report} />);
    expect(screen.getByTestId("tier-origin").textContent).toContain("9 sections");
    const rows = () => screen.getAllByTestId("tier-row");
    expect(rows().every((r) => r.dataset["tier"] === "active" && r.dataset["verdict"] === "included")).toBe(true);
    act(() => useUi.getState().set({ tierBudget: 1500 }));
    const dropped = rows().filter((r) => r.dataset["verdict"] === "dropped").length;
    expect(dropped).toBeGreaterThan(0);
    // Make the first paragraph core: it is then always kept, and the composed prompt follows.
    const select = screen.getAllByTestId("tier-assign")[0] as HTMLSelectElement;
    fireEvent.change(select, { target: { value: "core" } });
    expect(useUi.getState().tierAssignments).toEqual({ p1: "core" });
    expect(rows()[0]!.dataset["tier"]).toBe("core");
    const composed = screen.getByTestId("tier-composed");
    const kept = rows()
      .filter((r) => r.dataset["verdict"] === "included")
      .map((r) => r.dataset["id"]);
    expect(kept[0]).toBe("p1");
    expect(Number(composed.dataset["chars"])).toBeLessThanOrEqual(1500 + kept.length * 2);
    expect(screen.getByTestId("composed-export").dataset["format"]).toBe("anthropic");
  });
});
