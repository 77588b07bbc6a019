/** Messages, JSON parsing and error wording: the foundation every later stage builds on. */
import {
  ContextBudgetError,
  HistoryValidationError,
  InvalidInputError,
  messageText,
  textBlock,
  toolCallBlock,
  toolResultMessage,
  userMessage,
} from "../../../core/index.ts";
import { findJsonSyntaxError, parseJson } from "../../../core/formats/index.ts";
import { assertMessagesSupportModelCapabilities, toolCallsOf, toolResultsOf } from "../../../core/messages/index.ts";
import type { Message } from "../../../core/index.ts";
import { cases, json, outcome } from "../support.ts";

// Text that trips engines up differently: astral plane, combining marks, RTL, a lone surrogate, NUL.
export const TRICKY_TEXT = 'Grüße 👋🏽 — e\u0301 ‮rtl‬ \ud800 \u0000 "quoted" \\ \n\ttab';
/** The same without the lone surrogate, for inputs that must be valid UTF-8 (wire requests refuse it). */
export const TRICKY_TEXT_WELL_FORMED = TRICKY_TEXT.replace("\ud800", "\ufffd");

const conversation: Message[] = [
  { role: "system", content: [textBlock("You are terse.")] },
  userMessage(TRICKY_TEXT),
  {
    role: "assistant",
    content: [
      textBlock("Looking it up."),
      toolCallBlock("call_1", "search", {
        q: "weather",
        opts: { units: "metric", days: [1, 2, 3] },
        limit: 1e21,
        tiny: 5e-324,
      }),
      toolCallBlock("call_2", "clock"),
    ],
  },
  toolResultMessage("call_1", "search", { temp: -0, text: "17°C" }),
  toolResultMessage("call_2", "clock", "tool failed", true),
];

const JSON_INPUTS: readonly (readonly [string, string])[] = [
  ["valid nested", '{"b":1,"a":[true,null,{"z":"\\u00e9\\ud83d\\ude00"}],"n":-0.0,"e":1E+2}'],
  ["numbers at the edges", "[1e400,-1e400,0.1,9007199254740993,5e-324,1.7976931348623157e308,-0]"],
  ["duplicate keys keep the last", '{"k":1,"k":2}'],
  ["byte order mark", "\ufeff[1]"],
  ["lone surrogate escape", '"\\ud800"'],
  ["empty", ""],
  ["whitespace only", " \n\t "],
  ["trailing comma", '{"a":1,}'],
  ["single quotes", "{'a':1}"],
  ["truncated", '{"messages":[{"role":"user","content":"hi"'],
  ["control character in string", '"a\u0001b"'],
  ["bad escape", '"\\x41"'],
  ["second line error", '{\n  "a": tru\n}'],
  ["too deep", "[".repeat(1_001) + "]".repeat(1_001)],
  ["unicode before the error", '{"ключ": "значение", oops}'],
];

export const messageCases = [
  ...cases("messages", [
    ["conversation shapes", () => json(conversation)],
    ["message text of each message", () => json(conversation.map(messageText))],
    ["tool calls and results", () => json(conversation.map((m) => [toolCallsOf(m), toolResultsOf(m)]))],
    [
      "unsupported modality error",
      () =>
        outcome(() =>
          assertMessagesSupportModelCapabilities(
            [
              userMessage("see"),
              {
                role: "user",
                content: [textBlock("pic"), { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }],
              },
            ],
            { provider: "openai", model: "text-only", capabilities: { input: ["text", "audio"] } },
          ),
        ),
    ],
  ]),
  ...cases(
    "json",
    JSON_INPUTS.map(
      ([name, text]) =>
        [name, () => json({ parsed: parseJson(text), scan: findJsonSyntaxError(text) ?? "valid" })] as const,
    ),
  ),
  ...cases("errors", [
    [
      "context budget error",
      () =>
        outcome(() => {
          throw new ContextBudgetError({ limit: "maxInputBytes", cap: 4_096, required: 5_000 });
        }),
    ],
    [
      "invalid input error",
      () =>
        outcome(() => {
          throw new InvalidInputError("attachments[2]", "needs text, content or uri");
        }),
    ],
    [
      "history validation error",
      () =>
        outcome(() => {
          throw new HistoryValidationError([{ code: "orphan_tool_result", index: 3, message: "no matching call" }]);
        }),
    ],
  ]),
];
