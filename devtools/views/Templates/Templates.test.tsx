import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useInput } from "../../store/input.ts";
import { reportFor, SAMPLE_TEXT } from "../../test-support/reports.ts";
import { hasNoInjectedElements, renderWithClient, resetStores } from "../../test-support/render.tsx";
import { renderPlayground } from "./model.ts";
import { TemplatesView } from "./Templates.tsx";

async function renderAssemblyTemplate() {
  useInput.getState().setText("current", SAMPLE_TEXT["assembly-tiers"], "test");
  const report = await reportFor("assembly-tiers");
  return { report, ...renderWithClient(<TemplatesView report={report} />) };
}

describe("Templates", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("renders the request's template with its arguments, defaults and clock, as inspect did", async () => {
    const { report } = await renderAssemblyTemplate();
    const out = screen.getByTestId("template-output").textContent!;
    expect(out.length).toBe(report.templates!.renderedChars);
    expect(out).toContain("acme/payments"); // args win over defaults
    expect(out).toContain("2026-11-29"); // the injected clock
  });

  it("puts volatility warnings on the template lines they concern", async () => {
    const { report } = await renderAssemblyTemplate();
    const warnings = screen.getAllByTestId("volatility-warning");
    expect(warnings.map((w) => w.dataset["variable"])).toEqual(report.templates!.volatility.map((v) => v.variable));
    const first = report.templates!.volatility[0]!;
    const line = screen.getAllByTestId("template-line").find((l) => l.dataset["line"] === String(first.line))!;
    expect(line.dataset["volatile"]).toBe("true");
  });

  it("re-renders as the template is edited and reports errors with their position", async () => {
    await renderAssemblyTemplate();
    fireEvent.change(screen.getByTestId("template-source"), { target: { value: "Hi {{ project }}" } });
    expect(screen.getByTestId("template-output").textContent).toBe("Hi acme/payments");
    expect(screen.getByTestId("template-stable")).toBeTruthy();
    fireEvent.change(screen.getByTestId("template-source"), { target: { value: "Hi\n{% if %}" } });
    expect(screen.getByTestId("template-error").dataset["line"]).toBe("2");
  });

  it("renders {{name}} templates and shows template markup as text", () => {
    expect(
      renderPlayground({ engine: "name", template: "Review {{file}}", args: '{"file":"a.ts"}', defaults: "", now: "" }),
    ).toEqual({ ok: true, text: "Review a.ts", fellBack: null });
    expect(renderPlayground({ engine: "name", template: "{{missing}}", args: "{}", defaults: "", now: "" }).ok).toBe(
      false,
    );
    expect(renderPlayground({ engine: "jinja", template: "x", args: "[1]", defaults: "", now: "" })).toMatchObject({
      ok: false,
      field: "args",
    });
  });

  it("keeps hostile arguments as text", async () => {
    const { container } = await renderAssemblyTemplate();
    fireEvent.change(screen.getByTestId("template-source"), { target: { value: "{{ x }}" } });
    fireEvent.change(screen.getByTestId("template-args"), {
      target: { value: '{"x":"<img src=x onerror=alert(1)>"}' },
    });
    expect(screen.getByTestId("template-output").textContent).toBe("<img src=x onerror=alert(1)>");
    expect(hasNoInjectedElements(container)).toBe(true);
  });

  it("offers an empty playground when the request has no template", async () => {
    useInput.getState().setText("current", SAMPLE_TEXT["openai-chat"], "test");
    renderWithClient(<TemplatesView report={await reportFor("openai-chat")} />);
    expect(screen.getByTestId("template-summary").textContent).toContain("A wire request arrives rendered");
    expect(screen.getByTestId("literal-stable")).toBeTruthy();
    expect((screen.getByTestId("template-source") as HTMLTextAreaElement).value).toBe("");
  });
});
