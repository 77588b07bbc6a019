import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportFor, turnReport } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { overviewCards } from "./model.ts";
import { OverviewView } from "./Overview.tsx";

describe("Overview", () => {
  beforeEach(() => {
    resetStores();
    location.hash = "";
  });
  afterEach(cleanup);

  it("shows the detected format, message count and size of a wire request", async () => {
    const report = await reportFor("openai-chat");
    renderWithClient(<OverviewView report={report} />);
    expect(screen.getByTestId("card-format-value").textContent).toBe("OpenAI Chat Completions");
    expect(screen.getByTestId("card-messages-value").textContent).toBe(String(report.request!.messages.length));
    expect(screen.getByTestId("card-size-value").textContent).toContain("tokens");
    expect(screen.getByTestId("card-dropped-value").textContent).toBe("0");
  });

  it("counts the dropped sections of an assembly request and links the card to the Dropped view", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<OverviewView report={report} />);
    expect(screen.getByTestId("card-dropped-value").textContent).toBe(String(report.dropped.length));
    expect(report.dropped.length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId("card-dropped"));
    expect(location.hash).toBe("#/view/dropped");
  });

  it("gives the stable prefix against the previous turn", async () => {
    const report = await turnReport(3);
    const card = overviewCards(report).find((c) => c.id === "prefix")!;
    const p = report.prefix!;
    expect(card.value).toBe(`${((p.commonPrefix.bytes / p.next.bytes) * 100).toFixed(0)}%`);
    expect(card.detail).toContain(p.divergence!.path);
  });

  it("has one card per question, each linking to a view", async () => {
    const cards = overviewCards(await reportFor("anthropic"));
    expect(cards.map((c) => c.id)).toEqual([
      "format",
      "messages",
      "size",
      "budget",
      "dropped",
      "prefix",
      "savings",
      "issues",
    ]);
  });

  it("says an appended turn reuses the whole previous turn, without calling it a divergence", async () => {
    const report = await turnReport(2);
    const card = overviewCards(report).find((c) => c.id === "prefix")!;
    expect(report.prefix!.divergence!.cause).toBe("appended");
    expect(card.detail).toMatch(/^vs previous turn; appended: reuses 100% of the previous turn \(\d+% of this one\)$/);
    expect(card.tone).toBe("good");
  });

  it("gives a wire request's share of its model's window when no cap is set", async () => {
    const card = overviewCards(await reportFor("anthropic")).find((c) => c.id === "budget")!;
    expect(card).toMatchObject({ title: "Context window", value: "1%" });
    expect(card.detail).toBe("of claude-sonnet-4-5's 200,000-token window; no cap set");
  });
});

describe("Overview: predicted vs actual", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("says the size is an estimate with its band, or exact", async () => {
    const report = await reportFor("anthropic");
    const band = Math.round(report.tokens!.band! * 100);
    expect(overviewCards(report).find((c) => c.id === "size")!.value).toBe(
      `≈ ${report.tokens!.total.toLocaleString("en-US")} ± ${band}% tokens`,
    );
  });

  it("puts the response's usage beside the prediction, and a pasted response goes to the store", async () => {
    const usage = { input_tokens: 700, cache_read_input_tokens: 64, cache_creation_input_tokens: 0, output_tokens: 9 };
    const report = await reportFor("anthropic", { response: { usage } });
    renderWithClient(<OverviewView report={report} />);
    const input = screen.getByTestId("usage-input");
    expect(input.dataset["actual"]).toBe(String(700 + 64));
    const diff = 764 - report.tokens!.total;
    expect(input.textContent).toContain(`${diff > 0 ? "+" : ""}${diff.toLocaleString("en-US")}`);
    expect(input.textContent).toContain("≈");
    expect(screen.getByTestId("usage-cacheRead").dataset["actual"]).toBe("64");
    fireEvent.change(screen.getByTestId("response-input"), { target: { value: JSON.stringify({ usage }) } });
    const { useInput } = await import("../../store/input.ts");
    expect(useInput.getState().response).toBe(JSON.stringify({ usage }));
    expect(useInput.getState().revision.response).toBe(1);
  });

  it("says when the response has no usage", async () => {
    renderWithClient(<OverviewView report={await reportFor("anthropic", { response: { error: { type: "x" } } })} />);
    expect(screen.getByTestId("usage-none").textContent).toContain("anthropic");
  });
});
