import type { SourcedMessage } from "./sources.ts";
import type { InputGroups } from "./input-groups.ts";
import type { InputAssemblyLayout } from "./types.ts";
import { INPUT_ASSEMBLY_LAYOUTS } from "./types.ts";
import { InvalidInputError } from "../util/errors.ts";

/**
 * Spec 000's input orders, one branch over already-built groups (no sorting):
 *
 * | layout        | order                                                                                   |
 * | ------------- | --------------------------------------------------------------------------------------- |
 * | `legacy`      | instructions → summaries → history → current input → attachments/resources → tool results |
 * | `cache_aware` | instructions → attachments/resources → summaries → history → tool results → current input |
 */
export const LAYOUT_GROUP_ORDER = {
  legacy: ["instructions", "summaries", "history", "input", "attachments", "toolResults"],
  cache_aware: ["instructions", "attachments", "summaries", "history", "toolResults", "input"],
} as const satisfies Record<InputAssemblyLayout, readonly (keyof Omit<InputGroups, "tail">)[]>;

export function resolveInputLayout(value: unknown, field = "inputLayout"): InputAssemblyLayout {
  if (value === undefined) return "cache_aware";
  if (typeof value === "string" && (INPUT_ASSEMBLY_LAYOUTS as readonly string[]).includes(value))
    return value as InputAssemblyLayout;
  throw new InvalidInputError(field, `must be "legacy" or "cache_aware", got ${JSON.stringify(value) ?? "undefined"}.`);
}

/** Concatenates the groups in the layout's order. */
export function flattenInputGroups(groups: InputGroups, layout: InputAssemblyLayout): SourcedMessage[] {
  const out: SourcedMessage[] = [];
  for (const name of LAYOUT_GROUP_ORDER[layout]) {
    for (const item of groups[name]) out.push(item);
  }
  return out;
}
