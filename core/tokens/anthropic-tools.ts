/**
 * The system prompt Claude adds when a request defines tools, in tokens, by model and
 * `tool_choice` (`auto`/`none` or `any`/`tool`), on top of the tool definitions themselves.
 * First matching row wins, so specific patterns come first.
 *
 * Source: Anthropic docs, Tool use overview, "Tool use system prompt token count"
 * (platform.claude.com/docs/en/agents-and-tools/tool-use/overview), latest copy collected
 * 2026-12; the Claude 3.x rows from earlier versions of the same table (docs.anthropic.com,
 * 2025). Earlier versions gave 346 / 313 for Sonnet 4.5, Haiku 4.5 and Opus 4.5; the latest
 * gives 496 / 588, which the calibration corpus supports.
 */
import { matchGlob } from "../util/glob.ts";
import { bareModel } from "./model-info.ts";

export interface ToolPreambleRow {
  readonly models: readonly string[];
  /** Tokens with `tool_choice` auto or none (and when it is not set). */
  readonly auto: number;
  /** Tokens with `tool_choice` any or tool. */
  readonly any: number;
  readonly note: string | null;
}

export const ANTHROPIC_TOOL_PREAMBLE: readonly ToolPreambleRow[] = [
  { models: ["claude-opus-4-8*"], auto: 290, any: 410, note: null },
  { models: ["claude-opus-4-7*"], auto: 675, any: 804, note: null },
  { models: ["claude-opus-4-6*", "claude-sonnet-4-6*"], auto: 497, any: 589, note: null },
  { models: ["claude-opus-4-5*", "claude-sonnet-4-5*", "claude-haiku-4-5*"], auto: 496, any: 588, note: null },
  { models: ["claude-opus-4*", "claude-sonnet-4*"], auto: 313, any: 315, note: null },
  {
    models: ["claude-sonnet-5*", "claude-opus-5*", "claude-fable-5*", "claude-haiku-5*"],
    auto: 354,
    any: 474,
    note: "Documented for Sonnet 5; assumed for the other Claude 5 models, which the table does not list.",
  },
  { models: ["claude-3-7-sonnet*"], auto: 346, any: 313, note: null },
  { models: ["claude-3-5-sonnet-20240620*"], auto: 294, any: 261, note: null },
  { models: ["claude-3-5-sonnet*"], auto: 346, any: 313, note: null },
  { models: ["claude-3-5-haiku*"], auto: 264, any: 355, note: null },
  { models: ["claude-3-opus*"], auto: 530, any: 281, note: null },
  { models: ["claude-3-sonnet*"], auto: 159, any: 235, note: null },
  { models: ["claude-3-haiku*"], auto: 264, any: 340, note: null },
  {
    models: ["*"],
    auto: 496,
    any: 588,
    note: "A model the table does not list: assumed like the current Sonnet and Haiku models.",
  },
];

/** Tokens of Claude's tool-use system prompt for `model` with `toolChoice` (the wire `tool_choice` value). */
export function anthropicToolPreamble(model: string, toolChoice: unknown): number {
  const id = bareModel(model);
  const row = ANTHROPIC_TOOL_PREAMBLE.find((r) => r.models.some((p) => matchGlob(p, id)))!;
  const type =
    toolChoice !== null && typeof toolChoice === "object" ? (toolChoice as { type?: unknown }).type : undefined;
  return type === "any" || type === "tool" ? row.any : row.auto;
}
