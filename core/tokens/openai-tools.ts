/**
 * OpenAI function definitions as the model reads them: not JSON Schema but TypeScript types in a
 * `functions` namespace, placed in the system message. OpenAI does not publish the renderer for
 * its API models; this follows the reimplementation that matches API-reported counts
 * (hmarr/openai-chat-tokens, validated against the live API; ported in gpt-tokenizer 4.0.0's
 * `functionCalling.ts`), and OpenAI's harmony format for gpt-oss (openai/harmony
 * docs/format.md) for the layout:
 *
 *   namespace functions {
 *
 *   // Get the weather
 *   type get_weather = (_: {
 *   // City name
 *   location: string,
 *   unit?: "celsius" | "fahrenheit",
 *   }) => any;
 *
 *   } // namespace functions
 *
 * Property descriptions are written at the top level only; `anyOf` members are joined with ` | `;
 * keywords other than type, enum, items, properties and required are not rendered.
 * Counting: tokens(text) + 9, minus 4 when the request has a system message (the definitions
 * share it), and that system message gets a trailing newline.
 */
import type { JsonValue } from "../messages/types.ts";

type Obj = { readonly [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Tokens added for the whole function block, on top of its text. */
export const FUNCTIONS_OVERHEAD = 9;
/** Tokens saved when a system message exists (the block joins it instead of opening a new one). */
export const FUNCTIONS_SYSTEM_SHARE = 4;

/** Most nesting levels rendered; deeper schemas render as `any` (keeps the walk bounded). */
const MAX_DEPTH = 64;

function typeOf(schema: JsonValue | undefined, indent: number, depth: number): string {
  if (!isObj(schema) || depth > MAX_DEPTH) return "any";
  const en = schema.enum;
  const anyOf = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(anyOf) && schema.type === undefined)
    return anyOf.map((s) => typeOf(s, indent, depth + 1)).join(" | ") || "any";
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return Array.isArray(en) ? en.map((v) => JSON.stringify(v)).join(" | ") : "string";
    case "integer":
    case "number":
      return Array.isArray(en) ? en.map((v) => String(v)).join(" | ") : "number";
    case "boolean":
    case "null":
      return type;
    case "array":
      return schema.items === undefined ? "any[]" : `${typeOf(schema.items, indent, depth + 1)}[]`;
    case "object": {
      const inner = propertiesText(schema, indent + 2, depth + 1);
      return `{\n${inner}\n${" ".repeat(indent)}}`;
    }
    default:
      return "any";
  }
}

function propertiesText(schema: Obj, indent: number, depth: number): string {
  const props = schema.properties;
  if (!isObj(props)) return "";
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    if (isObj(prop) && typeof prop.description === "string" && prop.description !== "" && indent < 2)
      lines.push(`${pad}// ${prop.description}`);
    lines.push(`${pad}${name}${required.has(name) ? "" : "?"}: ${typeOf(prop, indent, depth)},`);
  }
  return lines.join("\n");
}

/** One function's lines in the namespace, followed by the blank line that separates functions. */
export function renderFunction(
  name: string,
  description: string | undefined,
  parameters: JsonValue | undefined,
): string {
  const lines: string[] = [];
  if (description) lines.push(`// ${description}`);
  const props = isObj(parameters) && isObj(parameters.properties) ? parameters.properties : undefined;
  if (!props || Object.keys(props).length === 0) lines.push(`type ${name} = () => any;`);
  else {
    lines.push(`type ${name} = (_: {`);
    const body = propertiesText(parameters as Obj, 0, 0);
    if (body !== "") lines.push(body);
    lines.push("}) => any;");
  }
  lines.push("");
  return lines.join("\n");
}

export const NAMESPACE_OPEN = "namespace functions {\n\n";
export const NAMESPACE_CLOSE = "\n} // namespace functions";

/** The whole block: open, each function (each ends with a blank line), close. */
export function renderFunctions(rendered: readonly string[]): string {
  return `${NAMESPACE_OPEN}${rendered.join("\n")}${NAMESPACE_CLOSE}`;
}
