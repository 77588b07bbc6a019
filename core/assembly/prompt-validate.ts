import { InvalidInputError } from "../util/errors.ts";
import { assertContent, expectArray, expectOptionalString, expectString } from "../messages/validate.ts";
import { describeValue } from "../util/describe.ts";
import { isObject } from "../util/plain-object.ts";
import type { ContextBlock, Skill } from "./types.ts";

export function assertContextBlocks(value: unknown, field: string): asserts value is readonly ContextBlock[] {
  const list = expectArray(value, field);
  for (let i = 0; i < list.length; i++) {
    const block = list[i];
    const at = `${field}[${i}]`;
    if (!isObject(block))
      throw new InvalidInputError(
        at,
        `must be a context block { id?, title?, content }, got ${describeValue(block, "brief")}.`,
      );
    expectOptionalString(block["id"], `${at}.id`);
    expectOptionalString(block["title"], `${at}.title`);
    if (typeof block["content"] !== "string") assertContent(block["content"], `${at}.content`);
  }
}

export function assertSkills(value: unknown, field: string): asserts value is readonly Skill[] {
  const list = expectArray(value, field);
  for (let i = 0; i < list.length; i++) {
    const skill = list[i];
    const at = `${field}[${i}]`;
    if (!isObject(skill))
      throw new InvalidInputError(
        at,
        `must be a skill { name, description?, instructions? }, got ${describeValue(skill, "brief")}.`,
      );
    expectString(skill["name"], `${at}.name`);
    expectOptionalString(skill["description"], `${at}.description`);
    expectOptionalString(skill["instructions"], `${at}.instructions`);
  }
}

/** Tool definitions `{ name, description?, inputSchema? }` (the shared check in messages/validate.ts). */
export { assertToolDefinitions as assertTools } from "../messages/validate.ts";
