import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { userMessage } from "../messages/index.ts";
import { createDefaultInputBuilder } from "./input-builder.ts";
import { LAYOUT_GROUP_ORDER, resolveInputLayout } from "./layouts.ts";
import type { DefaultInputBuildContext, InputAssemblyLayout } from "./types.ts";

// One item per group, recognisable by its text.
const context: DefaultInputBuildContext = {
  systemInstructions: "I",
  summaries: "S",
  history: [userMessage("H")],
  attachments: [{ name: "a", text: "A" }],
  resourceUris: ["mem://r"],
  resourceLoader: { load: () => "R" },
  toolResults: [{ toolCallId: "c", name: "t", value: "T" }],
};
const label = (text: string): string =>
  text === "System instruction:\nI"
    ? "instructions"
    : text === "Summary:\nS"
      ? "summaries"
      : text === "H"
        ? "history"
        : text === "now"
          ? "current input"
          : text === "Attachment a:\nA" || text === "Resource mem://r:\nR"
            ? "attachments/resources"
            : "?";

describe("input layouts (spec table)", () => {
  it.each<[InputAssemblyLayout, string]>([
    ["legacy", "instructions → summaries → history → current input → attachments/resources → tool results"],
    ["cache_aware", "instructions → attachments/resources → summaries → history → tool results → current input"],
  ])("%s: %s", async (layout, order) => {
    const messages = await createDefaultInputBuilder().build("now", { ...context, inputLayout: layout });
    const groups = messages.map((m) => {
      const block = m.content[0]!;
      return block.type === "tool_result" ? "tool results" : block.type === "text" ? label(block.text) : "?";
    });
    const collapsed = groups.filter((g, i) => g !== groups[i - 1]);
    expect(collapsed.join(" → ")).toBe(order);
  });

  it("defaults to cache_aware", async () => {
    const defaulted = await createDefaultInputBuilder().build("now", context);
    const explicit = await createDefaultInputBuilder().build("now", { ...context, inputLayout: "cache_aware" });
    expect(defaulted).toEqual(explicit);
    expect(resolveInputLayout(undefined)).toBe("cache_aware");
  });

  it("lists every group exactly once in both layouts", () => {
    for (const order of Object.values(LAYOUT_GROUP_ORDER))
      expect([...order].sort()).toEqual([
        "attachments",
        "history",
        "input",
        "instructions",
        "summaries",
        "toolResults",
      ]);
  });

  it("rejects an unknown layout naming the field", () => {
    expect(() => resolveInputLayout("newest_first")).toThrow(InvalidInputError);
    expect(() => resolveInputLayout("newest_first")).toThrow(/^inputLayout: /);
  });
});
