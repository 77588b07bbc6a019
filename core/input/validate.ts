import { InvalidInputError } from "../errors.ts";
import { isContentBlockType, isRole } from "../messages/index.ts";
import type { ContentBlock, Message } from "../messages/index.ts";

/**
 * Shape checks for host-supplied values. Each failure is an `InvalidInputError` whose
 * `field` is the path to the bad value (`history[3].content[0].text`). Checks are
 * shallow and linear: they guard the fields assembly reads, not every optional field.
 */

export const describeValue = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : `a ${typeof value}`;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function expectString(value: unknown, field: string): string {
  if (typeof value !== "string") throw new InvalidInputError(field, `must be a string, got ${describeValue(value)}.`);
  return value;
}

export function expectOptionalString(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : expectString(value, field);
}

export function expectArray(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new InvalidInputError(field, `must be an array, got ${describeValue(value)}.`);
  return value;
}

export function assertContentBlock(value: unknown, field: string): asserts value is ContentBlock {
  if (!isObject(value)) throw new InvalidInputError(field, `must be a content block object, got ${describeValue(value)}.`);
  const type = value["type"];
  if (!isContentBlockType(type)) {
    throw new InvalidInputError(
      `${field}.type`,
      `must be one of text, image, audio, file, document, thinking, tool_call, tool_result; got ${JSON.stringify(type) ?? "undefined"}.`,
    );
  }
  switch (type) {
    case "text":
    case "thinking":
      expectString(value["text"], `${field}.text`);
      return;
    case "tool_call":
      expectString(value["id"], `${field}.id`);
      expectString(value["name"], `${field}.name`);
      return;
    case "tool_result":
      expectString(value["toolCallId"], `${field}.toolCallId`);
      expectString(value["name"], `${field}.name`);
      return;
    default:
      return;
  }
}

export function assertContent(value: unknown, field: string): asserts value is readonly ContentBlock[] {
  const blocks = expectArray(value, field);
  for (let i = 0; i < blocks.length; i++) assertContentBlock(blocks[i], `${field}[${i}]`);
}

export function assertMessage(value: unknown, field: string): asserts value is Message {
  if (!isObject(value)) throw new InvalidInputError(field, `must be a message object ({ role, content }), got ${describeValue(value)}.`);
  if (!isRole(value["role"])) {
    throw new InvalidInputError(`${field}.role`, `must be "system", "user", "assistant" or "tool"; got ${JSON.stringify(value["role"]) ?? "undefined"}.`);
  }
  assertContent(value["content"], `${field}.content`);
}

export function assertMessages(value: unknown, field: string): asserts value is readonly Message[] {
  const list = expectArray(value, field);
  for (let i = 0; i < list.length; i++) assertMessage(list[i], `${field}[${i}]`);
}
