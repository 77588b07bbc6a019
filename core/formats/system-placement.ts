/**
 * Where system messages go in a format with one system slot (Anthropic `system`, Gemini
 * `systemInstruction`, Bedrock `system`). Only the leading run of system messages fills the slot.
 * A system message after the conversation has started (a loaded skill, a reminder, a resource at
 * the session tail) is written where it stands, as a user turn whose text is wrapped in a marker:
 * hoisting it would change the system prompt, the start of the cached prefix, so loading a skill
 * would bust the cache instead of appending to it.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { ContentBlock, Message } from "../messages/types.ts";

/** Text written around a later system message's text when it becomes a user turn. */
export interface SystemMarker {
  readonly open: string;
  readonly close: string;
}

/**
 * `<system-reminder>` … `</system-reminder>`: the wrapper Claude Code uses for mid-conversation
 * instructions, so models read it as the application speaking, not the user.
 */
export const DEFAULT_SYSTEM_MARKER: SystemMarker = { open: "<system-reminder>\n", close: "\n</system-reminder>" };

/** The option of every converter for a format with one system slot (Anthropic, Gemini, Bedrock). */
export interface SystemPlacementOptions {
  /** Text around a system message that comes after the conversation started; default `DEFAULT_SYSTEM_MARKER`. */
  readonly systemMarker?: SystemMarker;
}

/** How many messages at the start are system messages (the ones the system slot takes). */
export function leadingSystemCount(messages: readonly Message[]): number {
  let n = 0;
  while (n < messages.length && messages[n]!.role === "system") n++;
  return n;
}

/** The converter option `systemMarker`, checked; the default when absent. */
export function systemMarkerOption(value: unknown): SystemMarker {
  if (value === undefined) return DEFAULT_SYSTEM_MARKER;
  const v = value as Partial<SystemMarker> | null;
  if (v === null || typeof v !== "object" || typeof v.open !== "string" || typeof v.close !== "string")
    throw new InvalidInputError(
      "systemMarker",
      "must be { open: string, close: string } (text around a later system message).",
    );
  return { open: v.open, close: v.close };
}

/** A later system message's block as it is written in a user turn: text wrapped in the marker. */
export function markedSystemBlock(block: ContentBlock, marker: SystemMarker): ContentBlock {
  return block.type === "text" ? { ...block, text: `${marker.open}${block.text}${marker.close}` } : block;
}
