import type { JsonValue } from "../util/json.ts";

/** JSON-compatible data: what a tool call's arguments or a tool result may hold. */
export type { JsonValue };

export const ROLES = ["system", "user", "assistant", "tool"] as const;
export type Role = (typeof ROLES)[number];

/** Input modalities a model can declare in `capabilities.input`. */
export const MODALITIES = ["text", "image", "audio", "file", "document"] as const;
export type Modality = (typeof MODALITIES)[number];

/** Provider prompt-cache marker carried on a block (Anthropic `cache_control`). */
export interface CacheMarker {
  readonly type: "ephemeral";
  readonly ttl?: "5m" | "1h";
}

/**
 * Wire fields Strata does not model, kept verbatim so a parsed request converts back without
 * losing prompt bytes (Gemini `thoughtSignature`, Anthropic `citations`, OpenAI item ids, …).
 * Keyed by wire format (`anthropic`, `openai`, `openai-chat`, `openai-responses`, `gemini`);
 * a converter only writes the fields of its own format.
 */
export type ProviderFields = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

interface BlockBase {
  readonly cache?: CacheMarker;
  readonly providerFields?: ProviderFields;
}

export interface TextBlock extends BlockBase {
  readonly type: "text";
  readonly text: string;
}

/** Binary or referenced media: either inline base64 `data` or a `url` (one of them). */
interface MediaFields {
  readonly mimeType?: string;
  readonly data?: string;
  readonly url?: string;
}

export interface ImageBlock extends BlockBase, MediaFields {
  readonly type: "image";
}

export interface AudioBlock extends BlockBase, MediaFields {
  readonly type: "audio";
}

export interface FileBlock extends BlockBase, MediaFields {
  readonly type: "file";
  readonly name?: string;
}

export interface DocumentBlock extends BlockBase, MediaFields {
  readonly type: "document";
  readonly name?: string;
  /** Plain-text documents may carry their text instead of bytes. */
  readonly text?: string;
}

export interface ThinkingBlock extends BlockBase {
  readonly type: "thinking";
  readonly text: string;
  /** Provider signature that must be sent back unchanged (Anthropic). */
  readonly signature?: string;
  /** Redacted thinking: opaque provider data instead of text. */
  readonly redacted?: boolean;
}

export interface ToolCallBlock extends BlockBase {
  readonly type: "tool_call";
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonValue;
}

export interface ToolResultBlock extends BlockBase {
  readonly type: "tool_result";
  readonly toolCallId: string;
  readonly name: string;
  readonly result: JsonValue;
  readonly isError?: boolean;
}

/**
 * A block or item of a recognised wire format that Strata does not model (an Anthropic
 * `web_search_tool_result`, a Responses `computer_call`, a Gemini `executableCode` part, a Bedrock
 * `guardContent` block, or a type newer than Strata): kept verbatim, so it is segmented and counted
 * where it stands and its own format writes `value` back byte for byte. Other formats cannot write it.
 */
export interface OpaqueBlock extends BlockBase {
  readonly type: "opaque";
  /** The wire format it came from (`anthropic`, `openai-responses`, `gemini`, `bedrock-converse`, …). */
  readonly format: string;
  /** Its type on that wire: the `type` field, or the member key of a part without one (`executableCode`). */
  readonly wireType: string;
  /** The block or item exactly as received. */
  readonly value: JsonValue;
}

export type ContentBlock =
  | TextBlock
  | ImageBlock
  | AudioBlock
  | FileBlock
  | DocumentBlock
  | ThinkingBlock
  | ToolCallBlock
  | ToolResultBlock
  | OpaqueBlock;

export type ContentBlockType = ContentBlock["type"];

export const CONTENT_BLOCK_TYPES = [
  "text",
  "image",
  "audio",
  "file",
  "document",
  "thinking",
  "tool_call",
  "tool_result",
  "opaque",
] as const satisfies readonly ContentBlockType[];

export interface Message {
  readonly role: Role;
  readonly content: readonly ContentBlock[];
  /** Optional participant name (OpenAI `name`). */
  readonly name?: string;
  /** Host data that never reaches the wire. */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  /** Wire fields Strata does not model (see `ProviderFields`). */
  readonly providerFields?: ProviderFields;
}

/** What a model declares about itself; capability checks only apply to what is declared. */
export interface ModelCapabilities {
  /** `true` when the model takes tool schemas natively; anything else gets text tool declarations. */
  readonly tools?: boolean;
  /** Accepted input modalities. Undeclared means "not checked". */
  readonly input?: readonly Modality[];
}

export interface ModelRef {
  readonly provider: string;
  readonly model: string;
  readonly capabilities?: ModelCapabilities;
}
