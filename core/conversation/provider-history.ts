/**
 * `providerHistoryIssues(messages, format)`: tool-call sequencing checked by what each provider
 * accepts, for a request pasted in its wire format (Strata's own pipeline keeps the stricter rules
 * of history.ts). Messages are the parsed (normalized) request's: a tool result travels in a `tool`
 * message, or in a `user` message beside other blocks (Anthropic, Gemini).
 *
 * | format             | where the results of an assistant's tool calls must be                                  |
 * | ------------------ | ---------------------------------------------------------------------------------------- |
 * | `openai-chat`      | in the run of `tool` messages right after it, one per call id; any message may follow the run |
 * | `anthropic`        | in the next message, one `tool_result` per `tool_use` id, ahead of any other block         |
 * | `gemini`           | in the next turn, one `functionResponse` per `functionCall` (by id when the calls have ids) |
 * | `openai-responses` | anywhere later, one `function_call_output` per `call_id`                                 |
 *
 * Sources (read 2026-12): OpenAI Chat Completions API reference, "messages" ("tool" messages answer
 * a preceding "tool_calls" message); Anthropic docs, "Implement tool use" ("tool_result blocks must
 * immediately follow their corresponding tool_use blocks … In the user message containing tool
 * results, the tool_result blocks must come FIRST in the content array"); Gemini API docs, "Function
 * calling" (the function response turn follows the function call turn with one response per call);
 * OpenAI Responses API reference, "function_call_output" (answers the `call_id` of a function call).
 */
import type { WireFormat } from "../formats/types.ts";
import type { ContentBlock, Message } from "../messages/index.ts";
import { InvalidInputError } from "../util/errors.ts";
import { assertMessages } from "../messages/validate.ts";
import type { HistoryIssue } from "./errors.ts";
import { HISTORY_ISSUE_CODES } from "./history-codes.ts";

/** Codes only the providers' own rules use. */
export const PROVIDER_HISTORY_ISSUE_CODES = Object.freeze({
  /** Anthropic: text or another block comes before a `tool_result` in the answering message. */
  toolResultNotFirst: "tool_result_not_first",
} as const);

/** Ids named in a message: the first few, and how many more (a run may hold thousands of calls). */
const QUOTED_IDS = 5;
const quoted = (ids: readonly string[]) =>
  ids
    .slice(0, QUOTED_IDS)
    .map((id) => JSON.stringify(id))
    .join(", ") + (ids.length > QUOTED_IDS ? ` and ${ids.length - QUOTED_IDS} more` : "");
/** Shared empty answer of `calls` and `results`: most messages have neither, and a long history allocated a list for each. */
const NONE: readonly never[] = Object.freeze([]);
const holds = (m: Message, type: ContentBlock["type"]) => {
  const blocks = m.content;
  for (let i = 0; i < blocks.length; i++) if (blocks[i]!.type === type) return true;
  return false;
};
const calls = (m: Message): readonly Extract<ContentBlock, { type: "tool_call" }>[] =>
  m.role === "assistant" && holds(m, "tool_call")
    ? m.content.filter((b): b is Extract<ContentBlock, { type: "tool_call" }> => b.type === "tool_call")
    : NONE;
const results = (m: Message): readonly Extract<ContentBlock, { type: "tool_result" }>[] =>
  holds(m, "tool_result")
    ? m.content.filter((b): b is Extract<ContentBlock, { type: "tool_result" }> => b.type === "tool_result")
    : NONE;

/**
 * Every sequencing issue of `messages` under `format`'s rules (table above), ordered by message
 * index; `[]` when the provider accepts the history. Linear in the messages.
 */
export function providerHistoryIssues(messages: readonly Message[], format: WireFormat): HistoryIssue[] {
  const issues: HistoryIssue[] = [];
  const add = (code: string, index: number, message: string) => issues.push({ code, index, message });
  if (format === "openai-responses") {
    // Anywhere later: collect the open calls, answer them in order of appearance.
    const open = new Map<string, number>();
    const answered = new Set<string>();
    messages.forEach((m, i) => {
      for (const c of calls(m)) open.set(c.id, i);
      for (const r of results(m)) {
        if (!open.has(r.toolCallId))
          add(
            answered.has(r.toolCallId) ? HISTORY_ISSUE_CODES.extraToolResponse : HISTORY_ISSUE_CODES.orphanToolResponse,
            i,
            answered.has(r.toolCallId)
              ? `function_call_output for ${JSON.stringify(r.toolCallId)} answers a call that already has one: keep one.`
              : `function_call_output for ${JSON.stringify(r.toolCallId)} answers no earlier function_call: add the call before it or fix its call_id.`,
          );
        open.delete(r.toolCallId);
        answered.add(r.toolCallId);
      }
    });
    for (const [id, i] of open)
      add(
        HISTORY_ISSUE_CODES.missingToolResponse,
        i,
        `function_call ${JSON.stringify(id)} has no function_call_output after it: add one (OpenAI rejects the input without it).`,
      );
    return issues.sort((a, b) => a.index - b.index);
  }

  let i = 0;
  while (i < messages.length) {
    const m = messages[i]!;
    const made = calls(m);
    if (made.length === 0) {
      if (holds(m, "tool_result"))
        add(
          HISTORY_ISSUE_CODES.orphanToolResponse,
          i,
          `a tool result here answers no tool call: the message before it (${i === 0 ? "none" : `messages[${i - 1}], ${messages[i - 1]!.role}`}) makes none. Remove it or add the assistant's call right before it.`,
        );
      i++;
      continue;
    }
    // The answering messages, messages[i + 1, j): the run of tool messages (OpenAI Chat) or the next message.
    let j = i + 1;
    if (format === "openai-chat") while (j < messages.length && messages[j]!.role === "tool") j++;
    else if (j < messages.length && messages[j]!.role !== "assistant" && holds(messages[j]!, "tool_result")) j++;
    if (j === i + 1) {
      add(
        HISTORY_ISSUE_CODES.toolCallWithoutResponse,
        i,
        `tool ${made.length === 1 ? "call" : "calls"} ${quoted(made.map((c) => c.id || c.name))} ${j >= messages.length ? "end the request" : `are followed by a "${messages[j]!.role}" message without tool results`}: ${format === "openai-chat" ? "add a tool message for each call right after it" : "answer every call in the very next message"}.`,
      );
      i = j;
      continue;
    }
    const byId = made.every((c) => c.id !== "");
    // By id: how many results answered each call so far (a Map, so a run of n calls and results
    // is checked in time linear in n). Without ids (Gemini) only the results are counted.
    const answered = byId ? new Map<string, number>() : null;
    if (answered) for (const c of made) answered.set(c.id, 0);
    // The calls' ids as an issue names them: written once a run, however many results answer none.
    let calledIds: string | undefined;
    let got = 0;
    for (let k = i + 1; k < j; k++) {
      const blocks = messages[k]!.content;
      if (!holds(messages[k]!, "tool_result"))
        add(
          HISTORY_ISSUE_CODES.toolMessageWithoutResult,
          k,
          "tool message carries no tool result: add the result it answers.",
        );
      if (format === "anthropic") {
        const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
        const lastResult = blocks.findLastIndex((b) => b.type === "tool_result");
        if (firstOther >= 0 && firstOther < lastResult)
          add(
            PROVIDER_HISTORY_ISSUE_CODES.toolResultNotFirst,
            k,
            `content[${firstOther}] (${blocks[firstOther]!.type}) comes before a tool_result: Anthropic wants every tool_result first, then any text.`,
          );
      }
      for (let b = 0; b < blocks.length; b++) {
        const r = blocks[b]!;
        if (r.type !== "tool_result") continue;
        got++;
        if (!answered) continue;
        const times = answered.get(r.toolCallId);
        if (times === undefined)
          add(
            HISTORY_ISSUE_CODES.extraToolResponse,
            k,
            `tool result answers ${JSON.stringify(r.toolCallId)}, which messages[${i}] did not call (${(calledIds ??= quoted([...answered.keys()]))}): fix its id or remove it.`,
          );
        else {
          if (times > 0)
            add(
              HISTORY_ISSUE_CODES.extraToolResponse,
              k,
              `tool call ${JSON.stringify(r.toolCallId)} is answered more than once: keep one result.`,
            );
          answered.set(r.toolCallId, times + 1);
        }
      }
    }
    const missing: string[] = [];
    if (answered) for (const [id, times] of answered) if (times === 0) missing.push(id);
    if (missing.length > 0)
      add(
        HISTORY_ISSUE_CODES.missingToolResponse,
        i,
        `tool ${missing.length === 1 ? "call" : "calls"} ${quoted(missing)} ${missing.length === 1 ? "has" : "have"} no result in messages[${i + 1}${j - 1 > i + 1 ? `..${j - 1}` : ""}]: add one for each.`,
      );
    if (!answered && got !== made.length)
      add(
        HISTORY_ISSUE_CODES.missingToolResponse,
        i + 1,
        `${made.length} function ${made.length === 1 ? "call" : "calls"} in messages[${i}] but ${got} ${got === 1 ? "response" : "responses"} here: Gemini wants one response per call.`,
      );
    i = j;
  }
  return issues.sort((a, b) => a.index - b.index);
}

const WIRE: ReadonlySet<string> = new Set([
  "openai-chat",
  "openai-responses",
  "anthropic",
  "gemini",
  "bedrock-converse",
]);

/**
 * `providerHistoryIssues` for caller data: a malformed message is an `InvalidInputError` naming its
 * field, an unknown format one naming `format`.
 */
export function validateProviderHistory(messages: readonly Message[], format: WireFormat): HistoryIssue[] {
  assertMessages(messages, "messages");
  if (typeof format !== "string" || !WIRE.has(format))
    throw new InvalidInputError(
      "format",
      `must be "openai-chat", "openai-responses", "anthropic" or "gemini", got ${JSON.stringify(format) ?? String(format)}.`,
    );
  return providerHistoryIssues(messages, format);
}
