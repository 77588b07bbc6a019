import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useUi } from "../../store/settings.ts";
import { reportFor } from "../../test-support/reports.ts";
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

  it("explains that a request without sections has no tier gating", async () => {
    renderWithClient(<TierGatingView report={await reportFor("openai-chat")} />);
    expect(screen.getByTestId("tiers-empty")).toBeTruthy();
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
});
