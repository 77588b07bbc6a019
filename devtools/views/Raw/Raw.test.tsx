import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { turnReport, reportFor } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { exportRequest } from "./model.ts";
import { RawView } from "./Raw.tsx";

const shownText = (testId: string) => screen.getAllByTestId(testId)[0]!.textContent ?? "";

describe("Raw", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("shows the normalized request as JSON text", async () => {
    const report = await reportFor("openai-chat");
    renderWithClient(<RawView report={report} />);
    const lines = screen.getByTestId("raw-request");
    expect(lines.textContent).toContain(`"model": "${report.request!.model.model}"`);
  });

  it("gives the request JSON's size in UTF-8 bytes, not characters", async () => {
    const base = await reportFor("openai-chat");
    const request = base.request!;
    // Two bytes for é, three for 語, four for the emoji (two UTF-16 units).
    const text = "é語😀".repeat(200);
    const first = request.messages[0]!;
    const report = {
      ...base,
      request: {
        ...request,
        messages: [{ ...first, content: [{ type: "text" as const, text }] }, ...request.messages.slice(1)],
      },
    };
    renderWithClient(<RawView report={report} />);
    const json = JSON.stringify(report.request, null, 2);
    const bytes = new TextEncoder().encode(json).length;
    expect(bytes).toBeGreaterThan(json.length + 900);
    expect(screen.getByTestId("raw-request-size").textContent).toBe(`${(bytes / 1024).toFixed(1)} KB of JSON`);
  });

  it("exports to Anthropic with the suggested cache breakpoints as cache_control", async () => {
    const report = await turnReport(2);
    const result = exportRequest(report, report.request!, "anthropic", true);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.breakpoints).toEqual(report.breakpoints!.map((b) => b.path));
    expect(result.breakpoints.length).toBeGreaterThan(0);
    expect((result.text.match(/"cache_control"/g) ?? []).length).toBe(result.breakpoints.length);

    renderWithClient(<RawView report={report} />);
    fireEvent.click(screen.getByTestId("raw-tab-export"));
    expect(screen.getByTestId("export-breakpoint-list").dataset["count"]).toBe(String(result.breakpoints.length));
    expect(shownText("export-output")).toContain('"cache_control"');
  });

  it("exports to every wire format or says why it cannot", async () => {
    const report = await reportFor("gemini");
    renderWithClient(<RawView report={report} />);
    fireEvent.click(screen.getByTestId("raw-tab-export"));
    for (const format of ["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse"]) {
      fireEvent.change(screen.getByTestId("export-format"), { target: { value: format } });
      const out = screen.queryByTestId("export-output") ?? screen.getByTestId("export-error");
      expect(out.textContent).not.toBe("");
    }
  });

  it("lists what an export to another format dropped or filled in, as core's converter reports it", async () => {
    const report = await reportFor("anthropic");
    const result = exportRequest(report, report.request!, "gemini", false);
    if (!result.ok) throw new Error(result.message);
    // The Anthropic sample sets max_tokens and tools; Gemini has no max_tokens field of that name.
    expect(result.warnings.length).toBeGreaterThan(0);
    renderWithClient(<RawView report={report} />);
    fireEvent.click(screen.getByTestId("raw-tab-export"));
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "gemini" } });
    const items = screen.getByTestId("export-warnings").querySelectorAll("li");
    expect([...items].map((li) => li.dataset["code"])).toEqual(result.warnings.map((w) => w.code));
    expect(items[0]!.textContent).toContain(result.warnings[0]!.path);
    // Its own format writes the request back unchanged: nothing to warn about.
    fireEvent.change(screen.getByTestId("export-format"), { target: { value: "anthropic" } });
    expect(screen.queryByTestId("export-warnings")).toBeNull();
  });

  it("offers the hash-only bundle for download", async () => {
    const report = await reportFor("anthropic");
    renderWithClient(<RawView report={report} />);
    const button = screen.getByTestId("download-bundle") as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.textContent).toContain(`${report.fingerprints!.segments.length} segments`);
  });
});
