/**
 * `simulateAdjacentTurn(request, { direction, reply?, nextInput?, format? })`: the request one
 * turn earlier or later, in the form it was given — so a previous turn for `compareRequests` or
 * `inspect({ previous })` can be rebuilt from the current request alone.
 *
 * | given                                   | returned (`format`)                                   |
 * | --------------------------------------- | ----------------------------------------------------- |
 * | `ProviderRequest` / `NormalizedRequest`  | the adjacent `NormalizedRequest` (`"normalized"`)     |
 * | `AssemblyRequest` (value or JSON text)   | the adjacent `AssemblyRequest` (`"strata"`)           |
 * | a wire body (value or JSON text)         | the adjacent body in the same wire format (`"anthropic"`, …) |
 *
 * The turn rules are turn-edit.ts's, shared with `simulateNextTurn`: next = this turn's input
 * (or, for a provider request, its messages) + the reply + the next input, without this turn's
 * `toolResults`; previous = everything before the last assistant message. A wire body goes
 * through `parseRequest` and back through its converter, so it comes out in the converter's
 * canonical form (key order, string shorthands), as `inspect` normalizes it.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { AssemblyRequest } from "../request/assembly-request.ts";
import { writeAnthropic } from "../formats/anthropic.ts";
import type { JsonObject } from "../formats/convert-util.ts";
import { writeGemini } from "../formats/gemini.ts";
import { writeBedrock } from "../formats/bedrock.ts";
import { writeOpenAIChat } from "../formats/openai-chat.ts";
import { writeOpenAIResponses } from "../formats/openai-responses.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest, WireFormat } from "../formats/types.ts";
import type { RequestFormat } from "../request/parse-request.ts";
import type { AgentInput } from "../assembly/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import type { Message } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { isObject } from "../util/plain-object.ts";
import {
  DEFAULT_SIMULATED_NEXT_INPUT,
  DEFAULT_SIMULATED_REPLY,
  checkAgentInput,
  checkReply,
  nextAssemblyTurn,
  nextTurnMessages,
  previousAssemblyTurn,
  previousTurnMessages,
} from "./turn-edit.ts";

export interface AdjacentTurnOptions {
  readonly direction: "previous" | "next";
  /** `next` only: the assistant's reply to this turn; default `DEFAULT_SIMULATED_REPLY`. */
  readonly reply?: string | Message;
  /** `next` only: the user's next input; default `DEFAULT_SIMULATED_NEXT_INPUT`. */
  readonly nextInput?: AgentInput;
  /** The format of a JSON `request` (skips detection); ignored for a `ProviderRequest`. */
  readonly format?: RequestFormat;
}

/** The adjacent turn, in the form the request was given. */
export type AdjacentTurn =
  | { readonly format: "normalized"; readonly request: NormalizedRequest }
  | { readonly format: "strata"; readonly request: AssemblyRequest }
  | { readonly format: WireFormat; readonly request: JsonObject };

// The adjacent turn is written back in the format it was read from, verbatim: the writers without
// the cross-format translator (which inspect never needs, so it stays out of its bundle).
const WRITERS: Readonly<Record<WireFormat, (r: NormalizedRequest) => JsonObject>> = {
  "openai-chat": (r) => writeOpenAIChat(r, { from: "openai-chat" }).body,
  "openai-responses": (r) => writeOpenAIResponses(r, { from: "openai-responses" }).body,
  anthropic: (r) => writeAnthropic(r, { from: "anthropic" }).body,
  gemini: (r) => writeGemini(r, { from: "gemini" }).body,
  "bedrock-converse": (r) => writeBedrock(r, { from: "bedrock-converse" }).body,
};

/** A `ProviderRequest`/`NormalizedRequest` (model object + messages), not JSON of a request format. */
const isProviderRequest = (v: unknown): v is ProviderRequest =>
  isObject(v) && isObject(v["model"]) && Array.isArray(v["messages"]);

function adjacentMessages(request: NormalizedRequest, options: AdjacentTurnOptions): NormalizedRequest {
  const messages =
    options.direction === "next"
      ? nextTurnMessages(
          request.messages,
          options.reply ?? DEFAULT_SIMULATED_REPLY,
          options.nextInput ?? DEFAULT_SIMULATED_NEXT_INPUT,
        )
      : previousTurnMessages(request.messages);
  return { ...request, messages };
}

async function adjacentAssembly(request: AssemblyRequest, options: AdjacentTurnOptions): Promise<AssemblyRequest> {
  const template = request.template;
  // A template that renders the input belongs to this turn's input only.
  const { template: _t, ...withoutTemplate } = request;
  const own = template?.target === "input" ? withoutTemplate : request;
  if (options.direction === "previous") return previousAssemblyTurn(own);
  // The Jinja engine is loaded only when this turn's input comes from a template.
  const input =
    template?.target === "input"
      ? (await import("./template-engine.ts")).renderAssemblyTemplate(template).rendered
      : request.input;
  return nextAssemblyTurn(
    { ...own, input },
    options.reply ?? DEFAULT_SIMULATED_REPLY,
    options.nextInput ?? DEFAULT_SIMULATED_NEXT_INPUT,
  );
}

/**
 * The request one turn before or after `request`, in the same form (see the table above). Async
 * because a template that renders the input needs the Jinja engine, which is loaded only then.
 * Rejects with `InvalidInputError` (code `no_previous_turn`) when there is no earlier turn, and the usual typed
 * errors for malformed input: the message-shape check for a `ProviderRequest`, `RequestFormatError`
 * for JSON that matches no format.
 */
export async function simulateAdjacentTurn(request: unknown, options: AdjacentTurnOptions): Promise<AdjacentTurn> {
  if (!isObject(options) || (options["direction"] !== "previous" && options["direction"] !== "next")) {
    throw new InvalidInputError("options.direction", 'must be "previous" or "next".');
  }
  if (options.reply !== undefined) checkReply(options.reply, "reply");
  if (options.nextInput !== undefined) checkAgentInput(options.nextInput, "nextInput");
  if (isProviderRequest(request)) {
    assertProviderRequest(request);
    return { format: "normalized", request: adjacentMessages(request, options) };
  }
  const parsed = parseRequest(request, options.format ? { format: options.format } : {});
  if (parsed.format === "strata") return { format: "strata", request: await adjacentAssembly(parsed.request, options) };
  return { format: parsed.format, request: WRITERS[parsed.format](adjacentMessages(parsed.request, options)) };
}
