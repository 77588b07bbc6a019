import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "./App.tsx";
import { parseInput } from "./components/useParsedInput.ts";
import { useInput } from "./store/input.ts";

const samples: Record<string, string> = {
  "samples/index.json": JSON.stringify([{ id: "a", title: "Sample A", file: "a.json", format: "openai-chat" }]),
  "samples/a.json": '{"model":"m","messages":[]}',
};

function renderApp() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>,
  );
}

describe("devtools shell", () => {
  beforeEach(() => {
    useInput.setState({ current: "", previous: "", source: "" });
    vi.stubGlobal("fetch", async (url: string) => {
      const key = Object.keys(samples).find((k) => String(url).endsWith(k));
      return key ? new Response(samples[key]) : new Response("missing", { status: 404 });
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("loads the first bundled sample on start", async () => {
    renderApp();
    const editor = (await screen.findByTestId("request-editor")) as HTMLTextAreaElement;
    await waitFor(() => expect(editor.value).toBe('{"model":"m","messages":[]}'));
    expect(screen.getByTestId("input-source").textContent).toBe("sample: Sample A");
  });

  it("shows the line and column of malformed JSON", async () => {
    renderApp();
    const editor = await screen.findByTestId("request-editor");
    fireEvent.change(editor, { target: { value: '{\n  "model": "m",\n}' } });
    expect(screen.getByTestId("json-error").textContent).toContain("line 3, column 1");
  });
});

describe("parseInput", () => {
  it("distinguishes empty, valid and invalid input", () => {
    expect(parseInput("  ").kind).toBe("empty");
    expect(parseInput('{"a":"é"}')).toEqual({ kind: "ok", value: { a: "é" }, bytes: 10 });
    expect(parseInput("[1,")).toMatchObject({ kind: "error", line: 1, column: 4 });
  });
});
