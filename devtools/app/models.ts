/**
 * Model ids offered in the picker (any id may be typed). Cache rules match them by pattern in core's
 * rule table; this list is only a convenience and decides nothing.
 */
export const MODEL_SUGGESTIONS: readonly { readonly provider: "openai" | "anthropic" | "gemini"; readonly id: string }[] = [
  { provider: "openai", id: "gpt-4o-mini" },
  { provider: "openai", id: "gpt-4o" },
  { provider: "openai", id: "gpt-4.1" },
  { provider: "openai", id: "gpt-5" },
  { provider: "anthropic", id: "claude-sonnet-4-5" },
  { provider: "anthropic", id: "claude-sonnet-4-6" },
  { provider: "anthropic", id: "claude-opus-4-5" },
  { provider: "anthropic", id: "claude-haiku-4-5" },
  { provider: "anthropic", id: "claude-3-5-haiku" },
  { provider: "gemini", id: "gemini-2.5-flash" },
  { provider: "gemini", id: "gemini-2.5-pro" },
  { provider: "gemini", id: "gemini-3-pro" },
];
