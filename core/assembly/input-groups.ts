import { InvalidInputError } from "../util/errors.ts";
import { textMessage, userMessage } from "../messages/index.ts";
import type { Message } from "../messages/index.ts";
import { sourced } from "./sources.ts";
import type { SourcedMessage } from "./sources.ts";
import { throwIfAborted, untilAborted } from "./abort.ts";
import {
  DEVELOPER_INSTRUCTION_HEADING,
  SYSTEM_INSTRUCTION_HEADING,
  attachmentMessage,
  contentMessage,
  headed,
  instructionMessage,
  resourceMessage,
  summaryMessage,
  toolResultInputMessage,
} from "./input-shapes.ts";
import type {
  AgentInput,
  DefaultInputBuildContext,
  InputAttachment,
  InstructionsInput,
  ToolResultInput,
} from "./types.ts";
import {
  assertContent,
  assertMessage,
  assertMessages,
  expectArray,
  expectOptionalString,
  expectString,
} from "../messages/validate.ts";
import { describeValue } from "../util/describe.ts";
import { definedFields, isObject } from "../util/plain-object.ts";

/** The default builder's message groups, each message labeled with its source. */
export interface InputGroups {
  readonly instructions: readonly SourcedMessage[];
  readonly summaries: readonly SourcedMessage[];
  readonly history: readonly SourcedMessage[];
  readonly input: readonly SourcedMessage[];
  readonly attachments: readonly SourcedMessage[];
  readonly toolResults: readonly SourcedMessage[];
  /** URI resources routed to the session tail instead of `attachments` (only with `resourcesToTail`). */
  readonly tail: readonly { readonly id: `resource:${string}`; readonly message: Message }[];
}

export interface BuildGroupsOptions {
  /** Send URI-loaded attachments and `resourceUris` to `tail` (session tail segments). */
  readonly resourcesToTail?: boolean;
}

/** Normalizes `input` into messages; a string becomes one user text message, messages are kept as given. */
export function inputMessages(input: AgentInput): readonly Message[] {
  if (typeof input === "string") return [userMessage(input)];
  if (Array.isArray(input)) {
    assertMessages(input, "input");
    return input;
  }
  if (isObject(input)) {
    assertMessage(input, "input");
    return [input];
  }
  throw new InvalidInputError(
    "input",
    `must be a string, a message or an array of messages, got ${describeValue(input, "brief")}.`,
  );
}

/** Builds every group in one linear pass per field. Loads resources in order, one at a time. */
export async function buildInputGroups(
  input: AgentInput,
  context: DefaultInputBuildContext,
  options: BuildGroupsOptions = {},
): Promise<InputGroups> {
  const groups = await buildUnlabeledInputGroups(input, context, options);
  return { ...groups, history: historyItems(groups.history) };
}

/** The groups with the history left as the host's (checked) messages, labeled `history:<index>` by position. */
export interface UnlabeledInputGroups extends Omit<InputGroups, "history"> {
  readonly history: HistorySnapshot;
}

/** Messages per list of a `HistorySnapshot` (2^HISTORY_SHIFT: 64 KB of references, a young object). */
const HISTORY_SHIFT = 13;
const HISTORY_MASK = (1 << HISTORY_SHIFT) - 1;

/**
 * The host's history as read at one moment (it may change its array while resources load), in
 * lists of 8,192 messages. One copy in a single list is, at 100,000 messages, an 800 KB large
 * object that V8 maps afresh, page by page, on every call — and it is garbage as soon as the
 * prompt is laid out, which makes the one list it needs (`flatInput`).
 */
export class HistorySnapshot {
  readonly chunks: readonly (readonly Message[])[];
  readonly length: number;

  constructor(messages: readonly Message[]) {
    const chunks: Message[][] = [];
    for (let start = 0; start < messages.length; start += 1 << HISTORY_SHIFT)
      chunks.push(messages.slice(start, start + (1 << HISTORY_SHIFT)));
    this.chunks = chunks;
    this.length = messages.length;
  }

  /** Message `i` (0 ≤ i < length). */
  at(i: number): Message {
    return this.chunks[i >> HISTORY_SHIFT]![i & HISTORY_MASK]!;
  }

  includes(message: Message): boolean {
    return this.chunks.some((chunk) => chunk.includes(message));
  }
}

/**
 * `buildInputGroups` without an item per history message: `assembleProviderInput` labels the
 * history by position when it can (see assemble/composed.ts). Same checks, same order.
 */
export async function buildUnlabeledInputGroups(
  input: AgentInput,
  context: DefaultInputBuildContext,
  options: BuildGroupsOptions = {},
): Promise<UnlabeledInputGroups> {
  throwIfAborted(context.signal);
  const inputItems = inputMessages(input).map((m) => sourced(m, "input"));
  const instructions = [
    ...instructionItems(context.systemInstructions, SYSTEM_INSTRUCTION_HEADING, "systemInstructions"),
    ...instructionItems(context.developerInstructions, DEVELOPER_INSTRUCTION_HEADING, "developerInstructions"),
  ];
  const summaries = summaryItems(context.summaries);
  const hostHistory: readonly Message[] = context.history === undefined ? [] : context.history;
  assertMessages(hostHistory, "history");
  // A copy of the references, as labeled items would hold them: the host may change its array meanwhile.
  const history = new HistorySnapshot(hostHistory);
  const toolResults = toolResultItems(context.toolResults);
  const { attachments, tail } = await attachmentItems(context, options.resourcesToTail === true);
  return { instructions, summaries, history, input: inputItems, attachments, toolResults, tail };
}

function instructionItems(value: InstructionsInput | undefined, heading: string, field: string): SourcedMessage[] {
  if (value === undefined) return [];
  if (typeof value === "string") return [sourced(instructionMessage(heading, value), "instructions")];
  const list = expectArray(value, field);
  return list.map((item, i) => {
    if (typeof item === "string") return sourced(instructionMessage(heading, item), "instructions");
    if (!isObject(item))
      throw new InvalidInputError(
        `${field}[${i}]`,
        `must be a string or { label?, text }, got ${describeValue(item, "brief")}.`,
      );
    const text = expectString(item["text"], `${field}[${i}].text`);
    const label = expectOptionalString(item["label"], `${field}[${i}].label`);
    return sourced(textMessage("system", headed(label ?? heading, text)), "instructions");
  });
}

function summaryItems(value: DefaultInputBuildContext["summaries"]): SourcedMessage[] {
  if (value === undefined) return [];
  if (typeof value === "string") return [sourced(summaryMessage(value), "summary")];
  const list = expectArray(value, "summaries");
  return list.map((item, i) => {
    if (typeof item === "string") return sourced(summaryMessage(item), "summary");
    if (!isObject(item))
      throw new InvalidInputError(
        `summaries[${i}]`,
        `must be a string or { id?, text }, got ${describeValue(item, "brief")}.`,
      );
    const text = expectString(item["text"], `summaries[${i}].text`);
    const id = expectOptionalString(item["id"], `summaries[${i}].id`);
    return sourced(summaryMessage(text), "summary", id);
  });
}

/** History messages labeled `history:<index>`. */
export function historyItems(value: HistorySnapshot): SourcedMessage[] {
  const items = new Array<SourcedMessage>(value.length);
  for (let i = 0; i < value.length; i++) items[i] = { message: value.at(i), source: `history:${i}` };
  return items;
}

function toolResultItems(value: readonly ToolResultInput[] | undefined): SourcedMessage[] {
  if (value === undefined) return [];
  const list = expectArray(value, "toolResults");
  return list.map((item, i) => {
    const field = `toolResults[${i}]`;
    if (!isObject(item))
      throw new InvalidInputError(
        field,
        `must be { toolCallId, name, value?, content?, error? }, got ${describeValue(item, "brief")}.`,
      );
    const toolCallId = expectString(item["toolCallId"], `${field}.toolCallId`);
    expectString(item["name"], `${field}.name`);
    if (item["content"] !== undefined) assertContent(item["content"], `${field}.content`);
    const error = item["error"];
    if (error !== undefined && typeof error !== "string") {
      if (!isObject(error))
        throw new InvalidInputError(
          `${field}.error`,
          `must be a string or { message, code? }, got ${describeValue(error, "brief")}.`,
        );
      expectString(error["message"], `${field}.error.message`);
    }
    return sourced(toolResultInputMessage(item as unknown as ToolResultInput), `toolResult:${toolCallId}`);
  });
}

async function attachmentItems(
  context: DefaultInputBuildContext,
  resourcesToTail: boolean,
): Promise<{ attachments: SourcedMessage[]; tail: { id: `resource:${string}`; message: Message }[] }> {
  const attachments: SourcedMessage[] = [];
  const tail: { id: `resource:${string}`; message: Message }[] = [];
  const list = context.attachments === undefined ? [] : expectArray(context.attachments, "attachments");
  for (let i = 0; i < list.length; i++) {
    const field = `attachments[${i}]`;
    const item = list[i];
    if (!isObject(item))
      throw new InvalidInputError(
        field,
        `must be { name, text }, { name, content } or { name?, uri }, got ${describeValue(item, "brief")}.`,
      );
    const attachment = item as InputAttachment;
    if (attachment.text !== undefined) {
      const name = expectString(attachment.name, `${field}.name`);
      attachments.push(
        sourced(attachmentMessage(name, expectString(attachment.text, `${field}.text`)), `attachment:${name}`),
      );
    } else if (attachment.content !== undefined) {
      const name = expectString(attachment.name, `${field}.name`);
      assertContent(attachment.content, `${field}.content`);
      attachments.push(sourced(contentMessage(attachment.content), `attachment:${name}`));
    } else if (attachment.uri !== undefined) {
      const uri = expectString(attachment.uri, `${field}.uri`);
      const name = expectOptionalString(attachment.name, `${field}.name`);
      const message = await loadResource(context, uri, field, name);
      if (resourcesToTail) tail.push({ id: `resource:${uri}`, message });
      else attachments.push(sourced(message, name === undefined ? `resource:${uri}` : `attachment:${name}`));
    } else {
      throw new InvalidInputError(
        field,
        "has neither text, content nor uri: give the attachment's text, its content blocks, or a uri for the resourceLoader.",
      );
    }
  }
  const uris = context.resourceUris === undefined ? [] : expectArray(context.resourceUris, "resourceUris");
  for (let i = 0; i < uris.length; i++) {
    const uri = expectString(uris[i], `resourceUris[${i}]`);
    const message = await loadResource(context, uri, `resourceUris[${i}]`, undefined);
    if (resourcesToTail) tail.push({ id: `resource:${uri}`, message });
    else attachments.push(sourced(message, `resource:${uri}`));
  }
  return { attachments, tail };
}

async function loadResource(
  context: DefaultInputBuildContext,
  uri: string,
  field: string,
  name: string | undefined,
): Promise<Message> {
  const loader = context.resourceLoader;
  if (!isObject(loader) || typeof loader["load"] !== "function") {
    throw new InvalidInputError(
      field,
      `names uri ${JSON.stringify(uri)} but no resourceLoader was given: pass resourceLoader: { load(uri) }.`,
      {
        code: "resource_loader_missing",
      },
    );
  }
  throwIfAborted(context.signal);
  let loaded: unknown;
  try {
    const options = {
      ...definedFields({ signal: context.signal, metadata: context.metadata }),
    };
    loaded = await untilAborted(context.resourceLoader!.load(uri, options), context.signal);
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason;
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(field, `resourceLoader.load(${JSON.stringify(uri)}) failed: ${reason}`, {
      cause: error,
      code: "resource_load_failed",
    });
  }
  const heading = (text: string): Message =>
    name === undefined ? resourceMessage(uri, text) : attachmentMessage(name, text);
  if (typeof loaded === "string") return heading(loaded);
  if (isObject(loaded)) {
    if (typeof loaded["text"] === "string") return heading(loaded["text"]);
    if (loaded["content"] !== undefined) {
      assertContent(loaded["content"], `${field} (loaded content)`);
      return contentMessage(loaded["content"]);
    }
  }
  throw new InvalidInputError(
    field,
    `resourceLoader.load(${JSON.stringify(uri)}) returned neither a string, { text } nor { content }.`,
    {
      code: "resource_load_failed",
    },
  );
}
