import type { InputAssemblyLayout } from "../input/types.ts";
import type { ContentBlock, JsonValue, Message, ModelRef, ToolDefinition } from "../messages/index.ts";

/** A block of resolved context. Rendered as one system message (see `contextBlockMessage`). */
export interface ContextBlock {
  /** Stable id, used in provenance (`context:<id>`) and budget reports. */
  readonly id?: string;
  /** Heading shown to the model: `Context <title>:`. */
  readonly title?: string;
  readonly content: string | readonly ContentBlock[];
}

/** What a context provider sees: the assembled input messages and the run's ids. */
export interface ContextResolutionContext {
  readonly messages: readonly Message[];
  readonly sessionId?: string;
  readonly runId?: string;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
}

/** Host-supplied context source; providers are resolved one after another, in the order given. */
export interface ContextProvider {
  readonly name: string;
  resolve(context: ContextResolutionContext): Promise<readonly ContextBlock[]> | readonly ContextBlock[];
}

/** A skill selected by the host. `instructions` is its loaded body; without it only the catalog row is shown. */
export interface Skill {
  readonly name: string;
  readonly description?: string;
  readonly instructions?: string;
}

/**
 * A run-owned, mutable map of tail segments (`resource:<uri>` / `skill:<name>` → message).
 * JavaScript `Map` semantics give the spec's rule for free: the first `set` of an id fixes
 * its position, a later `set` of the same id replaces only its bytes.
 */
export type TailSegments = Map<string, Message>;

/** What a prompt builder composes. `messages` already end with the session tail, if any. */
export interface PromptBuildRequest {
  readonly messages: readonly Message[];
  readonly inputLayout?: InputAssemblyLayout;
  readonly context?: readonly ContextBlock[];
  readonly skills?: readonly Skill[];
  readonly tools?: readonly ToolDefinition[];
  readonly model?: ModelRef;
  /** Loaded skill bodies are already in the tail of `messages`: render catalog rows only. */
  readonly tailSkillBodies?: boolean;
  /**
   * How many leading `messages` are instructions (the cache-aware stable boundary).
   * Default: the leading run of `system` messages.
   */
  readonly instructionCount?: number;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
}

export interface PromptBuilder {
  readonly name: string;
  build(request: PromptBuildRequest): Promise<readonly Message[]> | readonly Message[];
}

export interface DefaultPromptBuilder extends PromptBuilder {
  build(request: PromptBuildRequest): Promise<readonly Message[]>;
}
