/**
 * A turn read from the next one. A client's previous request is, most of the time, the next
 * request without its newest messages: same model, tools and settings, and a conversation that
 * is a prefix of the next one's. Reading it again (validating every message, converting every
 * block) costs as much as reading the next request; `prefixRequest` derives it instead, when it
 * can prove the result is the one a full read gives.
 *
 * The proof rests on how these converters work: each raw message becomes exactly one normalized
 * message, after the messages the request's own fields lead with (a system prompt), and reading
 * a message looks back only (a tool result takes its name from an earlier call); the schemas and
 * block checks look at one message at a time. So when every other field is the same JSON and
 * each message of the shorter conversation is the same JSON as the longer one's at that index,
 * the shorter request is valid too, and its normalized form is the longer one's with the
 * messages cut at the same point. OpenAI Responses is left out: its converter merges items into
 * messages (a call and its output may land in one message), so a prefix of items is not a
 * prefix of messages.
 *
 * Format detection is the caller's to check: a shorter conversation has less evidence, and may
 * rank another format first (see `parsePrefixRequest` in request/).
 */
import { sameJson } from "../util/same-json.ts";
import { isObject } from "../util/plain-object.ts";
import type { WireRequest } from "./parse.ts";
import type { WireFormat } from "./types.ts";

/** The field holding the conversation, for each format whose converter reads it message by message. */
const CONVERSATION: Readonly<Partial<Record<WireFormat, string>>> = {
  "openai-chat": "messages",
  anthropic: "messages",
  gemini: "contents",
  "bedrock-converse": "messages",
};

/**
 * The same value, or the same JSON: a value read twice is read alike. (A previous text cut from
 * the next one, `cutArrayValue`, shares the next one's values: nothing to compare.)
 */
const same = (a: unknown, b: unknown): boolean => a === b || sameJson(a, b);

/** The index in `path` (`messages[3].content[1]`) of the conversation item it lies in, or -1 when outside. */
function itemIndex(path: string, key: string): number {
  if (!path.startsWith(key) || path.charCodeAt(key.length) !== 0x5b /* [ */) return -1;
  const end = path.indexOf("]", key.length);
  return end < 0 ? -1 : Number(path.slice(key.length + 1, end));
}

/**
 * `shorter` read as `readWireFormat(next.format, shorter)` reads it, derived from `longer` (the
 * value `next` was read from) when `shorter` is `longer` with a conversation cut short; null when
 * it is not (then read it). The result shares its messages with `next.request`.
 */
export function prefixRequest(shorter: unknown, longer: unknown, next: WireRequest): WireRequest | null {
  const key = CONVERSATION[next.format];
  if (key === undefined || !isObject(shorter) || !isObject(longer)) return null;
  const a = shorter[key];
  const b = longer[key];
  if (!Array.isArray(a) || !Array.isArray(b) || a.length > b.length) return null;
  // The messages the request's own fields lead with (a system prompt): the same in both, as those fields are.
  const lead = next.request.messages.length - b.length;
  if (lead < 0) return null;
  const keys = Object.keys(shorter);
  const longerKeys = Object.keys(longer);
  if (keys.length !== longerKeys.length) return null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k !== longerKeys[i]) return null;
    if (k !== key && !same(shorter[k], longer[k])) return null;
  }
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return null;
  const warnings = next.warnings.filter((w) => itemIndex(w.path, key) < a.length);
  return {
    format: next.format,
    request: { ...next.request, messages: next.request.messages.slice(0, lead + a.length) },
    warnings,
  };
}
