/** The codes of history.ts's tool-call sequencing rules (their own module: provider-history reuses them). */
export const HISTORY_ISSUE_CODES = Object.freeze({
  /** Rule 1: an assistant tool call is not followed at once by a tool message. */
  toolCallWithoutResponse: "tool_call_without_response",
  /** Rule 2: a call id has no response in the run that follows it. */
  missingToolResponse: "missing_tool_response",
  /** Rule 2: a response answers an id the calls did not make, or answers one twice. */
  extraToolResponse: "extra_tool_response",
  /** Rule 3: a tool message that does not follow an assistant tool call. */
  orphanToolResponse: "orphan_tool_response",
  /** Rule 4: the message after a run of tool responses is not from the assistant. */
  messageAfterToolResponse: "non_assistant_after_tool_response",
  /** One assistant message uses a call id twice (responses cannot tell the calls apart). */
  duplicateToolCallId: "duplicate_tool_call_id",
  /** A tool message carries no `tool_result` block. */
  toolMessageWithoutResult: "tool_message_without_result",
} as const);

export type HistoryIssueCode = (typeof HISTORY_ISSUE_CODES)[keyof typeof HISTORY_ISSUE_CODES];
