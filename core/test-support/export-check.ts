// One cell of the export matrix: a request read in its own format, written by one converter.
import { expect } from "vitest";
import type { ExportResult } from "../formats/export-context.ts";
import { parseWireRequest } from "../formats/parse.ts";
import { REQUEST_FIELDS } from "../formats/settings.ts";
import type { NormalizedRequest, WireFormat } from "../formats/types.ts";

// Source settings that a target writes under another name (the README's settings table).
const TRANSLATED = new Set([
  "max_tokens",
  "max_completion_tokens",
  "max_output_tokens",
  "temperature",
  "top_p",
  "top_k",
  "stop",
  "stop_sequences",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "n",
  "tool_choice",
  "toolConfig",
  "parallel_tool_calls",
  "thinking",
  "reasoning_effort",
  "reasoning",
  "output_config",
  "response_format",
  "text",
  "verbosity",
  "user",
  "safety_identifier",
  "metadata",
  "stream",
  "generationConfig",
  "generation_config",
  "inferenceConfig",
  "additionalModelRequestFields",
  "tool_config",
]);

// Same name and meaning in Chat Completions and Responses: carried between them as they are.
const OPENAI_SHARED = ["store", "service_tier", "prompt_cache_retention", "top_logprobs", "prompt_cache_options"];

/**
 * The body parses as the target format, holds no top-level field foreign to it, and the warnings
 * name every setting, thinking block and opaque block that was dropped; no provider signature crosses.
 */
export function checkExport(data: unknown, target: WireFormat, write: (r: NormalizedRequest) => ExportResult): void {
  const source = parseWireRequest(data);
  const { body, warnings } = write(source.request);
  // Parses back as the target format (each converter also checked it before returning).
  expect(parseWireRequest(body, { format: target }).format).toBe(target);
  if (source.format === target) return;
  // No field foreign to the target at the top level.
  for (const key of Object.keys(body)) expect(REQUEST_FIELDS[target]).toContain(key);
  const paths = warnings.map((w) => w.path);
  const warned = (path: string) => paths.some((p) => p === path || p.startsWith(`${path}.`));
  // A setting with no place in the neutral table is dropped, and named.
  for (const key of Object.keys(source.request.providerOptions ?? {}))
    if (!TRANSLATED.has(key) && !(target.startsWith("openai") && OPENAI_SHARED.includes(key)))
      expect(warned(`providerOptions.${key}`), key).toBe(true);
  source.request.messages.forEach((m, i) =>
    m.content.forEach((b, j) => {
      if (b.type === "opaque") {
        // Another format's block kept verbatim: its own format only can write it.
        const w = warnings.find((x) => x.path === `messages[${i}].content[${j}]`);
        expect(w?.code).toBe("content_dropped");
        return;
      }
      if (b.type !== "thinking") return;
      const w = warnings.find((x) => x.path === `messages[${i}].content[${j}]`);
      expect(w?.code).toBe(b.signature !== undefined || b.redacted ? "signed_content_dropped" : "content_dropped");
    }),
  );
  // No provider signature crosses: neither Anthropic's, OpenAI's encrypted reasoning nor Gemini's.
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/"signature"|"encrypted_content"|"thoughtSignature"|"redacted_thinking"/);
  if (target === "anthropic") {
    expect(typeof body.max_tokens).toBe("number");
    const budget = (body.thinking as { budget_tokens?: number } | undefined)?.budget_tokens;
    if (budget !== undefined) expect(budget).toBeLessThan(body.max_tokens as number);
  }
}
