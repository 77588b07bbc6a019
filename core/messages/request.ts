import type { CacheMarker, JsonValue, Message, ModelRef, ProviderFields } from "./types.ts";

/** A tool the host makes available: a name, a description and a JSON Schema for its input. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the tool's arguments. */
  readonly inputSchema?: JsonValue;
  /** Provider prompt-cache marker on the tool (Anthropic `cache_control` on a tool definition). */
  readonly cache?: CacheMarker;
  /** Wire fields Strata does not model (see `ProviderFields`), e.g. an Anthropic server tool's `type`. */
  readonly providerFields?: ProviderFields;
}

/**
 * What assembly produces and what providers receive, in Strata's normalized form.
 * Wire converters (`toOpenAIChat`, `toAnthropic`, …) serialize it.
 */
export interface ProviderRequest {
  readonly model: ModelRef;
  readonly messages: readonly Message[];
  /** Always the host-supplied active tool list; prompt middleware cannot add tools. */
  readonly tools: readonly ToolDefinition[];
  readonly providerOptions?: Readonly<Record<string, JsonValue>>;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
  readonly sessionId?: string;
  readonly cacheKey?: string;
}
