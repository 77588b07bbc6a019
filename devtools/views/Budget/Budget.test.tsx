import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadGptTokenizer } from "../../inspect/estimator.ts";
import { useInput } from "../../store/input.ts";
import { useUi } from "../../store/settings.ts";
import { reportFor, SAMPLE_TEXT } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { BudgetView } from "./Budget.tsx";
import { budgetGroups } from "./model.ts";

describe("Budget", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("shows tokens and bytes against the request's caps", async () => {
    const report = await reportFor("assembly-tiers");
    const cb = report.contextBudget!;
    renderWithClient(<BudgetView report={report} />);
    const tokens = screen.getByTestId("budget-tokens-meter");
    expect(tokens.dataset["used"]).toBe(String(cb.usedTokens));
    expect(tokens.dataset["cap"]).toBe(String(cb.maxInputTokens ?? ""));
    expect(screen.getAllByTestId("omission").map((o) => o.dataset["id"])).toEqual(cb.omitted.map((o) => o.id));
  });

  it("groups an assembly by provenance and a wire request by region and role", async () => {
    const assembly = budgetGroups(await reportFor("assembly-tiers"));
    expect(assembly.map((g) => g.key)).toContain("instructions");
    const trace = (await reportFor("assembly-tiers")).assembly!.cache_aware!;
    expect(assembly.reduce((a, g) => a + g.tokens, 0)).toBe(trace.messages.reduce((a, m) => a + m.tokens, 0));
    const wire = budgetGroups(await reportFor("anthropic"));
    expect(wire.map((g) => g.key)).toEqual(expect.arrayContaining(["tools", "system", "messages · user"]));
  });

  it("compares the ÷4 estimate with gpt-tokenizer, group by group", async () => {
    useInput.getState().setText("current", SAMPLE_TEXT["assembly-tiers"], "test");
    useUi.setState({ estimator: "gpt-tokenizer" });
    const tokenizer = await loadGptTokenizer();
    const report = await reportFor("assembly-tiers", { tokenEstimator: tokenizer });
    const quarter = await reportFor("assembly-tiers");
    renderWithClient(<BudgetView report={report} />);
    const total = await waitFor(() => screen.getByTestId("estimator-total"), { timeout: 5000 });
    expect(Number(total.dataset["quarter"])).toBe(budgetGroups(quarter).reduce((a, g) => a + g.tokens, 0));
    expect(Number(total.dataset["tokenizer"])).toBe(budgetGroups(report).reduce((a, g) => a + g.tokens, 0));
    expect(total.dataset["quarter"]).not.toBe(total.dataset["tokenizer"]);
  });

  it("switches the estimator from the radio buttons", async () => {
    renderWithClient(<BudgetView report={await reportFor("openai-chat")} />);
    fireEvent.click(screen.getByTestId("estimator-gpt-tokenizer"));
    expect(useUi.getState().estimator).toBe("gpt-tokenizer");
    expect(screen.getByTestId("estimator-loading")).toBeTruthy();
  });
});
