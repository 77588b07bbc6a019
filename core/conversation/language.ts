/**
 * Where a message's language lives and which language a response uses.
 *
 * A message's language is `message.metadata.language` (host data that never reaches the
 * wire), a non-blank string such as `"en"` or `"de-CH"`; it is returned trimmed.
 */
import type { JsonValue, Message } from "../messages/index.ts";

/** The metadata key of a message's language. */
export const MESSAGE_LANGUAGE_KEY = "language";
/** The communication metadata key of the client's language (spec: `client.language`). */
export const CLIENT_LANGUAGE_KEY = "client.language";

function nonBlank(value: JsonValue | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** `message.metadata.language` when it is a non-blank string, trimmed; otherwise `undefined`. */
export function messageLanguage(message: Message): string | undefined {
  return nonBlank(message.metadata?.[MESSAGE_LANGUAGE_KEY]);
}

/**
 * The language to respond in, by the spec's precedence:
 * 1. the language of the latest user message in `history` that has one
 *    (a newer user message without a language does not hide an older one),
 * 2. `metadata["client.language"]`,
 * 3. `""`.
 */
export function resolveResponseLanguage(
  history: readonly Message[],
  metadata?: Readonly<Record<string, JsonValue>>,
): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.role !== "user") continue;
    const language = messageLanguage(message);
    if (language !== undefined) return language;
  }
  return nonBlank(metadata?.[CLIENT_LANGUAGE_KEY]) ?? "";
}
