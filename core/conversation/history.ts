/**
 * Tool-call sequencing rules a history must satisfy before a chat request:
 * 1. an assistant message with tool calls is followed AT ONCE by tool messages (a "run");
 * 2. the run answers exactly the call ids — none missing, none unknown, none twice;
 * 3. no tool message outside such a run (orphan);
 * 4. after the run, the next message (if any) is from the assistant.
 * Parallel calls may be answered by one tool message or by several consecutive ones, in any
 * order. Tool responses are `role: "tool"` messages carrying `tool_result` blocks.
 */
import { HistoryValidationError } from "./errors.ts";
import type { HistoryIssue } from "./errors.ts";
import type { Message } from "../messages/index.ts";
import { toolCallsOf, toolResultsOf } from "../messages/index.ts";
import { assertMessages } from "../messages/validate.ts";
import { HISTORY_ISSUE_CODES, type HistoryIssueCode } from "./history-codes.ts";

export { HISTORY_ISSUE_CODES, type HistoryIssueCode } from "./history-codes.ts";

const list = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(", ");

// Every sentence agrees in number with what it counts ("call" / "calls", "is" / "are"), and
// "a" / "an" with the role it names.
const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);
const aRole = (role: string): string => `${role === "assistant" ? "an" : "a"} "${role}"`;

/**
 * Every rule violation in `messages`, ordered by message index; `[]` when the history is valid.
 * A malformed message is an `InvalidInputError` naming its field (`messages[3].content[1].type`).
 */
export function validateHistory(messages: readonly Message[]): HistoryIssue[] {
  assertMessages(messages, "messages");
  return historyIssues(messages);
}

/** `validateHistory` for messages an earlier stage checked. */
export function historyIssues(messages: readonly Message[]): HistoryIssue[] {
  const issues: HistoryIssue[] = [];
  const add = (code: HistoryIssueCode, index: number, message: string) => issues.push({ code, index, message });
  let i = 0;
  while (i < messages.length) {
    const current = messages[i]!;
    if (current.role === "tool") {
      add(
        HISTORY_ISSUE_CODES.orphanToolResponse,
        i,
        `tool message does not follow an assistant tool call${i === 0 ? " (it is the first message)" : ` (messages[${i - 1}] is "${messages[i - 1]!.role}")`}: remove it or add the assistant message with its tool call before it.`,
      );
      i++;
      continue;
    }
    const calls = current.role === "assistant" ? toolCallsOf(current) : [];
    if (calls.length === 0) {
      i++;
      continue;
    }
    const callIds = new Set<string>();
    for (const call of calls) {
      if (callIds.has(call.id)) {
        add(
          HISTORY_ISSUE_CODES.duplicateToolCallId,
          i,
          `tool call id ${JSON.stringify(call.id)} is used by more than one call: give each call a unique id.`,
        );
      }
      callIds.add(call.id);
    }
    let j = i + 1;
    if (j >= messages.length || messages[j]!.role !== "tool") {
      add(
        HISTORY_ISSUE_CODES.toolCallWithoutResponse,
        i,
        `assistant tool ${plural(callIds.size, "call", "calls")} ${list([...callIds])} ` +
          `${j >= messages.length ? plural(callIds.size, "ends the history", "end the history") : `${plural(callIds.size, "is", "are")} followed by ${aRole(messages[j]!.role)} message`}: ` +
          `add the tool ${plural(callIds.size, "message", "messages")} answering ${plural(callIds.size, "it", "them")} right after messages[${i}].`,
      );
      i = j;
      continue;
    }
    const answered = new Set<string>();
    for (; j < messages.length && messages[j]!.role === "tool"; j++) {
      const results = toolResultsOf(messages[j]!);
      if (results.length === 0) {
        add(
          HISTORY_ISSUE_CODES.toolMessageWithoutResult,
          j,
          "tool message carries no tool_result block: add one with the toolCallId it answers.",
        );
      }
      for (const result of results) {
        if (!callIds.has(result.toolCallId)) {
          add(
            HISTORY_ISSUE_CODES.extraToolResponse,
            j,
            `tool result answers ${JSON.stringify(result.toolCallId)}, which messages[${i}] did not call (${plural(callIds.size, "call", "calls")}: ${list([...callIds])}): fix its toolCallId or remove it.`,
          );
        } else if (answered.has(result.toolCallId)) {
          add(
            HISTORY_ISSUE_CODES.extraToolResponse,
            j,
            `tool call ${JSON.stringify(result.toolCallId)} is answered more than once: keep one result.`,
          );
        } else answered.add(result.toolCallId);
      }
    }
    const missing = [...callIds].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      add(
        HISTORY_ISSUE_CODES.missingToolResponse,
        i,
        `tool ${plural(missing.length, "call", "calls")} ${list(missing)} ${plural(missing.length, "has", "have")} no response in ` +
          `${j - 1 === i + 1 ? `messages[${i + 1}]` : `messages[${i + 1}..${j - 1}]`}: add a tool result for ${plural(missing.length, "it", "each")}.`,
      );
    }
    if (j < messages.length && messages[j]!.role !== "assistant") {
      add(
        HISTORY_ISSUE_CODES.messageAfterToolResponse,
        j,
        `"${messages[j]!.role}" message follows the tool ${plural(j - i - 1, "response", "responses")} to messages[${i}]: the next message must be the assistant's (add its reply before this one).`,
      );
    }
    i = j;
  }
  return issues.sort((a, b) => a.index - b.index);
}

/** Throws `HistoryValidationError` carrying every issue when the history is invalid. */
export function assertValidHistory(messages: readonly Message[]): void {
  const issues = validateHistory(messages);
  if (issues.length > 0) throw new HistoryValidationError(issues);
}
