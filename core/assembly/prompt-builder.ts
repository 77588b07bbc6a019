import { InvalidInputError } from "../util/errors.ts";
import { resolveInputLayout } from "./layouts.ts";
import type { Message } from "../messages/index.ts";
import {
  contextBlockMessage,
  needsTextToolDeclarations,
  skillMessage,
  toolDeclarationsMessage,
} from "./prompt-shapes.ts";
import type { PromptSource, SourcedMessage } from "./sources.ts";
import type { DefaultPromptBuilder, PromptBuildRequest } from "./types.ts";
import { assertContextBlocks, assertSkills, assertTools } from "./prompt-validate.ts";

/** Marks builders whose composition `assembleProviderInput` may run with provenance. */
export const DEFAULT_PROMPT_BUILDER: unique symbol = Symbol("strata.defaultPromptBuilder");

/** Labels a message the builder passes through; the default is `custom` (unknown origin). */
export type SourceLookup = (message: Message) => SourcedMessage;

const unknownSource: SourceLookup = (message) => ({ message, source: "custom" });

/**
 * The one composition path, with provenance. Order:
 * - `cache_aware` (default): leading instructions → context blocks → skills → text tool
 *   declarations → the remaining messages (which end with the session tail).
 * - `legacy`: context blocks → skills → text tool declarations → all messages.
 * Linear in what was supplied; nothing is sorted.
 */
export function composePrompt(request: PromptBuildRequest, lookup: SourceLookup = unknownSource): SourcedMessage[] {
  const { messages, lead, inserted } = composition(request);
  const out: SourcedMessage[] = new Array(messages.length + inserted.length);
  let n = 0;
  for (let i = 0; i < lead; i++) out[n++] = lookup(messages[i]!);
  for (const item of inserted) out[n++] = item;
  for (let i = lead; i < messages.length; i++) out[n++] = lookup(messages[i]!);
  return out;
}

/** How `composePrompt` places things: `messages[0..lead)`, then `inserted`, then `messages[lead..)`. */
export interface Composition {
  readonly messages: readonly Message[];
  readonly lead: number;
  readonly inserted: readonly SourcedMessage[];
}

/** Checks the request and works out the composition, without labeling its messages. */
export function composition(request: PromptBuildRequest): Composition {
  if (typeof request !== "object" || request === null)
    throw new InvalidInputError("request", "must be a prompt build request { messages, … }.");
  const layout = resolveInputLayout(request.inputLayout, "request.inputLayout");
  if (!Array.isArray(request.messages))
    throw new InvalidInputError("request.messages", "must be an array of messages.");
  const messages: readonly Message[] = request.messages;
  const context = request.context ?? [];
  const skills = request.skills ?? [];
  const tools = request.tools ?? [];
  assertContextBlocks(context, "request.context");
  assertSkills(skills, "request.skills");
  assertTools(tools, "request.tools");

  const inserted: SourcedMessage[] = [];
  for (let i = 0; i < context.length; i++) {
    const block = context[i]!;
    const source: PromptSource = `context:${block.id ?? block.title ?? String(i)}`;
    inserted.push({ message: contextBlockMessage(block), source });
  }
  const bodiesInTail = request.tailSkillBodies === true;
  for (const skill of skills)
    inserted.push({ message: skillMessage(skill, bodiesInTail), source: `skill:${skill.name}` });
  if (needsTextToolDeclarations(tools, request.model?.capabilities?.tools)) {
    inserted.push({ message: toolDeclarationsMessage(tools), source: "tools" });
  }

  const lead = layout === "legacy" ? 0 : leadingCount(messages, request.instructionCount);
  return { messages, lead, inserted };
}

function leadingCount(messages: readonly Message[], instructionCount: number | undefined): number {
  if (instructionCount !== undefined) {
    if (!Number.isSafeInteger(instructionCount) || instructionCount < 0 || instructionCount > messages.length) {
      throw new InvalidInputError(
        "request.instructionCount",
        `must be an integer from 0 to messages.length (${messages.length}), got ${instructionCount}.`,
      );
    }
    return instructionCount;
  }
  let n = 0;
  while (n < messages.length && messages[n]!.role === "system") n++;
  return n;
}

/**
 * The default prompt builder: context blocks, selected skills (catalog rows; bodies in place
 * unless `tailSkillBodies`), text tool declarations for models without declared tool support,
 * then the input messages, honoring `inputLayout` (`cache_aware` by default).
 */
export function createDefaultPromptBuilder(): DefaultPromptBuilder {
  return {
    name: "default-prompt",
    [DEFAULT_PROMPT_BUILDER]: true,
    async build(request: PromptBuildRequest): Promise<readonly Message[]> {
      return composePrompt(request).map((item) => item.message);
    },
  } as DefaultPromptBuilder;
}

export function isDefaultPromptBuilder(builder: unknown): boolean {
  return (
    typeof builder === "object" &&
    builder !== null &&
    (builder as Record<symbol, unknown>)[DEFAULT_PROMPT_BUILDER] === true
  );
}
