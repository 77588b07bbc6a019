import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { inspectSession, parseSession } from "../../../core/session/index.ts";
import { harOf, sampleSessionRecords, sessionSamples } from "../../../core/test-support/samples-session.ts";
import { sessionSampleIndex } from "../../../core/test-support/samples.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { useInput } from "../../store/input.ts";
import { initialSessionState, useSession } from "../../store/session.ts";
import { loadSessionFile, loadSessionFingerprints } from "./actions.ts";
import { niceMax, timelineModel } from "./model.ts";
import { SessionView } from "./Session.tsx";

const har = harOf(sampleSessionRecords, { others: true });
const expected = inspectSession(parseSession(har));

async function loaded() {
  renderWithClient(<SessionView />);
  await act(() => loadSessionFile(new Blob([har], { type: "application/json" }), "dispatch.har"));
  await waitFor(() => expect(useSession.getState().status).toBe("ready"));
}

/** The bundled session samples, served as the page would fetch them. */
function serveSessionSamples() {
  const files: Record<string, string> = { "samples/sessions/index.json": JSON.stringify(sessionSampleIndex()) };
  for (const s of sessionSamples) files[`samples/${s.file}`] = s.text;
  vi.stubGlobal("fetch", async (url: string) => {
    const key = Object.keys(files).find((k) => String(url).endsWith(k));
    return key ? new Response(files[key]) : new Response("missing", { status: 404 });
  });
}

describe("Session view", () => {
  beforeEach(() => {
    serveSessionSamples();
    resetStores();
    useSession.setState(initialSessionState());
    location.hash = "#/view/session";
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("loads a bundled sample session from the picker", async () => {
    renderWithClient(<SessionView />);
    const picker = await screen.findByTestId("session-sample-picker");
    await waitFor(() => expect(picker.querySelectorAll("option")).toHaveLength(3));
    fireEvent.change(picker, { target: { value: "dispatch-jsonl" } });
    await waitFor(() => expect(useSession.getState().status).toBe("ready"));
    expect(useSession.getState().report!.input.kind).toBe("jsonl");
    expect(screen.getByTestId("session-source").textContent).toMatch(/request log .* JSONL · 6 records · 6 turns/);
  });

  it("says what to load before there is a session", () => {
    renderWithClient(<SessionView />);
    expect(screen.getByTestId("session-empty").textContent).toMatch(/Save a HAR/);
  });

  it("reads a dropped HAR into the report core makes of it: threads, timeline, turns, busts", async () => {
    await loaded();
    expect(useSession.getState().report).toEqual(expected);
    expect(screen.getAllByTestId("session-thread").map((t) => t.dataset["thread"])).toEqual(["t1", "t2"]);
    const bars = screen.getAllByTestId("timeline-turn");
    expect(bars.map((b) => b.dataset["cause"])).toEqual(expected.threads[0]!.turns.map((t) => t.cause));
    expect(screen.getAllByTestId("timeline-bust").length).toBe(2);
    expect(bars[2]!.dataset["bust"]).toBe("system_changed");
    expect(bars[2]!.dataset["expired"]).toBe("true");
    expect(screen.getAllByTestId("timeline-actual")).toHaveLength(4);
    expect(screen.getAllByTestId("session-turn-row").map((r) => Number(r.dataset["read"]))).toEqual(
      expected.threads[0]!.turns.map((t) => t.predicted.cacheRead),
    );
    expect(
      screen
        .getAllByTestId("session-bust")
        .map((b) => `${b.dataset["thread"]}:${b.dataset["turn"]}:${b.dataset["cause"]}`),
    ).toEqual(["t1:3:system_changed", "t1:4:tool_order_changed"]);
    expect(screen.getByTestId("session-skipped").dataset["count"]).toBe("2");
  });

  it("shows the other thread when it is picked", async () => {
    await loaded();
    fireEvent.click(screen.getAllByTestId("session-thread")[1]!);
    expect(screen.getByTestId("session-timeline").dataset["thread"]).toBe("t2");
    expect(screen.getAllByTestId("session-turn-row")).toHaveLength(2);
  });

  it("opens a bust as the pair of requests in Cache prefix", async () => {
    await loaded();
    await act(async () => {
      fireEvent.click(screen.getAllByTestId("session-open-bust")[0]!);
    });
    await waitFor(() => expect(location.hash).toMatch(/^#\/view\/cache/));
    const input = useInput.getState();
    expect(JSON.parse(input.current)).toEqual(sampleSessionRecords[4]!.request);
    expect(JSON.parse(input.previous)).toEqual(sampleSessionRecords[2]!.request);
    expect(input.source).toBe("session dispatch.har: t1 turn 3 (log.entries[6])");
    expect(input.previousSource).toBe("session dispatch.har: t1 turn 2 (log.entries[4])");
  });

  it("exports the report as JSON and CSV files", async () => {
    await loaded();
    const blobs: Blob[] = [];
    const create = vi.fn((b: Blob) => (blobs.push(b), "blob:test"));
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    fireEvent.click(screen.getByTestId("session-export-json"));
    fireEvent.click(screen.getByTestId("session-export-csv"));
    expect(JSON.parse(await blobs[0]!.text())).toEqual(expected);
    expect((await blobs[1]!.text()).split("\r\n")[0]).toMatch(/^thread,turn,entry/);
  });

  it("reports a file that is not a session, and a truncated one with the turns before the cut", async () => {
    renderWithClient(<SessionView />);
    await act(() => loadSessionFile(new Blob(["hello"]), "notes.txt"));
    await waitFor(() => expect(screen.getByTestId("session-problem").dataset["code"]).toBe("unreadable"));
    await act(() => loadSessionFile(new Blob([har.slice(0, har.length - 4000)]), "cut.har"));
    await waitFor(() => expect(screen.getByTestId("session-problem").dataset["code"]).toBe("truncated"));
    expect(useSession.getState().report!.input.turns).toBeGreaterThan(0);
  });

  it("opens a hash-only session with the same threads, and says a turn has no text to open", async () => {
    await loaded();
    const fingerprints = JSON.parse(JSON.stringify(useSession.getState().fingerprints));
    expect(JSON.stringify(fingerprints)).not.toContain("Harbor");
    await act(() => loadSessionFingerprints(fingerprints));
    await waitFor(() => expect(useSession.getState().status).toBe("ready"));
    expect(screen.getByTestId("session-source").dataset["kind"]).toBe("fingerprints");
    expect(screen.getAllByTestId("session-bust")).toHaveLength(2);
    await act(async () => {
      fireEvent.click(screen.getAllByTestId("session-open-turn")[0]!);
    });
    await waitFor(() =>
      expect(screen.getByTestId("session-open-error").textContent).toMatch(/hash-only session carries no request text/),
    );
  });
});

describe("timeline model", () => {
  it("stacks read, written and uncached to the turn's total on a round scale", () => {
    const thread = expected.threads[0]!;
    const m = timelineModel(thread, new Map([[3, "system_changed"]]));
    expect(m.max).toBe(
      niceMax(Math.max(...thread.turns.map((t) => Math.max(t.predicted.input, t.actual?.input ?? 0)))),
    );
    for (const b of m.bars) {
      const height = b.read.height + b.write.height + b.uncached.height;
      expect(height).toBeCloseTo((b.turn.predicted.input / m.max) * 150, 6);
      expect(b.x + m.bar + m.actual).toBeLessThanOrEqual(m.width);
      expect(b.read.y).toBeGreaterThanOrEqual(b.write.y);
    }
    expect(m.bars.map((b) => b.bust?.cause ?? null)).toEqual([null, null, "system_changed", null]);
    expect([niceMax(0), niceMax(1), niceMax(1_899), niceMax(2_125), niceMax(5_001)]).toEqual([
      1, 1, 2_000, 5_000, 10_000,
    ]);
  });
});

describe("a session file dropped on the request panel", () => {
  beforeEach(() => {
    resetStores();
    useSession.setState(initialSessionState());
    location.hash = "#/view/overview";
  });
  afterEach(cleanup);

  it("goes to the Session view instead of the request slot", async () => {
    const { InputPanel } = await import("../../components/InputPanel.tsx");
    renderWithClient(<InputPanel slot="current" title="Request" />);
    const file = new File([har], "dispatch.har", { type: "application/json" });
    fireEvent.drop(screen.getByTestId("input-panel-current"), { dataTransfer: { files: [file] } });
    await waitFor(() => expect(useSession.getState().status).toBe("ready"));
    expect(location.hash).toMatch(/^#\/view\/session/);
    expect(useInput.getState().current).toBe("");
    expect(useSession.getState().report!.input.turns).toBe(6);
  });
});
