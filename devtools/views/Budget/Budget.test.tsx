import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { estimateTextTokens } from "../../../core/tokens/index.ts";
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
    // Every part is counted once, with its bytes, in its own group.
    const sent = anthropic.assembly!.asSent!.messages;
    const tools = anthropic.parts!.parts.filter((p) => p.kind === "tools");
    expect(wire.find((g) => g.key === "tools")).toMatchObject({
      count: tools.length,
      bytes: tools.reduce((a, p) => a + p.bytes, 0),
    });
    expect(wire.reduce((a, g) => a + g.count, 0)).toBe(sent.length + tools.length);
    expect(wire.reduce((a, g) => a + g.bytes, 0)).toBe(
      sent.reduce((a, m) => a + m.bytes, 0) + tools.reduce((a, p) => a + p.bytes, 0),
    );
  });

  it("compares the provider's count with chars/4, group by group, and says it is an estimate", async () => {
    useInput.getState().setText("current", SAMPLE_TEXT.anthropic, "test");
    const report = await reportFor("anthropic");
    const quarter = await reportFor("anthropic", { tokenEstimator: estimateTextTokens });
    renderWithClient(<BudgetView report={report} />);
    const total = await waitFor(() => screen.getByTestId("estimator-total"), { timeout: 5000 });
    expect(Number(total.dataset["quarter"])).toBe(budgetGroups(quarter).reduce((a, g) => a + g.tokens, 0));
    expect(Number(total.dataset["counted"])).toBe(report.tokens!.total);
    expect(total.dataset["quarter"]).not.toBe(total.dataset["counted"]);
    const basis = screen.getAllByTestId("token-basis").at(-1)!;
    expect(basis.dataset["method"]).toBe("estimate");
    expect(basis.textContent).toContain(`± ${Math.round(report.tokens!.band! * 100)}%`);
    expect(screen.getByTestId("budget-tokens-meter").textContent).toContain("≈");
  });

  it("switches to chars/4 from the radio buttons", async () => {
    renderWithClient(<BudgetView report={await reportFor("openai-chat")} />);
    fireEvent.click(screen.getByTestId("estimator-quarter"));
    expect(useUi.getState().estimator).toBe("quarter");
    expect(screen.queryByTestId("estimator-diff")).toBeNull();
  });

  it("says how much of the model's window a wire request uses, and offers the nearest rows for an unknown model", async () => {
    const report = await reportFor("conversation-turn-1");
    renderWithClient(<BudgetView report={report} />);
    expect(screen.getByTestId("context-window-summary").textContent).toBe(
      `Uses ${Math.round(report.window!.usedRatio! * 100)}% of claude-sonnet-4-5's 200,000-token window, with max_tokens 1,024 reserved.`,
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
    // A cap just under the request without its oldest history message: that one goes, then the next.
    const whole = await reportFor("anthropic");
    const first = whole.parts!.parts.find((p) => p.source === "history:1")!;
    const cap = whole.tokens!.total - first.tokens - 1;
    renderWithClient(<BudgetView report={await reportFor("anthropic", { contextBudget: { maxInputTokens: cap } })} />);
    expect(screen.getAllByTestId("omission").map((r) => r.dataset["id"])).toEqual(["history:1", "history:2"]);
    expect(screen.getByTestId("budget-arithmetic").textContent).toMatch(
      new RegExp(`^Before eviction ${whole.tokens!.total.toLocaleString("en-US")} tokens`),
    );
    expect(screen.getByTestId("trimmed-export")).toBeTruthy();
  });
});
