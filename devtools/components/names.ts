/**
 * Human names for the closed sets in the report, keyed by core's own unions: a member core adds
 * fails to compile here until it has its words.
 */
import { CONTEXT_BUDGET_OMISSION_KINDS, type ContextBudgetOmissionKind } from "../../core/assembly/index.ts";
import type { CacheProvider, DivergenceCause } from "../../core/cache/index.ts";
import { PROMPT_TIERS, type PromptTier } from "../../core/composer/index.ts";
import { HISTORY_ISSUE_CODES, type HistoryIssueCode } from "../../core/conversation/index.ts";
import { REQUEST_FORMATS, type RequestFormat } from "../../core/request/index.ts";
import type { TemplateVolatility } from "../../core/templates/index.ts";
import { isMember, type Labels } from "./closedSets.ts";

export const FORMAT_NAMES: Labels<RequestFormat> = {
  strata: "Strata AssemblyRequest",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini generateContent",
  "bedrock-converse": "AWS Bedrock Converse",
};

/** A format's name; a name core does not list (an error's `tried`, typed `string`) is shown as given. */
export const formatName = (format: string): string =>
  isMember(REQUEST_FORMATS, format) ? FORMAT_NAMES[format] : format;

export const PROVIDER_NAMES: Labels<CacheProvider> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  gemini: "Gemini",
};

/** Divergence causes in words: what happened, and whether it costs the cache. */
export const CAUSE_TEXT: Labels<DivergenceCause> = {
  appended: "Only appended: the previous turn is a prefix of this one, so its cache still applies.",
  truncated: "This turn is shorter: it ends inside the previous one.",
  tools_changed: "The tool definitions changed, which invalidates everything after them.",
  tool_order_changed: "The same tools were sent in a different order.",
  json_key_order_changed: "The same content with JSON keys in a different order: sort keys before sending.",
  system_changed: "The system prompt changed.",
  volatile_template_value: "A template value that changes every turn (a time, an id) changed the prompt early on.",
  history_window_shifted: "Messages were dropped from the front of the history: the window slid by one turn.",
  message_edited: "An earlier message was edited.",
  model_changed: "The model changed: caches are per model.",
};

export const CAUSE_LABELS: Labels<DivergenceCause> = {
  appended: "appended",
  truncated: "truncated",
  tools_changed: "tools changed",
  tool_order_changed: "tool order changed",
  json_key_order_changed: "JSON key order changed",
  system_changed: "system prompt changed",
  volatile_template_value: "volatile template value",
  history_window_shifted: "history window shifted",
  message_edited: "message edited",
  model_changed: "model changed",
};

/** How often a volatile template value changes. */
export const VOLATILITY_LABELS: Labels<TemplateVolatility> = {
  per_request: "per request",
  per_day: "per day",
  per_conversation: "per conversation",
};

/** The tier gate's rule for each tier. */
export const TIER_TEXT: Labels<PromptTier> = {
  core: "Always kept, even over the budget.",
  active: "Kept while the running total stays within the active ceiling.",
  informational: "Kept while the running total stays within the budget.",
};

/** What the context budget evicts, in its order: tool results first, attachments last. */
export const OMISSION_TEXT: Labels<ContextBudgetOmissionKind> = {
  tool_results: "A tool exchange (the assistant's call and its results, evicted together); evicted first.",
  history: "An earlier history message, oldest first; evicted after tool results.",
  summaries: "A summary of earlier turns, oldest first; evicted after history.",
  context: "A context block; evicted after summaries.",
  skills: "A skill; evicted after context blocks.",
  attachments: "An attachment or resource; evicted last.",
};

/** What a dropped item's `kind` means: a tier (tier gate) or an omission kind (context budget). */
export const droppedKindText = (kind: string): string | undefined =>
  isMember(PROMPT_TIERS, kind)
    ? TIER_TEXT[kind]
    : isMember(CONTEXT_BUDGET_OMISSION_KINDS, kind)
      ? OMISSION_TEXT[kind]
      : undefined;

/** The history rule each issue code stands for. */
export const HISTORY_ISSUE_TEXT: Labels<HistoryIssueCode> = {
  tool_call_without_response: "An assistant message with tool calls must be followed at once by tool messages.",
  missing_tool_response: "Every tool call needs a result in the tool messages that follow it.",
  extra_tool_response: "A tool result must answer a call the assistant made, and only once.",
  orphan_tool_response: "A tool message must follow an assistant tool call.",
  non_assistant_after_tool_response: "After the tool results, the next message must be the assistant's.",
  duplicate_tool_call_id: "Each tool call in one assistant message needs its own id.",
  tool_message_without_result: "A tool message must carry a tool_result block.",
};

const HISTORY_CODES: readonly HistoryIssueCode[] = Object.values(HISTORY_ISSUE_CODES);

/** The rule behind a history issue (its `code` is typed `string` in the report). */
export const historyIssueText = (code: string): string | undefined =>
  isMember(HISTORY_CODES, code) ? HISTORY_ISSUE_TEXT[code] : undefined;

/** "a"/"an" before a name, by its first sound as spelled (an Anthropic, an OpenAI, a Gemini). */
export const withArticle = (name: string): string => `${/^[AEIOU]/i.test(name) ? "an" : "a"} ${name}`;
