import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportFor } from "../../test-support/reports.ts";
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
});
