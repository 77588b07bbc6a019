import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { useInput } from "../store/input.ts";
import { useUi } from "../store/settings.ts";
import { SAMPLE_TEXT, reportFor } from "../test-support/reports.ts";
import { resetStores } from "../test-support/render.tsx";
import type { InspectJob } from "./protocol.ts";
import { setInspectRunner } from "./runner.ts";
import { startInspectionsEarly, useInspection } from "./useInspection.ts";

/** Reads the main inspection as a view does, and shows its report's message count. */
function Reader() {
  const { query } = useInspection();
  return <p data-testid="messages">{query.data ? String(query.data.report.request?.messages.length) : "…"}</p>;
}

/** A runner that answers with `report` when told to, and keeps every job it was given with its signal. */
function recordingRunner(report: InspectionReport) {
  const jobs: { readonly job: InspectJob; readonly signal: AbortSignal | undefined }[] = [];
  const answers: (() => void)[] = [];
  setInspectRunner(
    (job, signal) =>
      new Promise((resolve) => {
        jobs.push({ job, signal });
        answers.push(() => resolve({ report, requestComing: null }));
      }),
  );
  return { jobs, answerAll: () => answers.forEach((answer) => answer()) };
}

describe("startInspectionsEarly", () => {
  let client: QueryClient;
  let stop: () => void;
  beforeEach(() => {
    resetStores();
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    stop = startInspectionsEarly(client);
  });
  afterEach(() => {
    stop();
    setInspectRunner(undefined);
    cleanup();
    client.clear();
  });

  it("posts the job in the store change itself, and the view's query takes that same inspection", async () => {
    const report = await reportFor("conversation-turn-2");
    const runner = recordingRunner(report);
    const text = SAMPLE_TEXT["conversation-turn-2"];
    useInput.getState().setText("current", text, "pasted");
    // Nothing has rendered yet: the job is already on its way, with the stores' texts and settings.
    expect(runner.jobs).toHaveLength(1);
    expect(runner.jobs[0]!.job.input).toBe(text);
    expect(runner.jobs[0]!.job.settings.provider).toBe(useUi.getState().provider);
    render(
      <QueryClientProvider client={client}>
        <Reader />
      </QueryClientProvider>,
    );
    act(() => runner.answerAll());
    await waitFor(() =>
      expect(screen.getByTestId("messages").textContent).toBe(String(report.request!.messages.length)),
    );
    // The view asked for no second inspection of the same input.
    expect(runner.jobs).toHaveLength(1);
  });

  it("stops an early inspection that no view took up when the input changes again", async () => {
    const runner = recordingRunner(await reportFor("conversation-turn-2"));
    useInput.getState().setText("current", SAMPLE_TEXT["conversation-turn-2"], "pasted");
    useInput.getState().setText("current", SAMPLE_TEXT["conversation-turn-3"], "pasted");
    expect(runner.jobs.map((j) => j.job.input)).toEqual([
      SAMPLE_TEXT["conversation-turn-2"],
      SAMPLE_TEXT["conversation-turn-3"],
    ]);
    expect(runner.jobs[0]!.signal?.aborted).toBe(true);
    expect(runner.jobs[1]!.signal?.aborted).toBe(false);
  });

  it("leaves an inspection a view reads running when the settings change", async () => {
    const runner = recordingRunner(await reportFor("conversation-turn-2"));
    render(
      <QueryClientProvider client={client}>
        <Reader />
      </QueryClientProvider>,
    );
    act(() => useInput.getState().setText("current", SAMPLE_TEXT["conversation-turn-2"], "pasted"));
    await waitFor(() => expect(runner.jobs).toHaveLength(1));
    // The view holds the first query until it renders with the new key (when the act ends); the
    // early start must not cancel it meanwhile.
    act(() => {
      useUi.setState({ estimator: "quarter" });
      expect(runner.jobs).toHaveLength(2);
      expect(runner.jobs[1]!.job.settings.estimator).toBe("quarter");
      expect(runner.jobs[0]!.signal?.aborted).toBe(false);
    });
  });

  it("starts nothing for a blank input", () => {
    const runner = recordingRunner({} as InspectionReport);
    useInput.getState().setText("current", "  \n\t ", "pasted");
    expect(runner.jobs).toHaveLength(0);
  });
});
