/**
 * `buildPromptContext`: the argument map prompt templates render with.
 *
 * | key            | contents                                                                  |
 * | -------------- | ------------------------------------------------------------------------- |
 * | `system`       | the clock in UTC (see `SystemArguments`); from `now`, else the current time |
 * | `assistant`    | `name`, `id` (always a string), `language`, `description` — those given   |
 * | `conversation` | `id` (string), `identifier`, `source`, `direction`, `created_date`,        |
 * |                | `updated_date` (RFC 3339 UTC from a Date, a string as given), `duration`  |
 * | `session`      | `{ mode }`, only when a mode is given                                     |
 * | `message`      | `{ text, language }` of the current user message                         |
 * | `args`         | the conversation arguments                                                |
 * | root           | a flattened copy of every argument                                        |
 *
 * Merge precedence: the namespaces above always win at the root; an argument named like one
 * (`system`, `args`, …) stays reachable as `args.<name>` only. Every value is deep-cloned (and
 * `args` twice: the namespaced and root copies share nothing), so neither the caller's later
 * mutation nor a consumer's mutation leaks. Template variable defaults are merged later, below
 * this map, by `renderJinjaTemplate(template, context, { defaults })`.
 */
import { InvalidInputError } from "../util/errors.ts";
import { messageLanguage } from "./language.ts";
import type { JsonValue, Message } from "../messages/index.ts";
import { messageText } from "../messages/index.ts";
import { putOwn } from "../util/plain-object.ts";
import { cloneJson } from "../util/json-clone.ts";
import type { SystemArguments } from "./system-clock.ts";
import { ISO_INSTANT, checkedDate, goDuration, rfc3339, systemArguments } from "./system-clock.ts";

type Id = string | number | bigint;

export interface AssistantInfo {
  readonly id?: Id;
  readonly name?: string;
  readonly language?: string;
  readonly description?: string;
}

export interface ConversationInfo {
  readonly id?: Id;
  readonly identifier?: string;
  readonly source?: string;
  readonly direction?: string;
  readonly createdDate?: Date | string;
  readonly updatedDate?: Date | string;
  /** Overrides the computed duration (`now − createdDate`, Go style: `1h2m3s`). */
  readonly duration?: string;
}

export interface PromptContextInput {
  /** The clock for `system.*` and `conversation.duration`. Absent: the current time (not deterministic). */
  readonly now?: Date;
  readonly assistant?: AssistantInfo;
  readonly conversation?: ConversationInfo;
  readonly session?: { readonly mode?: string };
  /** The current user message: a `Message` (text blocks; `metadata.language`) or its text and language. */
  readonly message?: Message | { readonly text?: string; readonly language?: string };
  /** Conversation arguments: JSON data. */
  readonly args?: Readonly<Record<string, unknown>>;
}

export type AssistantArguments = {
  readonly id?: string;
  readonly name?: string;
  readonly language?: string;
  readonly description?: string;
};
export type ConversationArguments = {
  readonly id?: string;
  readonly identifier?: string;
  readonly source?: string;
  readonly direction?: string;
  readonly created_date?: string;
  readonly updated_date?: string;
  readonly duration?: string;
};
export type MessageArguments = { readonly text: string; readonly language: string };

/** The argument map. Root keys other than the namespaces are the flattened conversation arguments. */
export interface PromptContext {
  readonly system: SystemArguments;
  readonly assistant?: AssistantArguments;
  readonly conversation?: ConversationArguments;
  readonly session?: { readonly mode: string };
  readonly message?: MessageArguments;
  readonly args: { readonly [key: string]: JsonValue };
  readonly [key: string]: JsonValue | undefined;
}

/** Root keys that belong to the namespaces and that a conversation argument never replaces. */
export const PROMPT_CONTEXT_NAMESPACES = ["system", "assistant", "conversation", "session", "message", "args"] as const;

function idString(value: unknown, field: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new InvalidInputError(field, "must be a string, a safe integer or a bigint.");
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string") throw new InvalidInputError(field, `must be a string, got ${typeof value}.`);
  return value;
}

function assistantArguments(info: AssistantInfo): AssistantArguments {
  const out: Record<string, string> = {};
  if (info.name !== undefined) out["name"] = text(info.name, "assistant.name");
  if (info.id !== undefined) out["id"] = idString(info.id, "assistant.id");
  if (info.language !== undefined) out["language"] = text(info.language, "assistant.language");
  if (info.description !== undefined) out["description"] = text(info.description, "assistant.description");
  return out;
}

function dateText(value: Date | string, field: string): string {
  return typeof value === "string" ? value : rfc3339(checkedDate(value, field));
}

function conversationArguments(info: ConversationInfo, now: Date): ConversationArguments {
  const out: Record<string, string> = {};
  if (info.id !== undefined) out["id"] = idString(info.id, "conversation.id");
  for (const key of ["identifier", "source", "direction"] as const) {
    if (info[key] !== undefined) out[key] = text(info[key], `conversation.${key}`);
  }
  if (info.createdDate !== undefined) out["created_date"] = dateText(info.createdDate, "conversation.createdDate");
  if (info.updatedDate !== undefined) out["updated_date"] = dateText(info.updatedDate, "conversation.updatedDate");
  if (info.duration !== undefined) out["duration"] = text(info.duration, "conversation.duration");
  else if (info.createdDate !== undefined) {
    // Best effort (spec): a Date, or a string in the one format every engine parses alike.
    const created =
      typeof info.createdDate === "string"
        ? ISO_INSTANT.test(info.createdDate)
          ? Date.parse(info.createdDate)
          : Number.NaN
        : info.createdDate.getTime();
    if (!Number.isNaN(created)) out["duration"] = goDuration(now.getTime() - created);
  }
  return out;
}

function isMessage(value: PromptContextInput["message"]): value is Message {
  return typeof value === "object" && value !== null && "role" in value && Array.isArray((value as Message).content);
}

function messageArguments(message: NonNullable<PromptContextInput["message"]>): MessageArguments {
  if (isMessage(message)) return { text: messageText(message), language: messageLanguage(message) ?? "" };
  return {
    text: message.text === undefined ? "" : text(message.text, "message.text"),
    language: message.language === undefined ? "" : text(message.language, "message.language").trim(),
  };
}

export function buildPromptContext(input: PromptContextInput = {}): PromptContext {
  if (typeof input !== "object" || input === null) throw new InvalidInputError("input", "must be an object.");
  const now = input.now === undefined ? new Date() : checkedDate(input.now, "now");
  const args = input.args === undefined ? {} : cloneJson(input.args, "args");
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new InvalidInputError("args", "must be a plain object of argument name → JSON value.");
  }
  const context: Record<string, JsonValue> = { system: systemArguments(now) };
  if (input.assistant !== undefined) context["assistant"] = assistantArguments(input.assistant);
  if (input.conversation !== undefined) context["conversation"] = conversationArguments(input.conversation, now);
  if (input.session?.mode !== undefined) context["session"] = { mode: text(input.session.mode, "session.mode") };
  if (input.message !== undefined) context["message"] = messageArguments(input.message);
  context["args"] = args;
  // The flattened copy: a separate clone, and never over a namespace.
  const rootCopy = cloneJson(args, "args") as Record<string, JsonValue>;
  for (const key of Object.keys(rootCopy)) {
    if (!(PROMPT_CONTEXT_NAMESPACES as readonly string[]).includes(key)) putOwn(context, key, rootCopy[key]!);
  }
  return context as unknown as PromptContext;
}
