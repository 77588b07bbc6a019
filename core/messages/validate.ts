/**
 * The one cheap shape check for messages and requests handed to Strata by a host: linear, no
 * zod, no deep walk of caller JSON (tool arguments, results, schemas). It guards the fields
 * Strata reads, so malformed input fails with an `InvalidInputError` whose `field` is the path
 * to the first bad value (`messages[3].content[1].type`) instead of a raw `TypeError` or a
 * silently wrong result. Each public entry point runs it once per call; internal stages trust
 * what an earlier stage checked.
 */
import { describeValue } from "../util/describe.ts";
import { InvalidInputError } from "../util/errors.ts";
import { isObject } from "../util/plain-object.ts";
import type { ProviderRequest, ToolDefinition } from "./request.ts";
import { CONTENT_BLOCK_TYPES, ROLES } from "./types.ts";
import type { ContentBlock, Message } from "./types.ts";

/** Throws `InvalidInputError`: `<field>: must be <expected>, got <what value is>.` */
function bad(field: string, expected: string, value: unknown): never {
  throw new InvalidInputError(field, `must be ${expected}, got ${describeValue(value, "brief")}.`);
}

export function expectString(value: unknown, field: string): string {
  return typeof value === "string" ? value : bad(field, "a string", value);
}

export function expectOptionalString(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : expectString(value, field);
}

export function expectArray(value: unknown, field: string): readonly unknown[] {
  return Array.isArray(value) ? value : bad(field, "an array", value);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `cache` (a cache marker) and `providerFields` (wire format → object of wire fields), both optional. */
function checkCommon(value: Record<string, unknown>, field: string): void {
  const cache = value["cache"];
  if (cache !== undefined && (!isObject(cache) || cache["type"] !== "ephemeral"))
    bad(`${field}.cache`, '{ type: "ephemeral", ttl?: "5m" | "1h" }', cache);
  const fields = value["providerFields"];
  if (fields === undefined) return;
  if (!isObject(fields)) bad(`${field}.providerFields`, "an object of wire format → fields", fields);
  for (const key of Object.keys(fields)) {
    if (!isObject(fields[key]))
      bad(
        `${field}.providerFields${IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`,
        "an object of wire fields",
        fields[key],
      );
  }
}

const MEDIA = ["mimeType", "data", "url"] as const;
/** Optional string fields per block type (required ones are checked in the switch). */
const OPTIONAL_STRINGS: Readonly<Record<ContentBlock["type"], readonly string[]>> = {
  text: [],
  thinking: ["signature"],
  tool_call: [],
  tool_result: [],
  opaque: [],
  image: MEDIA,
  audio: MEDIA,
  file: [...MEDIA, "name"],
  document: [...MEDIA, "name", "text"],
};

export function assertContentBlock(value: unknown, field: string): asserts value is ContentBlock {
  if (!isObject(value)) bad(field, "a content block object", value);
  const type = value["type"];
  if (typeof type !== "string" || !(CONTENT_BLOCK_TYPES as readonly string[]).includes(type)) {
    throw new InvalidInputError(
      `${field}.type`,
      `must be one of ${CONTENT_BLOCK_TYPES.join(", ")}; got ${JSON.stringify(type) ?? "undefined"}.`,
    );
  }
  switch (type) {
    case "text":
      expectString(value["text"], `${field}.text`);
      break;
    case "thinking":
      expectString(value["text"], `${field}.text`);
      if (value["redacted"] !== undefined && typeof value["redacted"] !== "boolean")
        bad(`${field}.redacted`, "true or false", value["redacted"]);
      break;
    case "tool_call":
      expectString(value["id"], `${field}.id`);
      expectString(value["name"], `${field}.name`);
      break;
    case "tool_result":
      expectString(value["toolCallId"], `${field}.toolCallId`);
      expectString(value["name"], `${field}.name`);
      if (value["isError"] !== undefined && typeof value["isError"] !== "boolean")
        bad(`${field}.isError`, "true or false", value["isError"]);
      break;
    case "opaque":
      expectString(value["format"], `${field}.format`);
      expectString(value["wireType"], `${field}.wireType`);
      if (value["value"] === undefined) bad(`${field}.value`, "the block as received (JSON data)", undefined);
      break;
    default:
      break;
  }
  for (const key of OPTIONAL_STRINGS[type as ContentBlock["type"]]) expectOptionalString(value[key], `${field}.${key}`);
  checkCommon(value, field);
}

export function assertContent(value: unknown, field: string): asserts value is readonly ContentBlock[] {
  const blocks = expectArray(value, field);
  for (let i = 0; i < blocks.length; i++) assertContentBlock(blocks[i], `${field}[${i}]`);
}

/**
 * A quick check of the common message shape: `text`, `tool_call` and `tool_result` blocks with
 * no cache marker or provider fields, no `metadata`. `true` guarantees `checkMessage` passes;
 * `false` only means "ask `checkMessage`", which checks everything and names the problem.
 * (Checking a long history is mostly waiting on memory: a loop this small lets the CPU fetch
 * several messages at once, and builds no field paths.)
 */
export function isPlainMessage(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  const role = m["role"];
  if (role !== "user" && role !== "assistant" && role !== "tool" && role !== "system") return false;
  const content = m["content"];
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) {
    const b: unknown = content[i];
    if (typeof b !== "object" || b === null || Array.isArray(b)) return false;
    const block = b as Record<string, unknown>;
    const type = block["type"];
    if (type === "text") {
      if (typeof block["text"] !== "string") return false;
    } else if (type === "tool_call") {
      if (typeof block["id"] !== "string" || typeof block["name"] !== "string") return false;
    } else if (type === "tool_result") {
      if (typeof block["toolCallId"] !== "string" || typeof block["name"] !== "string") return false;
      const isError = block["isError"];
      if (isError !== undefined && typeof isError !== "boolean") return false;
    } else return false;
    if (block["cache"] !== undefined || block["providerFields"] !== undefined) return false;
  }
  const name = m["name"];
  return (
    (name === undefined || typeof name === "string") &&
    m["metadata"] === undefined &&
    m["cache"] === undefined &&
    m["providerFields"] === undefined
  );
}

export function assertMessage(value: unknown, field: string): asserts value is Message {
  if (!isPlainMessage(value)) checkMessage(value, field);
}

/** The full check behind `assertMessage`: every field, and the path of the first bad one in the error. */
export function checkMessage(value: unknown, field: string): asserts value is Message {
  if (!isObject(value)) bad(field, "a message object ({ role, content })", value);
  const role = value["role"];
  if (typeof role !== "string" || !(ROLES as readonly string[]).includes(role)) {
    throw new InvalidInputError(
      `${field}.role`,
      `must be "system", "user", "assistant" or "tool"; got ${JSON.stringify(role) ?? "undefined"}.`,
    );
  }
  assertContent(value["content"], `${field}.content`);
  expectOptionalString(value["name"], `${field}.name`);
  if (value["metadata"] !== undefined && !isObject(value["metadata"]))
    bad(`${field}.metadata`, "an object", value["metadata"]);
  checkCommon(value, field);
}

export function assertMessages(value: unknown, field: string): asserts value is readonly Message[] {
  const list = expectArray(value, field);
  for (let i = 0; i < list.length; i++) if (!isPlainMessage(list[i])) checkMessage(list[i], `${field}[${i}]`);
}

/** Tool definitions: `{ name, description?, inputSchema?, cache?, providerFields? }`. */
export function assertToolDefinitions(value: unknown, field: string): asserts value is readonly ToolDefinition[] {
  const list = expectArray(value, field);
  for (let i = 0; i < list.length; i++) {
    const tool = list[i];
    const at = `${field}[${i}]`;
    if (!isObject(tool)) bad(at, "a tool definition { name, description?, inputSchema? }", tool);
    expectString(tool["name"], `${at}.name`);
    expectOptionalString(tool["description"], `${at}.description`);
    checkCommon(tool, at);
  }
}

/**
 * A `ProviderRequest` / `NormalizedRequest`: `model` ({ provider, model }), `messages`, `tools`
 * (use `[]` for none), optional `providerOptions` / `metadata` objects and `sessionId` / `cacheKey`
 * strings. `prefix` goes before every field name (`"previous."` → `previous.messages[0].role`);
 * without one, fields are named from the request's root (`messages[3].content[1].type`).
 */
export function assertProviderRequest(value: unknown, prefix = ""): asserts value is ProviderRequest {
  if (!isObject(value))
    bad(prefix === "" ? "request" : prefix.slice(0, -1), "a request object { model, messages, tools }", value);
  const model = value["model"];
  if (!isObject(model)) bad(`${prefix}model`, "{ provider: string, model: string }", model);
  expectString(model["provider"], `${prefix}model.provider`);
  expectString(model["model"], `${prefix}model.model`);
  assertMessages(value["messages"], `${prefix}messages`);
  if (!Array.isArray(value["tools"]))
    bad(`${prefix}tools`, "an array of tool definitions (use [] for none)", value["tools"]);
  assertToolDefinitions(value["tools"], `${prefix}tools`);
  for (const key of ["providerOptions", "metadata"])
    if (value[key] !== undefined && !isObject(value[key])) bad(prefix + key, "an object", value[key]);
  expectOptionalString(value["sessionId"], `${prefix}sessionId`);
  expectOptionalString(value["cacheKey"], `${prefix}cacheKey`);
}
