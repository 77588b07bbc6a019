/**
 * What OpenAI Chat Completions and OpenAI Responses share: text, refusal and audio content
 * parts, the `developer` role (a system message marked `providerFields.openai.role`) and
 * function tool fields. `key` is the converter's own `providerFields` key.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { ContentBlock, JsonValue, Message, ProviderFields } from "../messages/types.ts";
import type { ToolDefinition } from "../messages/request.ts";
import {
  compact,
  extraFields,
  fieldsFor,
  type JsonObject,
  mediaSource,
  omitKeys,
  providerFieldsOf,
  withExtras,
  withOptional,
} from "./convert-util.ts";

type TextPartIn = { readonly type: string; readonly text: string };
type RefusalPartIn = { readonly type: "refusal"; readonly refusal: string };
type AudioPartIn = {
  readonly type: "input_audio";
  readonly input_audio: { readonly format: string; readonly data: string };
};

/** A wire text part (`text`, `input_text`, `output_text`) → text block; its extra fields are kept. */
export function textFromPart(key: string, p: TextPartIn): ContentBlock {
  return withOptional({ type: "text", text: p.text } as ContentBlock, {
    providerFields: providerFieldsOf(key, extraFields(p, ["type", "text"])),
  });
}

/** A `refusal` part → text block marked `part: "refusal"`, so it goes back out as a refusal. */
export function refusalFromPart(key: string, p: RefusalPartIn): ContentBlock {
  return {
    type: "text",
    text: p.refusal,
    providerFields: { [key]: { part: "refusal", ...extraFields(p, ["type", "refusal"]) } },
  };
}

/** An `input_audio` part → audio block (`audio/<format>`, base64 data). */
export function audioFromPart(key: string, p: AudioPartIn): ContentBlock {
  return withOptional(
    { type: "audio", mimeType: `audio/${p.input_audio.format}`, data: p.input_audio.data } as ContentBlock,
    {
      providerFields: providerFieldsOf(key, extraFields(p, ["type", "input_audio"])),
    },
  );
}

/** A text block → a refusal part when it came from one, else a text part of `type`. */
export function textToPart(text: string, extras: JsonObject, type: string): JsonObject {
  if (extras.part === "refusal") return compact({ type: "refusal", refusal: text, ...omitKeys(extras, ["part"]) });
  return withExtras({ type, text }, extras);
}

/** An audio block → `input_audio` part; `wire` names the format in the error (inline base64 only). */
export function audioToPart(
  block: ContentBlock & { readonly type: "audio" },
  extras: JsonObject,
  path: string,
  wire: string,
): JsonObject {
  const m = mediaSource(block);
  if (!m || m.kind !== "data") throw new InvalidInputError(path, `${wire} takes audio only as inline base64 data`);
  return withExtras(
    { type: "input_audio", input_audio: { data: m.data, format: m.mimeType.replace(/^audio\//, "") } },
    extras,
  );
}

/** Inline media as a `data:` URL, a URL as itself. */
export function mediaUrl(m: NonNullable<ReturnType<typeof mediaSource>>): string {
  return m.kind === "url" ? m.url : `data:${m.mimeType};base64,${m.data}`;
}

/** A wire role → Strata role (`developer` is a system message). */
export const roleFromWire = <R extends string>(role: R): Exclude<R, "developer"> | "system" =>
  role === "developer" ? "system" : (role as Exclude<R, "developer">);

/** The wire role of a message: `developer` for a system message that came in as one. */
export const roleToWire = (m: Message): string =>
  m.role === "system" && fieldsFor(m, "openai").role === "developer" ? "developer" : m.role;

/** A message's provider fields: its wire extras under `key`, plus the `developer` marker. */
export function messageFieldsFrom(
  key: string,
  extras: JsonObject | undefined,
  wireRole: string,
): ProviderFields | undefined {
  const own = extras !== undefined && Object.keys(extras).length > 0;
  if (!own && wireRole !== "developer") return undefined;
  const fields: Record<string, JsonObject> = {};
  if (own) fields[key] = extras;
  if (wireRole === "developer") fields.openai = { role: "developer" };
  return fields;
}

/** A function tool's `name`, `description`, `parameters` and extra wire fields, in that order. */
export function functionFields(t: ToolDefinition): JsonObject {
  return compact({ name: t.name, description: t.description, parameters: t.inputSchema, ...fieldsFor(t, "openai") });
}

/** Wire function tool fields → tool definition; extras live under `providerFields.openai` (shared by both wires). */
export function toolFromFunction(
  name: string,
  description: string | undefined,
  parameters: unknown,
  extras: JsonObject | undefined,
): ToolDefinition {
  return withOptional({ name } as ToolDefinition, {
    description,
    inputSchema: parameters as JsonValue | undefined,
    providerFields: providerFieldsOf("openai", extras),
  });
}
