/**
 * The JSON text of each piece of a request, as segmentation writes it (see `segmentRequest`): a
 * tool, a message header's fields, a block, the tool choice. Strata's own fields in a fixed key
 * order; caller JSON keeps its own. A record that keeps no text (`SegmentRecord`) writes its JSON
 * here again when read, so both ways give the very same text.
 */
import { InvalidInputError } from "../util/errors.ts";
import { escapedExtra, jsonBytes } from "../util/json-size.ts";
import { utf8Length } from "../util/utf8.ts";
import { canonicalJson, writeCanonicalJsonUtf8, writeJsonUtf8 } from "../util/canonical.ts";
import { hashWritten } from "../util/hash.ts";
import { contentPath, messagePath } from "../util/paths.ts";
import type { ToolDefinition } from "../messages/request.ts";
import type { ContentBlock } from "../messages/types.ts";
import type { SegmentKind } from "./types.ts";

/** `item` of a `tool_choice` segment that is Gemini's `toolConfig`. */
export const GEMINI_CHOICE = 1;

/** The path of a segment (see `SegmentRecord` for `item`). */
export function segmentPath(kind: SegmentKind, messageIndex: number | null, item: number): string {
  switch (kind) {
    case "tool":
      return `tools[${item}]`;
    case "tool_choice":
      return `providerOptions.${item === GEMINI_CHOICE ? "toolConfig" : "tool_choice"}`;
    case "message":
      return messagePath(messageIndex!);
    default:
      return contentPath(messageIndex!, item);
  }
}

/** How a plain text block's JSON starts (`plainTextJson`). */
export const TEXT_BLOCK_HEAD = '{"type":"text","text":';

/**
 * The JSON of a plain text block — a text block with no provider fields — from its text: what
 * `JSON.stringify` writes for `{ type: "text", text }`. Segmentation keeps such a block's text
 * instead (see `SegmentRecord`): most segments of a long request are plain texts that are only
 * measured and compared, and writing their JSON was a third of segmenting.
 */
export const plainTextJson = (text: string): string => `${TEXT_BLOCK_HEAD}${JSON.stringify(text)}}`;

/**
 * `utf8Length(plainTextJson(text))` without writing the JSON: the text's UTF-8 length, one more
 * byte for each `"`, `\`, newline, carriage return and tab (each written as two characters), and
 * the 25 ASCII bytes around it. A text with another control character or a lone surrogate (written
 * as `\u` escapes) is measured on its JSON.
 */
export function plainTextBytes(text: string, extra = escapedExtra(text)): number {
  return extra < 0 ? utf8Length(plainTextJson(text)) : TEXT_BLOCK_HEAD.length + 3 + utf8Length(text) + extra;
}

/** `plainTextJson(text).length` without writing the JSON (see `plainTextBytes`; `extra` is `escapedExtra(text)`). */
export function plainTextChars(text: string, extra = escapedExtra(text)): number {
  return extra < 0 ? plainTextJson(text).length : TEXT_BLOCK_HEAD.length + 3 + text.length + extra;
}

/**
 * `JSON.stringify(value)`, or a typed error naming the segment's path when caller JSON makes it
 * throw (a cycle, a BigInt, nesting deeper than the engine's stack). The error is the one
 * `canonicalJson` gives for the same value, so it is the same in every runtime whatever each
 * engine's stack depth. (The path is written only then: most segments never need it.)
 */
export function serialize(value: object, kind: SegmentKind, messageIndex: number | null, item: number): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    const path = kind === "tool_choice" ? "providerOptions" : segmentPath(kind, messageIndex, item);
    canonicalJson(value, { path });
    throw new InvalidInputError(
      path,
      `cannot be serialized as JSON (${e instanceof Error ? e.message : String(e)}): send plain JSON data.`,
      { cause: e },
    );
  }
}

export const toolJson = (t: ToolDefinition, i: number) =>
  serialize(
    { name: t.name, description: t.description, inputSchema: t.inputSchema, providerFields: t.providerFields },
    "tool",
    null,
    i,
  );

/**
 * A text block whose JSON `plainTextJson` writes from its text (no provider fields, a string
 * text). `JSON.stringify` asks only objects and BigInts for a `toJSON`, never a primitive string
 * (not even through `String.prototype`), so such a block's JSON is its text's.
 */
export const isPlainText = (b: ContentBlock): boolean =>
  b.type === "text" && b.providerFields === undefined && typeof b.text === "string";

/**
 * The object `blockJson` serializes for a block other than a plain text: Strata's fields in their
 * fixed order (an opaque block's as received).
 */
function blockValue(b: ContentBlock): object {
  const pf = b.providerFields;
  switch (b.type) {
    case "text":
      return { type: b.type, text: b.text, providerFields: pf };
    case "thinking":
      return { type: b.type, text: b.text, signature: b.signature, redacted: b.redacted, providerFields: pf };
    case "tool_call":
      return { type: b.type, id: b.id, name: b.name, arguments: b.arguments, providerFields: pf };
    case "tool_result":
      return {
        type: b.type,
        toolCallId: b.toolCallId,
        name: b.name,
        result: b.result,
        isError: b.isError,
        providerFields: pf,
      };
    case "document":
      return {
        type: b.type,
        name: b.name,
        mimeType: b.mimeType,
        text: b.text,
        data: b.data,
        url: b.url,
        providerFields: pf,
      };
    case "file":
      return { type: b.type, name: b.name, mimeType: b.mimeType, data: b.data, url: b.url, providerFields: pf };
    case "opaque":
      // The block as received, in its own key order: its bytes are what the provider reads.
      return { type: b.type, format: b.format, wireType: b.wireType, value: b.value, providerFields: pf };
    default:
      return { type: b.type, mimeType: b.mimeType, data: b.data, url: b.url, providerFields: pf };
  }
}

/** The JSON text of block `j` of message `i`, as segmentation writes it. */
export function blockJson(b: ContentBlock, i: number, j: number): string {
  // The most common block, a plain text, is written as `serialize` would write it without its object.
  return isPlainText(b) ? plainTextJson((b as { text: string }).text) : serialize(blockValue(b), "block", i, j);
}

/**
 * `utf8Length(blockJson(b, i, j))` without writing the JSON when the block is plain JSON data
 * (`jsonBytes`): a long request's tool calls and results are measured, not written. Anything
 * else is written (so any error is `blockJson`'s, naming the block's path) and measured.
 */
export function blockJsonBytes(b: ContentBlock, i: number, j: number): number {
  if (isPlainText(b)) return plainTextBytes((b as { text: string }).text);
  const value = blockValue(b);
  const bytes = jsonBytes(value);
  return bytes >= 0 ? bytes : utf8Length(serialize(value, "block", i, j));
}

/**
 * The SHA-256 of `blockJson(b, i, j)` — or, `canonical`, of its canonical JSON — for a block other
 * than a plain text, its bytes written straight into the hash (`writeJsonUtf8`): no JSON string is
 * made, nor parsed back to be written in canonical order. Undefined when the block is not plain
 * JSON data or its JSON is too long for the scratch buffer: hash its text then (`blockJson`),
 * which also throws what writing it throws.
 */
export function blockJsonSha256(b: ContentBlock, canonical: boolean): string | undefined {
  const value = blockValue(b);
  return hashWritten((out) => (canonical ? writeCanonicalJsonUtf8(value, out, 0) : writeJsonUtf8(value, out, 0)));
}
