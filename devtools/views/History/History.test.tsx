import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportFor, reportOf } from "../../test-support/reports.ts";
import { hasNoInjectedElements, renderWithClient, resetStores } from "../../test-support/render.tsx";
import { HistoryView } from "./History.tsx";

/** An assistant tool call that is never answered, then a user turn. */
const ORPHANED_CALL = JSON.stringify({
  model: "gpt-4.1",
  messages: [
    { role: "user", content: "What's the weather in Oslo? <b>now</b>" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
    },
    { role: "user", content: "Hello?" },
  ],
});

describe("History", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("says the history is valid when it is", async () => {
    const report = await reportFor("openai-chat");
    renderWithClient(<HistoryView report={report} />);
    expect(report.history.issues).toHaveLength(0);
    expect(screen.getByTestId("history-ok")).toBeTruthy();
    expect(screen.getAllByTestId("history-message")).toHaveLength(report.request!.messages.length);
  });

  it("places a long history's rows at one height, but measures them when a message carries an issue", async () => {
    const long = (orphaned: boolean) =>
      JSON.stringify({
        model: "gpt-4.1",
        messages: [
          ...Array.from({ length: 240 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `message ${i}` })),
          ...(orphaned ? JSON.parse(ORPHANED_CALL).messages : []),
        ],
      });
    const clean = await reportOf(long(false));
    expect(clean.history.issues).toHaveLength(0);
    renderWithClient(<HistoryView report={clean} />);
    const list = screen.getByTestId("history-messages");
    expect(list.dataset["rows"]).toBe("fixed");
    expect(screen.getAllByTestId("history-message")[0]!.dataset["index"]).toBe("0");
    cleanup();
    const pinned = await reportOf(long(true));
    expect(pinned.history.issues.length).toBeGreaterThan(0);
    renderWithClient(<HistoryView report={pinned} />);
    expect(screen.getByTestId("history-messages").dataset["rows"]).toBe("measured");
  });

  it("pins every issue to the message that causes it", async () => {
    const report = await reportOf(ORPHANED_CALL);
    expect(report.history.issues.length).toBeGreaterThan(0);
    const { container } = renderWithClient(<HistoryView report={report} />);
    for (const issue of report.history.issues) {
      const message = screen.getAllByTestId("history-message").find((m) => m.dataset["index"] === String(issue.index))!;
      expect(Number(message.dataset["issues"])).toBeGreaterThan(0);
      expect(message.textContent).toContain(issue.message);
    }
    fireEvent.click(screen.getAllByTestId("history-issue-jump")[0]!);
    expect(container.querySelector(".hi-msg.focused")).not.toBeNull();
    expect(container.querySelector("b")).toBeNull();
    expect(hasNoInjectedElements(container)).toBe(true);
  });

  it("names whose rules it checked by, and accepts an Anthropic [tool_result, text] turn", async () => {
    const report = await reportOf(
      JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [
          { role: "user", content: "Weather?" },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: {} }] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "t1", content: "4°C" },
              { type: "text", text: "Umbrella?" },
            ],
          },
        ],
      }),
    );
    renderWithClient(<HistoryView report={report} />);
    expect(screen.getByTestId("history-rules").dataset["rules"]).toBe("anthropic");
    expect(screen.getByTestId("history-ok")).toBeTruthy();
  });

  it("never heads an issues list with a claim that all is well", async () => {
    renderWithClient(<HistoryView report={await reportOf(ORPHANED_CALL)} />);
    expect(screen.getByTestId("history-issues")).toBeTruthy();
    expect(screen.getByTestId("history-rules").textContent).not.toMatch(/nothing orphaned|all answered/i);
  });
});
