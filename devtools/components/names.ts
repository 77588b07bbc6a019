/** Human names for the closed sets in the report. */

export const FORMAT_NAMES: Readonly<Record<string, string>> = {
  strata: "Strata AssemblyRequest",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini generateContent",
};

export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  gemini: "Gemini",
};

/** Divergence causes in words: what happened, and whether it costs the cache. */
export const CAUSE_TEXT: Readonly<Record<string, string>> = {
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

export const CAUSE_LABELS: Readonly<Record<string, string>> = {
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
