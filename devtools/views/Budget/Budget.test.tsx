import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadGptTokenizer } from "../../inspect/estimator.ts";
import { useInput } from "../../store/input.ts";
import { useUi } from "../../store/settings.ts";
import { reportFor, reportOf, SAMPLE_TEXT } from "../../test-support/reports.ts";
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

  it("groups an assembly and a wire request's parts by provenance, the tool catalog included", async () => {
    const assembly = budgetGroups(await reportFor("assembly-tiers"));
    expect(assembly.map((g) => g.key)).toContain("instructions");
    const trace = (await reportFor("assembly-tiers")).assembly!.cache_aware!;
    expect(assembly.reduce((a, g) => a + g.tokens, 0)).toBe(trace.messages.reduce((a, m) => a + m.tokens, 0));
    const anthropic = await reportFor("anthropic");
    const wire = budgetGroups(anthropic);
    expect(wire.map((g) => g.key)).toEqual(["instructions", "tools", "history", "input"]);
    expect(wire.reduce((a, g) => a + g.tokens, 0)).toBe(anthropic.segments!.totalTokens);
  });

  it("compares the chars/4 estimate with gpt-tokenizer, group by group", async () => {
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

  it("says how much of the model's window a wire request uses, and offers the nearest rows for an unknown model", async () => {
    renderWithClient(<BudgetView report={await reportFor("conversation-turn-1")} />);
    expect(screen.getByTestId("context-window-summary").textContent).toBe(
      "Uses 1% of claude-sonnet-4-5's 200,000-token window, with max_tokens 1,024 reserved.",
    );
    cleanup();
    const unknown = { ...JSON.parse(SAMPLE_TEXT.anthropic), model: "claude-sonnet-4-9" };
    renderWithClient(<BudgetView report={await reportOf(JSON.stringify(unknown))} />);
    const use = screen.getAllByTestId("context-window-use");
    expect(use.length).toBeGreaterThan(0);
    fireEvent.click(use[0]!);
    expect(useUi.getState().model).toBe(use[0]!.dataset["model"]);
  });

  it("evicts a wire request's parts under the header's cap and shows the arithmetic", async () => {
    renderWithClient(<BudgetView report={await reportFor("anthropic", { contextBudget: { maxInputTokens: 200 } })} />);
    expect(screen.getAllByTestId("omission").map((r) => r.dataset["id"])).toEqual(["history:1", "history:2"]);
    expect(screen.getByTestId("budget-arithmetic").textContent).toMatch(/^Before eviction 347 tokens/);
    expect(screen.getByTestId("trimmed-export")).toBeTruthy();
  });
});
