/**
 * Strata inspection as an edge worker (Cloudflare Workers module syntax; also runs on
 * any runtime that calls `fetch(request, env)` — Deno Deploy, Bun, workerd).
 *
 *   POST <any supported request format as JSON>   → 200 InspectionReport (JSON)
 *   bad JSON / unknown or malformed format         → 400 { error: { code, message, issues } }
 *   body over MAX_BODY_BYTES                       → 413 { error }
 *   more messages and blocks than inspect reads    → 413 { error: { code: "too_many_messages", limit } }
 *   any other method                               → 405 { error }, with `Allow: POST`
 *
 * Optional query parameters are passed to `inspect`: `provider` (whose cache rules and
 * prompt order to use) and `model`. Copy this file into a project that depends on
 * `prompt-strata`; it needs no Node APIs and no `nodejs_compat` flag.
 */
import { StrataError } from "prompt-strata";
import { CACHE_PROVIDERS } from "prompt-strata/cache";
import { InspectLimitError, inspect } from "prompt-strata/inspect";
import type { CacheProvider } from "prompt-strata/cache";
import type { InspectOptions } from "prompt-strata/inspect";

export interface Env {
  /** Largest accepted body in bytes (a decimal string, as Workers `vars` are). Default 1 MiB. */
  readonly MAX_BODY_BYTES?: string;
}

const DEFAULT_MAX_BODY_BYTES = 1_048_576;

interface ErrorBody {
  readonly code: string;
  readonly message: string;
  readonly issues?: readonly unknown[];
  readonly [extra: string]: unknown;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

const fail = (status: number, error: ErrorBody, headers?: Record<string, string>): Response =>
  json(status, { error }, headers);

function maxBodyBytes(env: Env | undefined): number {
  const configured = Number(env?.MAX_BODY_BYTES);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_BODY_BYTES;
}

class BodyTooLarge extends Error {}

/** Reads at most `limit` bytes; a body that keeps coming is cancelled, never buffered whole. */
async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** What a caller can act on: Strata errors carry a code and, for request errors, every issue with its JSON path. */
function describeError(error: StrataError): ErrorBody {
  const detail = error as StrataError & {
    issues?: unknown;
    tried?: unknown;
    field?: unknown;
    line?: unknown;
    column?: unknown;
  };
  const issues = Array.isArray(detail.issues)
    ? detail.issues
    : [{ code: error.code, path: typeof detail.field === "string" ? detail.field : "", message: error.message }];
  return {
    code: error.code,
    message: error.message,
    issues,
    ...(Array.isArray(detail.tried) ? { tried: detail.tried } : {}),
    ...(typeof detail.line === "number" ? { line: detail.line, column: detail.column } : {}),
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== "POST") {
      return fail(
        405,
        { code: "method_not_allowed", message: `Use POST with the request as the body, not ${request.method}.` },
        { allow: "POST" },
      );
    }
    const limit = maxBodyBytes(env);
    const declared = request.headers.get("content-length");
    if (declared !== null && Number(declared) > limit) {
      return fail(413, {
        code: "payload_too_large",
        message: `Content-Length ${declared} exceeds the ${limit}-byte limit.`,
        limit,
      });
    }

    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await readBody(request, limit));
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return fail(413, { code: "payload_too_large", message: `The body exceeds the ${limit}-byte limit.`, limit });
      }
      return fail(400, {
        code: "invalid_encoding",
        message: "The body is not valid UTF-8: send the request as UTF-8 JSON.",
        issues: [],
      });
    }

    const url = new URL(request.url);
    const provider = url.searchParams.get("provider");
    const model = url.searchParams.get("model");
    if (provider !== null && !(CACHE_PROVIDERS as readonly string[]).includes(provider)) {
      const message = `Unknown provider "${provider}": use one of ${CACHE_PROVIDERS.join(", ")}, or leave it out to infer it.`;
      return fail(400, {
        code: "invalid_query",
        message,
        issues: [{ code: "invalid_query", path: "?provider", message }],
      });
    }
    const options: InspectOptions = {
      ...(provider !== null ? { provider: provider as CacheProvider } : {}),
      ...(model ? { model } : {}),
    };
    try {
      // The report is bounded (its long lists cut to inspect's listCap), so it always serializes.
      return json(200, await inspect(text, options));
    } catch (error) {
      // Refused before anything was built: too much to analyse, like a body over the byte cap.
      if (error instanceof InspectLimitError) return fail(413, { ...describeError(error), limit: error.limit });
      if (error instanceof StrataError) return fail(400, describeError(error));
      // A bug, not bad input: say so without echoing internals.
      return fail(500, {
        code: "internal_error",
        message: "Inspection failed unexpectedly; please report the request that caused it.",
      });
    }
  },
};
