/** Which provider's cache rules and prompt order apply to a request. */
import type { RequestFormat } from "../request/parse-request.ts";
import type { CacheProvider } from "./types.ts";

/**
 * From the wire format when it names a provider; for Strata requests from `model.provider`
 * (`anthropic`, `openai`/`azure`, `google`/`gemini`/`vertex`), then the model id's prefix.
 * Falls back to `openai`, whose rules (automatic prefix caching) assume the least.
 */
export function inferCacheProvider(format: RequestFormat, modelProvider: string, model: string): CacheProvider {
  // Bedrock Converse caches at cachePoint markers, as Anthropic at cache_control (AWS docs, Prompt caching, read 2026-12-01).
  if (format === "anthropic" || format === "bedrock-converse") return "anthropic";
  if (format === "gemini") return "gemini";
  // Claude through an OpenAI-compatible router (OpenRouter, LiteLLM) is cached by Anthropic's rules, at its cache_control parts.
  if (format === "openai-chat" && /(^|[/.])claude/i.test(model)) return "anthropic";
  if (format === "openai-chat" || format === "openai-responses") return "openai";
  const p = modelProvider.toLowerCase();
  if (/anthropic|claude|bedrock/.test(p)) return "anthropic";
  if (/google|gemini|vertex/.test(p)) return "gemini";
  if (/openai|azure/.test(p)) return "openai";
  const m = model.toLowerCase();
  if (m.includes("claude")) return "anthropic";
  if (m.includes("gemini")) return "gemini";
  return "openai";
}
