/**
 * Which provider endpoint a recorded URL calls: the wire format of its body and, where the model is
 * part of the URL (Gemini, Vertex, Bedrock), the model. Matched on the path so proxies, gateways and
 * regional hosts work too (Azure `…/openai/deployments/x/chat/completions`, OpenRouter
 * `/api/v1/chat/completions`, Vertex `…/publishers/google/models/m:generateContent`).
 *
 * | path ends with                                  | format             | source |
 * | ----------------------------------------------- | ------------------ | ------ |
 * | `/chat/completions`                             | `openai-chat`      | OpenAI API reference, Create chat completion |
 * | `/responses`                                    | `openai-responses` | OpenAI API reference, Create a model response |
 * | `/v1/messages`                                  | `anthropic`        | Anthropic API reference, Messages |
 * | `/publishers/anthropic/models/{m}:rawPredict`, `:streamRawPredict` | `anthropic` (model from the URL) | Vertex AI docs, Claude models |
 * | `/models/{m}:generateContent`, `:streamGenerateContent` | `gemini` (model from the URL) | Gemini API reference, models.generateContent |
 * | `/model/{id}/converse`, `/converse-stream`       | `bedrock-converse` (model from the URL) | AWS Bedrock Runtime API reference, Converse |
 */
import type { UsageFormat } from "../tokens/usage.ts";

export interface Endpoint {
  readonly format: UsageFormat;
  /** The model named by the URL (decoded), or null when the body names it. */
  readonly model: string | null;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The path of a URL (absolute or a bare path), without query or fragment. */
function pathOf(url: string): string | null {
  try {
    return new URL(url, "http://localhost/").pathname;
  } catch {
    return null;
  }
}

const GEMINI = /\/models\/([^/:]+):(?:generateContent|streamGenerateContent)$/;
const VERTEX_CLAUDE = /\/publishers\/anthropic\/models\/([^/:]+):(?:rawPredict|streamRawPredict)$/;
const BEDROCK = /\/model\/([^/]+)\/(?:converse|converse-stream)$/;

/** The endpoint `url` calls, or null when it is not one Strata reads. */
export function matchEndpoint(url: string): Endpoint | null {
  const path = pathOf(url);
  if (path === null) return null;
  const p = path.replace(/\/+$/, "");
  if (p.endsWith("/chat/completions")) return { format: "openai-chat", model: null };
  if (p.endsWith("/responses")) return { format: "openai-responses", model: null };
  if (p.endsWith("/v1/messages")) return { format: "anthropic", model: null };
  let m = VERTEX_CLAUDE.exec(p);
  if (m) return { format: "anthropic", model: decode(m[1]!) };
  m = GEMINI.exec(p);
  if (m) return { format: "gemini", model: decode(m[1]!) };
  m = BEDROCK.exec(p);
  if (m) return { format: "bedrock-converse", model: decode(m[1]!) };
  return null;
}

/** For messages: what Strata reads. */
export const KNOWN_ENDPOINTS =
  "OpenAI /v1/chat/completions and /v1/responses, Anthropic /v1/messages, Gemini :generateContent and :streamGenerateContent, Bedrock /converse and /converse-stream";
