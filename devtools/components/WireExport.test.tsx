import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportFor } from "../test-support/reports.ts";
import { renderWithClient, resetStores } from "../test-support/render.tsx";
import { exportRequest } from "../views/Raw/model.ts";
import { fmtBytes } from "./format.ts";
import { WireExport } from "./WireExport.tsx";

describe("WireExport", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("gives the written JSON's size in UTF-8 bytes, not characters", async () => {
    const report = await reportFor("openai-chat");
    const first = report.request!.messages[0]!;
    // Two bytes for é, three for 語, four for the emoji (two UTF-16 units).
    const text = "é語😀".repeat(200);
    const request = {
      ...report.request!,
      messages: [{ ...first, content: [{ type: "text" as const, text }] }, ...report.request!.messages.slice(1)],
    };
    const result = exportRequest(report, request, report.format as "openai-chat", false);
    if (!result.ok) throw new Error(result.message);
    const bytes = new TextEncoder().encode(result.text).length;
    expect(fmtBytes(bytes)).not.toBe(fmtBytes(result.text.length));
    renderWithClient(<WireExport report={report} request={request} what="request" testId="export" />);
    expect(screen.getByTestId("export-size").textContent).toBe(fmtBytes(bytes));
  });
});
