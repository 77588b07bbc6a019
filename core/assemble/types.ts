import type { ContextBudget } from "../budget/context-types.ts";
import type { AgentInput, DefaultInputBuildContext, InputBuilder } from "../input/types.ts";
import type { JsonValue, ModelRef, ToolDefinition } from "../messages/index.ts";
import type { ContextProvider, PromptBuilder, Skill, TailSegments } from "../prompt/types.ts";

/** Every input-builder context field is also a top-level option here. */
export interface AssembleProviderInputOptions extends DefaultInputBuildContext {
  readonly model: ModelRef;
  readonly input: AgentInput;
  readonly inputBuilder?: InputBuilder;
  readonly promptBuilder?: PromptBuilder;
  /** Resolved one after another, in this order. */
  readonly contextProviders?: readonly ContextProvider[];
  /** Skills the host selected; Strata does not select skills. */
  readonly skills?: readonly Skill[];
  /** The host's active tools; `request.tools` is always exactly this list. */
  readonly tools?: readonly ToolDefinition[];
  readonly providerOptions?: Readonly<Record<string, JsonValue>>;
  /** Stamped on the request when missing; defaults to `sessionId`. */
  readonly cacheKey?: string;
  /**
   * Run-owned tail. When given, URI resources (`resource:<uri>`) and loaded skill bodies
   * (`skill:<name>`) are written into it and every segment in it is appended after the input,
   * in the map's order. The map is mutated on purpose: it persists across turns.
   */
  readonly tailSegments?: TailSegments;
  readonly contextBudget?: ContextBudget;
}
