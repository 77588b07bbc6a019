/**
 * OpenAI's exact tokenizer for the counter (core's prompt-strata/tokenizers/openai, gpt-tokenizer
 * underneath). Its rank tables are large, so the entry is imported on first use only (its own
 * chunk), and each encoding once.
 */
import type { OpenAITokenizer } from "../../core/tokenizers/openai/index.ts";

export function loadOpenAITokenizer(model: string): Promise<OpenAITokenizer> {
  return import("../../core/tokenizers/openai/index.ts").then((m) => m.createOpenAITokenizer(model));
}

/**
 * Whether a request names an OpenAI model, from its text alone (the first `"model"` field), so the
 * tokenizer can be loaded before the inspection instead of after it. Only a hint: the report's
 * provider decides (see job.ts).
 */
export function openaiModelHint(text: string): string | null {
  const m = /"model"\s*:\s*"((?:[\w.-]+\/)?(?:gpt-|o\d|chatgpt|codex|computer-use)[^"]{0,120})"/.exec(
    text.slice(0, 65_536),
  );
  return m ? m[1]! : null;
}
