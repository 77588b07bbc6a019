/**
 * How Strata builds the turn before or after a request — one set of rules, used by
 * `simulateNextTurn` (assembled turns N and N+1) and `simulateAdjacentTurn` (any request):
 *
 * - Next turn: this turn's input and the assistant's reply join the history, then the next input.
 *   This turn's `toolResults` are not repeated (they answered this turn only).
 * - Previous turn: everything from the last assistant message on is removed; the messages between
 *   the assistant message before it (or the start) and it become the previous turn's input.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { AgentInput } from "../assembly/types.ts";
import type { Message } from "../messages/types.ts";
import { assertMessage, assertMessages } from "../messages/validate.ts";

/** The reply `simulateAdjacentTurn` and `inspect` assume when none is given. */
export const DEFAULT_SIMULATED_REPLY = "(assistant reply)";
/** The next user input `simulateAdjacentTurn` and `inspect` assume when none is given. */
export const DEFAULT_SIMULATED_NEXT_INPUT = "(next user input)";
/** The default next turn of `inspect`'s next-turn simulation: placeholders, so the picture only shows layout effects. */
export const DEFAULT_NEXT_TURN = { reply: DEFAULT_SIMULATED_REPLY, nextInput: DEFAULT_SIMULATED_NEXT_INPUT } as const;

/** Throws `InvalidInputError` unless `value` is an `AgentInput` (a string, a message or messages). */
export function checkAgentInput(value: unknown, field: string): asserts value is AgentInput {
  if (typeof value === "string") return;
  if (Array.isArray(value)) assertMessages(value, field);
  else assertMessage(value, field);
}

/** Throws `InvalidInputError` unless `value` is a reply: a string or a message. */
export function checkReply(value: unknown, field = "reply"): asserts value is string | Message {
  if (typeof value !== "string") assertMessage(value, field);
}

/** An input as messages: a string is one user text message. */
export const inputMessages = (input: AgentInput): readonly Message[] =>
  typeof input === "string"
    ? [{ role: "user", content: [{ type: "text", text: input }] }]
    : Array.isArray(input)
      ? (input as readonly Message[])
      : [input as Message];

/** A reply as a message: a string is one assistant text message. */
export const replyMessage = (reply: string | Message): Message =>
  typeof reply === "string" ? { role: "assistant", content: [{ type: "text", text: reply }] } : reply;

/** The fields of an assembly turn (an `AssemblyRequest` or `assembleProviderInput` options) these rules touch. */
interface AssemblyTurn {
  readonly history?: readonly Message[];
  readonly input: AgentInput;
  readonly toolResults?: unknown;
}

/** The next assembly turn: history + this input + the reply, `nextInput` as input, no tool results. */
export function nextAssemblyTurn<T extends AssemblyTurn>(turn: T, reply: string | Message, nextInput: AgentInput): T {
  const { toolResults: _done, ...rest } = turn;
  return {
    ...rest,
    history: [...(turn.history ?? []), ...inputMessages(turn.input), replyMessage(reply)],
    input: nextInput,
  } as unknown as T;
}

/** The previous assembly turn: the history up to the last exchange, whose user side becomes the input. */
export function previousAssemblyTurn<T extends AssemblyTurn>(turn: T): T {
  const history = turn.history ?? [];
  const last = lastAssistant(history);
  if (last < 0)
    throw new InvalidInputError("history", "has no assistant reply, so there is no earlier turn to rebuild.", {
      code: "no_previous_turn",
    });
  let start = last;
  while (start > 0 && history[start - 1]!.role !== "assistant") start--;
  const input = history.slice(start, last);
  if (input.length === 0) {
    throw new InvalidInputError(
      `history[${last}]`,
      "this assistant reply has no user message before it, so there is no earlier turn to rebuild.",
      { code: "no_previous_turn" },
    );
  }
  const { toolResults: _t, ...rest } = turn;
  return { ...rest, history: history.slice(0, start), input: input.length === 1 ? input[0]! : input } as unknown as T;
}

/** The messages of the next turn of a provider request: these, the reply, then the next input. */
export const nextTurnMessages = (
  messages: readonly Message[],
  reply: string | Message,
  nextInput: AgentInput,
): Message[] => [...messages, replyMessage(reply), ...inputMessages(nextInput)];

/** The messages of the previous turn of a provider request: everything before the last assistant message. */
export function previousTurnMessages(messages: readonly Message[]): Message[] {
  const last = lastAssistant(messages);
  if (last < 0 || !messages.slice(0, last).some((m) => m.role !== "system")) {
    throw new InvalidInputError(
      "messages",
      last < 0
        ? "has no assistant reply, so there is no earlier turn to rebuild."
        : `the last assistant reply (messages[${last}]) answers no user or tool message, so there is no earlier turn to rebuild.`,
      { code: "no_previous_turn" },
    );
  }
  return messages.slice(0, last);
}

function lastAssistant(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "assistant") return i;
  return -1;
}
