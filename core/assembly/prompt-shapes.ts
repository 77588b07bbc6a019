import { textBlock, textMessage } from "../messages/index.ts";
import type { Message, ToolDefinition } from "../messages/index.ts";
import { jsonForPrompt } from "../templates/prompt-template.ts";
import type { ContextBlock, Skill } from "./types.ts";

/**
 * The exact text shapes the default prompt builder emits (all `system` messages):
 *
 * | part                          | text                                                          |
 * | ----------------------------- | ------------------------------------------------------------- |
 * | context block, string content | `Context <title>:\n<content>` (`Context:\n<content>` untitled) |
 * | context block, content blocks | a `Context <title>:` text block, then the blocks unchanged    |
 * | skill catalog row             | `Skill <name>: <description>` (`Skill <name>` without one)    |
 * | skill with body, in place     | `<catalog row>\n<instructions>`                               |
 * | skill body in the tail        | `Skill <name> instructions:\n<instructions>`                  |
 * | text tool declarations        | `Available tools:` then one `- <name>: <description>` line    |
 * |                               | per tool (`- <name>` without one), each followed by           |
 * |                               | `  Input schema: <JSON, keys sorted>` when it has a schema     |
 *
 * The title falls back to the block's `id`.
 */
export function contextBlockMessage(block: ContextBlock): Message {
  const label = block.title ?? block.id;
  const heading = label === undefined ? "Context" : `Context ${label}`;
  if (typeof block.content === "string") return textMessage("system", `${heading}:\n${block.content}`);
  return { role: "system", content: [textBlock(`${heading}:`), ...block.content] };
}

export const skillCatalogRow = (skill: Skill): string =>
  skill.description === undefined ? `Skill ${skill.name}` : `Skill ${skill.name}: ${skill.description}`;

/** The in-place skill message: its catalog row, plus its body unless the body lives in the tail. */
export function skillMessage(skill: Skill, bodyInTail: boolean): Message {
  const row = skillCatalogRow(skill);
  return textMessage("system", bodyInTail || skill.instructions === undefined ? row : `${row}\n${skill.instructions}`);
}

/** A loaded skill body as a tail segment (`skill:<name>`). */
export const skillBodyMessage = (skill: Skill & { readonly instructions: string }): Message =>
  textMessage("system", `Skill ${skill.name} instructions:\n${skill.instructions}`);

export function toolDeclarationsText(tools: readonly ToolDefinition[]): string {
  let text = "Available tools:";
  for (const tool of tools) {
    text += tool.description === undefined ? `\n- ${tool.name}` : `\n- ${tool.name}: ${tool.description}`;
    if (tool.inputSchema !== undefined)
      text += `\n  Input schema: ${jsonForPrompt(tool.inputSchema, `tools.${tool.name}.inputSchema`)}`;
  }
  return text;
}

export const toolDeclarationsMessage = (tools: readonly ToolDefinition[]): Message =>
  textMessage("system", toolDeclarationsText(tools));

/** Text declarations are a fallback: only for models that do not declare `capabilities.tools === true`. */
export const needsTextToolDeclarations = (
  tools: readonly ToolDefinition[] | undefined,
  toolsCapability: boolean | undefined,
): boolean => tools !== undefined && tools.length > 0 && toolsCapability !== true;
