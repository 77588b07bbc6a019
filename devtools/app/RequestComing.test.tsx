import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { type LaterReports, setInspectRunner } from "../inspect/runner.ts";
import { installInputMarks } from "../inspect/useInspection.ts";
import { PASTE_TO_RENDERED } from "../perf/marks.ts";
import type { RequestViewId } from "../routing/routes.ts";
import { useInput } from "../store/input.ts";
import { useUi } from "../store/settings.ts";
import { SAMPLE_TEXT, reportFor } from "../test-support/reports.ts";
import { renderWithClient, resetStores } from "../test-support/render.tsx";
import { REPORT_ONLY_VIEWS, VIEWS } from "../views/index.ts";
import { ViewHost } from "./ViewHost.tsx";

/**
 * A long request's first report comes from the worker without its request, which follows (see
 * runner.ts). A runner that answers so, and hands the test the moment the request comes.
 */
function installSplitRunner(report: InspectionReport) {
  const request = report.request!;
  let later: LaterReports | undefined;
  const asked = { count: 0 };
  setInspectRunner(async (_job, _signal, callbacks) => {
    later = callbacks;
    return {
      report: { ...report, request: null },
      requestComing: { messages: request.messages.length, tools: request.tools.length },
      // The view host says when the first report is painted: then the worker sends the request.
      shown: () => asked.count++,
    };
  });
  return {
    asked,
    deliver: () => act(() => later!.onRequest!({ ...report, request })),
  };
}

const measures = () => performance.getEntriesByName(PASTE_TO_RENDERED, "measure").length;

describe("a first report whose request is still coming", () => {
  let stopMarks: () => void = () => {};
  beforeEach(() => {
    resetStores();
    performance.clearMeasures();
    stopMarks = installInputMarks();
  });
  afterEach(() => {
    stopMarks();
    setInspectRunner(undefined);
    cleanup();
  });

  async function open(view: RequestViewId) {
    const report = await reportFor("conversation-turn-2");
    const runner = installSplitRunner(report);
    useUi.setState({ view });
    renderWithClient(<ViewHost />);
    act(() => useInput.getState().setText("current", SAMPLE_TEXT["conversation-turn-2"], "pasted"));
    await waitFor(() => expect(screen.getByTestId("view-host").dataset["state"]).toBe("ready"));
    return { report, ...runner };
  }

  it("draws the overview at once, with the request's counts, then asks for the request", async () => {
    const { report, asked } = await open("overview");
    expect(screen.getByTestId("card-messages-value").textContent).toBe(String(report.request!.messages.length));
    expect(screen.queryByTestId("view-request-coming")).toBeNull();
    await waitFor(() => expect(measures()).toBe(1));
    // Once painted (after the measure), and once only.
    await waitFor(() => expect(asked.count).toBe(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(asked.count).toBe(1);
  });

  it("draws Raw at once with the request's JSON pending, then the JSON when the request comes", async () => {
    const { deliver } = await open("raw");
    expect(screen.getByTestId("raw-request-pending")).toBeTruthy();
    expect(screen.getByTestId("view-raw").textContent).not.toContain("could not be normalized");
    await waitFor(() => expect(measures()).toBe(1));
    act(() => screen.getByTestId("raw-tab-export").click());
    expect(screen.getByTestId("export-pending")).toBeTruthy();
    act(() => screen.getByTestId("raw-tab-request").click());
    deliver();
    await waitFor(() => expect(screen.getByTestId("raw-request").textContent).toContain('"messages"'));
    expect(screen.queryByTestId("raw-request-pending")).toBeNull();
  });

  it.each(Object.keys(VIEWS).filter((v) => !REPORT_ONLY_VIEWS.has(v as RequestViewId)))(
    "the %s view waits for the request, and is measured as rendered only when it has come",
    async (view) => {
      const { report, deliver, asked } = await open(view as RequestViewId);
      const coming = screen.getByTestId("view-request-coming");
      expect(coming.textContent).toContain(`${report.request!.messages.length} messages`);
      expect(screen.queryByTestId(`view-${view}`)?.querySelector('[data-testid="view-error"]') ?? null).toBeNull();
      await new Promise((r) => setTimeout(r, 50));
      expect(measures()).toBe(0);
      // The placeholder is painted: the request is asked for.
      expect(asked.count).toBe(1);
      deliver();
      await waitFor(() => expect(screen.queryByTestId("view-request-coming")).toBeNull());
      expect(screen.getByTestId(`view-${view}`).textContent).not.toBe("");
      await waitFor(() => expect(measures()).toBe(1));
    },
  );
});
