import { describe, expect, it, vi } from "vitest";
import { HistoryValidationError } from "./errors.ts";
import type { Message } from "../messages/index.ts";
import { assistantMessage, toolCallBlock, userMessage } from "../messages/index.ts";
import { REQUEST_PIPELINE_STAGES, preparePromptArgumentsForResponse, runRequestPipeline } from "./pipeline.ts";

const NOW = new Date("2024-05-06T07:08:09Z");
const history: Message[] = [{ ...userMessage("Bonjour"), metadata: { language: "fr" } }, assistantMessage("Salut !")];

describe("runRequestPipeline", () => {
  it("declares the spec's stages in order", () => {
    expect(REQUEST_PIPELINE_STAGES).toEqual([
      "build_user_message",
      "snapshot_history",
      "validate_history",
      "prepare_prompt_arguments",
    ]);
  });

  it("runs the stages in order and returns the user message, a history snapshot and the prompt arguments", () => {
    const onStage = vi.fn();
    const result = runRequestPipeline({
      packet: { text: "Hello", language: "en" },
      history,
      now: NOW,
      args: { name: "Ada" },
      onStage,
    });
    expect(onStage.mock.calls.map((c) => c[0])).toEqual([...REQUEST_PIPELINE_STAGES]);
    expect(result.stages).toEqual([...REQUEST_PIPELINE_STAGES]);
    expect(result.userMessage).toEqual({
      role: "user",
      content: [{ type: "text", text: "Hello" }],
      metadata: { language: "en" },
    });
    expect(result.history).toEqual(history);
    expect(result.history).not.toBe(history);
    expect(result.promptArguments.message).toEqual({ text: "Hello", language: "en" });
    expect(result.promptArguments["name"]).toBe("Ada");
    expect(result.promptArguments.system.current_time).toBe("07:08:09");
  });

  it("snapshots the history: later changes to the caller's array do not reach it", () => {
    const mine = structuredClone(history);
    const result = runRequestPipeline({ packet: { text: "x" }, history: mine, now: NOW });
    mine.push(assistantMessage("later"));
    (mine[0]!.content[0] as { text: string }).text = "changed";
    expect(result.history).toEqual(history);
  });

  it("falls back to the history's language, then client.language, for the message language", () => {
    expect(runRequestPipeline({ packet: { text: "x" }, history, now: NOW }).promptArguments.message?.language).toBe(
      "fr",
    );
    expect(
      runRequestPipeline({ packet: { text: "x" }, history: [], now: NOW, metadata: { "client.language": "es" } })
        .promptArguments.message?.language,
    ).toBe("es");
  });

  it("stops at validate_history with every issue when the history is invalid", () => {
    const onStage = vi.fn();
    const broken: Message[] = [{ role: "assistant", content: [toolCallBlock("c1", "f")] }];
    expect(() => runRequestPipeline({ packet: { text: "x" }, history: broken, now: NOW, onStage })).toThrow(
      HistoryValidationError,
    );
    expect(onStage.mock.calls.map((c) => c[0])).toEqual(["build_user_message", "snapshot_history", "validate_history"]);
  });
});

describe("preparePromptArgumentsForResponse", () => {
  it("keeps the latest user message for a tool follow-up, with the latest user language", () => {
    const withTool: Message[] = [
      ...history,
      { ...userMessage("Quel temps ?"), metadata: { language: "fr-CA" } },
      { role: "assistant", content: [toolCallBlock("c1", "weather")] },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "c1", name: "weather", result: "sunny" }] },
    ];
    const args = preparePromptArgumentsForResponse(withTool, { now: NOW, metadata: { "client.language": "en" } });
    expect(args.message).toEqual({ text: "Quel temps ?", language: "fr-CA" });
  });

  it("uses client.language when the history has no user language", () => {
    expect(
      preparePromptArgumentsForResponse([userMessage("hi")], { now: NOW, metadata: { "client.language": "en" } })
        .message,
    ).toEqual({ text: "hi", language: "en" });
  });
});
