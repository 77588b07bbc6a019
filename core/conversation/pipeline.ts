/**
 * The request pipeline, run for each user text packet:
 * `build_user_message` → `snapshot_history` → `validate_history` → `prepare_prompt_arguments`.
 *
 * - The snapshot is a deep copy of the history BEFORE the new user message (the message is
 *   sent after it); validation runs on that snapshot and throws `HistoryValidationError`.
 * - `message.language` in the prompt arguments is `resolveResponseLanguage` over the snapshot
 *   plus the new message: the packet's language, else the latest user language in history,
 *   else `metadata["client.language"]`, else `""`.
 */
import { HistoryValidationError } from "./errors.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { JsonValue, Message } from "../messages/index.ts";
import { messageText, textBlock } from "../messages/index.ts";
import { cloneJson } from "../util/json-clone.ts";
import type { PromptContext, PromptContextInput } from "./prompt-context.ts";
import { buildPromptContext } from "./prompt-context.ts";
import { assertMessages } from "../messages/validate.ts";
import { historyIssues } from "./history.ts";
import { MESSAGE_LANGUAGE_KEY, resolveResponseLanguage } from "./language.ts";
import { definedFields } from "../util/plain-object.ts";

export const REQUEST_PIPELINE_STAGES = Object.freeze([
  "build_user_message",
  "snapshot_history",
  "validate_history",
  "prepare_prompt_arguments",
] as const);

export type RequestPipelineStage = (typeof REQUEST_PIPELINE_STAGES)[number];

/** What the user sent: text, and the language a client detected for it (if any). */
export interface UserTextPacket {
  readonly text: string;
  readonly language?: string;
}

/**
 * Everything besides history and the packet that prompt arguments are built from: the
 * `buildPromptContext` inputs (`now`, `assistant`, `conversation`, `session`, `args`) plus metadata.
 */
export interface PromptArgumentSources
  extends Pick<PromptContextInput, "now" | "assistant" | "conversation" | "session" | "args"> {
  /** Communication metadata; `client.language` is the language fallback. */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

export interface RequestPipelineInput extends PromptArgumentSources {
  readonly packet: UserTextPacket;
  readonly history: readonly Message[];
  /** Called as each stage starts, in order (tracing, devtools). */
  readonly onStage?: (stage: RequestPipelineStage) => void;
}

export interface RequestPipelineResult {
  readonly userMessage: Message;
  /** Deep copy of the history as it was validated (without the new user message). */
  readonly history: readonly Message[];
  readonly promptArguments: PromptContext;
  /** The stages that ran, in order. */
  readonly stages: readonly RequestPipelineStage[];
}

/** The user message of a packet; its language goes to `metadata.language`. */
export function buildUserMessage(packet: UserTextPacket): Message {
  if (typeof packet !== "object" || packet === null || typeof packet.text !== "string") {
    throw new InvalidInputError("packet.text", "must be a string.");
  }
  const language = packet.language?.trim();
  return language === undefined || language === ""
    ? { role: "user", content: [textBlock(packet.text)] }
    : { role: "user", content: [textBlock(packet.text)], metadata: { [MESSAGE_LANGUAGE_KEY]: language } };
}

/** A deep copy of the history, detached from the caller's objects. */
export function snapshotHistory(history: readonly Message[]): Message[] {
  if (!Array.isArray(history)) throw new InvalidInputError("history", "must be an array of messages.");
  return cloneJson(history, "history") as unknown as Message[];
}

function contextFor(sources: PromptArgumentSources, message: { text: string; language: string }): PromptContext {
  return buildPromptContext({
    ...definedFields({
      now: sources.now,
      assistant: sources.assistant,
      conversation: sources.conversation,
      session: sources.session,
      args: sources.args,
    }),
    message,
  });
}

export function runRequestPipeline(input: RequestPipelineInput): RequestPipelineResult {
  if (input === null || typeof input !== "object")
    throw new InvalidInputError("input", "must be an object { packet, history, now?, metadata?, onStage? }.");
  if (input.onStage !== undefined && typeof input.onStage !== "function")
    throw new InvalidInputError("onStage", "must be a function (stage) => void.");
  const stages: RequestPipelineStage[] = [];
  const enter = (stage: RequestPipelineStage) => {
    stages.push(stage);
    input.onStage?.(stage);
  };
  enter("build_user_message");
  const userMessage = buildUserMessage(input.packet);
  enter("snapshot_history");
  // The one message-shape check of this call, naming `history[i]…`; validation below trusts it.
  assertMessages(input.history, "history");
  const history = snapshotHistory(input.history);
  enter("validate_history");
  const issues = historyIssues(history);
  if (issues.length > 0) throw new HistoryValidationError(issues);
  enter("prepare_prompt_arguments");
  const promptArguments = contextFor(input, {
    text: messageText(userMessage),
    language: resolveResponseLanguage([...history, userMessage], input.metadata),
  });
  return { userMessage, history, promptArguments, stages };
}

/**
 * Prompt arguments for a tool follow-up after a response (spec: `preparePromptArgumentsForResponse`):
 * `message.*` is the latest user message in `history` — its text is kept for the follow-up —
 * and the language follows `resolveResponseLanguage(history, metadata)`.
 */
export function preparePromptArgumentsForResponse(
  history: readonly Message[],
  sources: PromptArgumentSources = {},
): PromptContext {
  assertMessages(history, "history");
  if (sources === null || typeof sources !== "object")
    throw new InvalidInputError(
      "sources",
      "must be an object { now?, assistant?, conversation?, session?, args?, metadata? }.",
    );
  const snapshot = snapshotHistory(history);
  let latestUser: Message | undefined;
  for (let i = snapshot.length - 1; i >= 0 && latestUser === undefined; i--)
    if (snapshot[i]!.role === "user") latestUser = snapshot[i];
  return contextFor(sources, {
    text: latestUser === undefined ? "" : messageText(latestUser),
    language: resolveResponseLanguage(snapshot, sources.metadata),
  });
}
