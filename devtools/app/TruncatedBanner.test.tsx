import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SAMPLE_TEXT, reportFor, type SampleId } from "../test-support/reports.ts";
import { renderWithClient, resetStores } from "../test-support/render.tsx";
import { VIEWS } from "../views/index.ts";
import { TruncatedBanner } from "./TruncatedBanner.tsx";

describe("a report cut to inspect's listCap", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("names every cut list with its full length", async () => {
    const report = await reportFor("conversation-turn-2", { listCap: 2 });
    expect(report.truncated.length).toBeGreaterThan(0);
    renderWithClient(<TruncatedBanner report={report} />);
    const banner = screen.getByTestId("report-truncated");
    expect(banner.dataset.count).toBe(String(report.truncated.length));
    const segments = report.truncated.find((t) => t.path === "segments.segments")!;
    expect(banner.textContent).toContain(`segments.segments 2 of ${segments.total}`);
    expect(banner.textContent).toContain(`fingerprints left out (${segments.total} entries)`);
  });

  it("says the whole lists are coming for the worker's first report of a long request", async () => {
    const report = await reportFor("conversation-turn-2", { listCap: 2 });
    renderWithClient(<TruncatedBanner report={report} partial />);
    expect(screen.queryByTestId("report-truncated")).toBeNull();
    expect(screen.getByTestId("report-partial").textContent).toContain("the whole lists are on their way");
  });

  it("shows nothing for a whole report", async () => {
    renderWithClient(<TruncatedBanner report={await reportFor("conversation-turn-2")} />);
    expect(screen.queryByTestId("report-truncated")).toBeNull();
  });

  const samples = Object.keys(SAMPLE_TEXT) as SampleId[];
  it.each(samples.flatMap((id) => Object.keys(VIEWS).map((view) => [id, view] as const)))(
    "%s: the %s view draws the cut lists",
    async (id, view) => {
      const report = await reportFor(id, { listCap: 1 });
      const View = VIEWS[view as keyof typeof VIEWS];
      const { container } = renderWithClient(<View report={report} />);
      expect(container.textContent).not.toBe("");
      expect(container.querySelector('[data-testid="view-error"]')).toBeNull();
    },
  );
});
