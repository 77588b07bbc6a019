import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "./App.tsx";
import { ViewErrorBoundary } from "./app/ErrorBoundary.tsx";
import { LARGE_INPUT, parseInput } from "./components/useParsedInput.ts";
import { PASTE_READ, PASTE_TO_RENDERED } from "./perf/marks.ts";
import { encodeBundle, parseBundle } from "./share/bundle.ts";
import { encodeShareState } from "./share/state.ts";
import { useInput } from "./store/input.ts";
import { useUi } from "./store/settings.ts";
import { reportFor, SAMPLE_INDEX_TEXT, SAMPLE_TEXT } from "./test-support/reports.ts";
import { renderWithClient, resetStores } from "./test-support/render.tsx";

function serveSamples() {
  const files: Record<string, string> = { "samples/index.json": SAMPLE_INDEX_TEXT };
  for (const [id, text] of Object.entries(SAMPLE_TEXT)) files[`samples/${id}.json`] = text;
  vi.stubGlobal("fetch", async (url: string) => {
    const key = Object.keys(files).find((k) => String(url).endsWith(k));
    return key ? new Response(files[key]) : new Response("missing", { status: 404 });
  });
}

const host = () => screen.getByTestId("view-host");
const ready = () => waitFor(() => expect(host().dataset["state"]).toBe("ready"), { timeout: 5000 });

describe("devtools app", () => {
  beforeEach(() => {
    resetStores();
    history.replaceState(null, "", "#/view/overview");
    serveSamples();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("loads the first bundled sample on start and inspects it", async () => {
    renderWithClient(<App />);
    const editor = (await screen.findByTestId("request-editor")) as HTMLTextAreaElement;
    await waitFor(() => expect(editor.value).toBe(SAMPLE_TEXT["openai-chat"]));
    expect(screen.getByTestId("input-source").textContent).toMatch(/^sample: OpenAI Chat Completions/);
    await ready();
    expect(screen.getByTestId("card-format-value").textContent).toBe("OpenAI Chat Completions");
    await waitFor(() => expect(performance.getEntriesByName(PASTE_TO_RENDERED, "measure").length).toBeGreaterThan(0));
  });

  it("shows the line and column of malformed JSON", async () => {
    renderWithClient(<App />);
    const editor = await screen.findByTestId("request-editor");
    fireEvent.change(editor, { target: { value: '{\n  "model": "m",\n}' } });
    expect(screen.getByTestId("json-error").textContent).toContain("line 3, column 1");
    await waitFor(() => expect(host().dataset["state"]).toBe("error"));
    expect(screen.getByTestId("inspect-error").dataset["code"]).toBe("json_syntax");
  });

  it("lists shape errors with their JSON paths", async () => {
    renderWithClient(<App />);
    fireEvent.change(await screen.findByTestId("request-editor"), {
      target: { value: JSON.stringify({ model: "gpt-4.1", messages: [{ role: "narrator", content: "x" }] }) },
    });
    await waitFor(() => expect(host().dataset["state"]).toBe("error"));
    expect(screen.getAllByTestId("shape-error").map((e) => e.dataset["path"])).toContain("messages[0].role");
  });

  it("opens the view named in the URL and switches views by click, arrow keys and Alt+digit", async () => {
    history.replaceState(null, "", "#/view/cache");
    renderWithClient(<App />);
    await ready();
    expect(host().dataset["view"]).toBe("cache");
    expect(screen.getByTestId("nav-cache").getAttribute("aria-current")).toBe("page");

    fireEvent.click(screen.getByTestId("nav-raw"));
    expect(location.hash).toBe("#/view/raw");
    await waitFor(() => expect(host().dataset["view"]).toBe("raw"));

    fireEvent.keyDown(screen.getByTestId("nav-raw"), { key: "ArrowLeft" });
    await waitFor(() => expect(host().dataset["view"]).toBe("history"));
    expect(document.activeElement).toBe(screen.getByTestId("nav-history"));

    fireEvent.keyDown(window, { key: "3", code: "Digit3", altKey: true });
    await waitFor(() => expect(host().dataset["view"]).toBe("tiers"));
    expect(screen.getByTestId("view-tiers")).toBeTruthy();
  });

  it("fills the previous turn when a conversation turn is picked, and names the divergence", async () => {
    history.replaceState(null, "", "#/view/cache");
    renderWithClient(<App />);
    await ready();
    fireEvent.change(screen.getByTestId("sample-picker"), { target: { value: "conversation-turn-3" } });
    await waitFor(() =>
      expect((screen.getByTestId("previous-request-editor") as HTMLTextAreaElement).value).toBe(
        SAMPLE_TEXT["conversation-turn-2"],
      ),
    );
    await waitFor(() => expect(screen.getByTestId("divergence").dataset["cause"]).toBe("system_changed"), {
      timeout: 5000,
    });
    const expected = (await reportFor("conversation-turn-3", { previous: SAMPLE_TEXT["conversation-turn-2"] })).prefix!
      .divergence!.path;
    expect(screen.getByTestId("divergence-path").textContent).toBe(expected);
  });

  it("restores the input, settings and view from a share link", async () => {
    const s = await encodeShareState({
      v: 1,
      current: SAMPLE_TEXT["assembly-tiers"],
      previous: "",
      source: "shared",
      view: "dropped",
      settings: {
        provider: "openai",
        model: "",
        layout: "legacy",
        maxInputTokens: null,
        maxInputBytes: null,
        estimator: "counted",
      },
      tierBudget: null,
    });
    history.replaceState(null, "", `#/view/overview?s=${s}`);
    renderWithClient(<App />);
    await waitFor(() => expect(useInput.getState().current).toBe(SAMPLE_TEXT["assembly-tiers"]));
    await ready();
    expect(host().dataset["view"]).toBe("dropped");
    expect(useUi.getState().provider).toBe("openai");
    expect(screen.getByTestId("layout-legacy").getAttribute("aria-pressed")).toBe("true");
    expect(location.hash).toBe("#/view/dropped"); // the payload leaves the address bar once read
    expect(screen.getByTestId("route-notice").dataset["kind"]).toBe("info");
  });

  it("puts a hash-only link's fingerprints in the previous slot and loads no sample", async () => {
    const bundle = parseBundle((await reportFor("conversation-turn-2")).fingerprints);
    history.replaceState(null, "", `#/view/cache?bundle=${await encodeBundle(bundle)}`);
    renderWithClient(<App />);
    await waitFor(() => expect(useInput.getState().previousSource).toContain("fingerprint bundle"));
    expect(useInput.getState().current).toBe("");
    expect(host().dataset["state"]).toBe("empty");
    act(() => useInput.getState().setText("current", SAMPLE_TEXT["conversation-turn-3"]));
    await ready();
    await waitFor(() => expect(screen.getByTestId("divergence").dataset["cause"]).toBe("system_changed"));
  });

  it("reports a broken share link instead of failing", async () => {
    history.replaceState(null, "", "#/view/overview?s=AAAA");
    renderWithClient(<App />);
    await waitFor(() => expect(screen.getByTestId("route-notice").dataset["kind"]).toBe("error"));
    await ready(); // the start-up sample still loads
  });

  it("toggles the theme and keeps it in the URL", async () => {
    renderWithClient(<App />);
    fireEvent.click(screen.getByTestId("theme-toggle"));
    expect(document.documentElement.dataset["theme"]).toBe("dark");
    expect(location.hash).toContain("theme=dark");
  });

  it("reads a dropped file into the slot it was dropped on", async () => {
    renderWithClient(<App />);
    const file = new File([SAMPLE_TEXT.gemini], "gemini.json", { type: "application/json" });
    fireEvent.drop(screen.getByTestId("input-panel-previous"), { dataTransfer: { files: [file] } });
    await waitFor(() => expect(useInput.getState().previous).toBe(SAMPLE_TEXT.gemini));
    expect(screen.getByTestId("previous-input-source").textContent).toBe("file: gemini.json");
  });

  it("shows a large paste as a preview, not in the textarea, and still inspects all of it", async () => {
    renderWithClient(<App />);
    await ready();
    const messages = Array.from({ length: 400 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i} ${"lorem ipsum ".repeat(80)}`,
    }));
    const big = JSON.stringify({ model: "gpt-4.1", messages: [...messages, { role: "user", content: "last" }] });
    expect(big.length).toBeGreaterThan(LARGE_INPUT);
    const clipboardData = { getData: () => big };
    performance.clearMarks(PASTE_READ);
    fireEvent.paste(screen.getByTestId("request-editor"), { clipboardData });
    // The benchmark tells the browser's share of a paste from the app's by this mark.
    expect(performance.getEntriesByName(PASTE_READ, "mark")).toHaveLength(1);
    expect(useInput.getState().current).toBe(big);
    expect(screen.getByTestId("request-editor-large").dataset["length"]).toBe(String(big.length));
    expect((screen.getByTestId("request-editor") as HTMLTextAreaElement).value).toBe("");
    expect(screen.getByTestId("input-status").textContent).toContain("checked by the inspector");
    await waitFor(() => expect(screen.getByTestId("card-messages-value").textContent).toBe("401"), { timeout: 10000 });

    fireEvent.paste(screen.getByTestId("request-editor-large"), { clipboardData: { getData: () => big.slice(0, -2) } });
    await waitFor(() => expect(screen.getByTestId("json-error").dataset["line"]).toBe("1"), { timeout: 10000 });

    fireEvent.click(screen.getByTestId("edit-large"));
    expect((screen.getByTestId("request-editor") as HTMLTextAreaElement).value).toBe(big.slice(0, -2));
  });

  it("shows the empty state when the input is cleared", async () => {
    renderWithClient(<App />);
    await ready();
    fireEvent.click(screen.getByTestId("clear-input"));
    expect(host().dataset["state"]).toBe("empty");
    expect(screen.getByTestId("empty-state")).toBeTruthy();
  });

  it("keeps pasted markup as text everywhere", async () => {
    renderWithClient(<App />);
    await ready();
    const hostile = JSON.stringify({
      model: "<script>alert(1)</script>",
      messages: [{ role: "user", content: "<img src=x onerror=alert(1)>" }],
    });
    fireEvent.change(screen.getByTestId("request-editor"), { target: { value: hostile } });
    await waitFor(() => expect(host().dataset["key"]).toMatch(/^2:/));
    for (const view of ["layout", "history", "raw", "cache"]) {
      fireEvent.click(screen.getByTestId(`nav-${view}`));
      await waitFor(() => expect(host().dataset["view"]).toBe(view));
      expect(document.querySelector("#root img, [data-testid='view-host'] img, script:not([src])")).toBeNull();
    }
    expect(within(host()).getAllByText(/<img src=x onerror=alert\(1\)>/).length).toBeGreaterThan(0);
  });
});

describe("view error boundary", () => {
  afterEach(cleanup);
  it("shows the failing view's error and recovers on a new report", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const Boom = ({ fail }: { fail: boolean }) => {
      if (fail) throw new Error("bad report shape");
      return <p>fine</p>;
    };
    const { rerender } = renderWithClient(
      <ViewErrorBoundary label="Overview" resetKey="1">
        <Boom fail />
      </ViewErrorBoundary>,
    );
    expect(screen.getByTestId("view-error-message").textContent).toBe("bad report shape");
    rerender(
      <ViewErrorBoundary label="Overview" resetKey="2">
        <Boom fail={false} />
      </ViewErrorBoundary>,
    );
    expect(screen.getByText("fine")).toBeTruthy();
    spy.mockRestore();
  });
});

describe("parseInput", () => {
  it("distinguishes empty, valid and invalid input", () => {
    expect(parseInput("  ").kind).toBe("empty");
    expect(parseInput('{"a":"é"}')).toEqual({ kind: "ok", value: { a: "é" }, bytes: 10 });
    expect(parseInput("[1,")).toMatchObject({ kind: "error", line: 1, column: 4 });
  });
});
