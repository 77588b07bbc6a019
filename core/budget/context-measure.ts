import { TokenEstimatorError } from "../errors.ts";
import type { ContentBlock, Message, ToolDefinition } from "../messages/index.ts";
import { utf8Length } from "../utf8.ts";

/**
 * How Strata sizes a prompt. Each message is measured once through its *measured text*:
 * its blocks' payloads joined with `\n` —
 * text/thinking: the text; tool_call: `<name>(<arguments JSON>)`; tool_result: the result
 * (strings verbatim, anything else as JSON); image/audio/file: `data` or `url`;
 * document: `text`, `data` or `url`. Role names and JSON framing are not counted.
 * Native tool schemas (sent in `request.tools`) are measured as `JSON.stringify(tools)`.
 */
export interface Measure {
  /** UTF-16 code units of the measured text (JavaScript `length`). */
  readonly chars: number;
  /** UTF-8 bytes of the measured text, as `TextEncoder` would write it. */
  readonly bytes: number;
  /** Estimated tokens (the budget's estimator). */
  readonly tokens: number;
}

export type TokenEstimator = (text: string) => number;

/** The spec's default estimate: `Math.ceil(UTF-16 length / 4)`. */
export const estimateTextTokens: TokenEstimator = (text) => Math.ceil(text.length / 4);

const describeResult = (n: unknown): string => (typeof n === "number" ? String(n) : n === null ? "null" : typeof n === "string" ? JSON.stringify(n) : `a ${typeof n}`);

/**
 * The one token-estimator contract, shared by the context budget, `segmentRequest`,
 * `compareRequests`, `simulateCache` and `inspect`:
 *
 * - `undefined` → the default `estimateTextTokens`.
 * - Not a function → `TokenEstimatorError` (a `TypeError`, spec 000) at once, before any text is
 *   measured; a result that is not a finite number ≥ 0 → the same error when it is returned.
 *   `field` is the option's path in the error (`contextBudget.tokenEstimator`, `tokenEstimator`).
 * - Rounding: every measured text counts whole tokens. A host estimator's result is rounded up
 *   (`Math.ceil`) per measured text — a message for the context budget, a segment (or the shared
 *   start of one) for cache analysis — exactly as the default `ceil(length / 4)` rounds. Totals are
 *   sums of those integers, so budget accounting, segment tokens and fingerprint bundles all hold
 *   integers, and the default estimator's counts (spec 000) are unchanged.
 */
export function checkedTokenEstimator(estimator: unknown, field: string): TokenEstimator {
  if (estimator === undefined) return estimateTextTokens;
  if (typeof estimator !== "function") {
    throw new TokenEstimatorError(field, `${field} must be a function (text: string) => number, got ${estimator === null ? "null" : `a ${typeof estimator}`}.`);
  }
  return (text) => {
    const tokens: unknown = estimator(text);
    if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0) {
      throw new TokenEstimatorError(field, `${field} returned ${describeResult(tokens)} for a ${text.length}-character text: it must return a finite, non-negative number.`);
    }
    return Math.ceil(tokens);
  };
}

/** UTF-8 byte length without allocating; lone surrogates count 3 bytes (U+FFFD), as `TextEncoder` writes them. */
export { utf8Length as utf8ByteLength } from "../utf8.ts";

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
    case "thinking":
      return block.text;
    case "tool_call":
      return `${block.name}(${JSON.stringify(block.arguments) ?? ""})`;
    case "tool_result":
      return typeof block.result === "string" ? block.result : (JSON.stringify(block.result) ?? "");
    case "document":
      return block.text ?? block.data ?? block.url ?? "";
    default:
      return block.data ?? block.url ?? "";
  }
}

export function messageMeasureText(message: Message): string {
  const content = message.content;
  if (content.length === 1) return blockText(content[0]!);
  let out = "";
  for (let i = 0; i < content.length; i++) out += i === 0 ? blockText(content[i]!) : `\n${blockText(content[i]!)}`;
  return out;
}

export function measureText(text: string, estimate: TokenEstimator): Measure {
  return { chars: text.length, bytes: utf8Length(text), tokens: estimate(text) };
}

export const measureMessage = (message: Message, estimate: TokenEstimator = estimateTextTokens): Measure =>
  measureText(messageMeasureText(message), estimate);

export const measureToolSchemas = (tools: readonly ToolDefinition[], estimate: TokenEstimator = estimateTextTokens): Measure =>
  measureText(JSON.stringify(tools), estimate);
