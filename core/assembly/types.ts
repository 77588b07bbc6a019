/**
 * The shapes of assembly: what the host supplies (input, instructions, attachments, resources,
 * tool results), what the prompt builder works with (context blocks, skills, tail segments),
 * the middleware hooks, and the options of `assembleProviderInput`.
 */
import type { ContextBudget } from "./context-types.ts";
import type { ContentBlock, JsonValue, Message, ModelRef, ToolDefinition } from "../messages/index.ts";

/** What a host hands to an input builder: a user string, one message, or messages kept as given. */
export type AgentInput = string | Message | readonly Message[];

/** The two input orders: `legacy` keeps the historical order; `cache_aware` (the default) puts stable parts first. */
export const INPUT_ASSEMBLY_LAYOUTS = ["legacy", "cache_aware"] as const;
export type InputAssemblyLayout = (typeof INPUT_ASSEMBLY_LAYOUTS)[number];
export const DEFAULT_INPUT_LAYOUT: InputAssemblyLayout = "cache_aware";

/** A labeled instruction. The label replaces the default heading: `"<label>:\n<text>"`. */
export interface PromptInstruction {
  readonly text: string;
  readonly label?: string;
}

/** Instructions as one string, or a list of strings and labeled instructions (one system message each). */
export type InstructionsInput = string | readonly (string | PromptInstruction)[];

/** A compacted summary. `id` is reported in budget omissions; it never reaches the prompt text. */
export interface SummaryInput {
  readonly text: string;
  readonly id?: string;
}

/**
 * One attachment: already-loaded `text`, already-built `content` blocks (passed through
 * unchanged, e.g. `audio`/`file`/`document`/`image`), or a `uri` loaded through the
 * context's `resourceLoader`. Exactly one of `text`, `content`, `uri` is used, in that order.
 */
export interface InputAttachment {
  readonly name?: string;
  readonly text?: string;
  readonly content?: readonly ContentBlock[];
  readonly uri?: string;
}

/** What a `ResourceLoader` returns: text, content blocks, or a bare string (text). */
export type LoadedResource =
  | string
  | { readonly uri?: string; readonly text?: string; readonly content?: readonly ContentBlock[] };

/** Host-owned resource access. Strata never reads files or the network itself. */
export interface ResourceLoader {
  load(
    uri: string,
    options: { readonly signal?: AbortSignal; readonly metadata?: Readonly<Record<string, JsonValue>> },
  ): Promise<LoadedResource> | LoadedResource;
}

/** Error info on a tool result: a message string or `{ message, code? }`. */
export type ToolResultError = string | { readonly message: string; readonly code?: string };

/** A dispatched tool's outcome, fed to the next provider turn as a `tool` message. */
export interface ToolResultInput {
  readonly toolCallId: string;
  readonly name: string;
  readonly value?: JsonValue;
  readonly content?: readonly ContentBlock[];
  readonly error?: ToolResultError;
}

/** Fields every input builder receives. */
export interface InputBuildContext {
  readonly inputLayout?: InputAssemblyLayout;
  readonly sessionId?: string;
  readonly runId?: string;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
}

/** The default builder's context: everything a host may add around the current input. */
export interface DefaultInputBuildContext extends InputBuildContext {
  readonly systemInstructions?: InstructionsInput;
  readonly developerInstructions?: InstructionsInput;
  readonly history?: readonly Message[];
  readonly summaries?: string | readonly (string | SummaryInput)[];
  readonly attachments?: readonly InputAttachment[];
  readonly resourceUris?: readonly string[];
  readonly resourceLoader?: ResourceLoader;
  readonly toolResults?: readonly ToolResultInput[];
  /** Carried for `assembleProviderInput`; input builders never run middleware themselves. */
  readonly middleware?: MiddlewareRegistry;
}

/** Turns host input into messages. Custom builders replace the default one. */
export interface InputBuilder {
  readonly name: string;
  build(input: AgentInput, context?: DefaultInputBuildContext): Promise<readonly Message[]> | readonly Message[];
}

export interface DefaultInputBuilder extends InputBuilder {
  build(input: AgentInput, context?: DefaultInputBuildContext): Promise<readonly Message[]>;
}

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

// ── middleware ──

/** The assembly hooks, in the order `assembleProviderInput` runs them. */
export const MIDDLEWARE_HOOKS = ["input_assembly", "context", "prompt_build"] as const;
export type MiddlewareHook = (typeof MIDDLEWARE_HOOKS)[number];

/** What each hook receives and must return. */
export interface MiddlewarePayloads {
  readonly input_assembly: readonly Message[];
  readonly context: readonly ContextBlock[];
  readonly prompt_build: PromptBuildRequest;
}

export interface MiddlewareContext {
  readonly sessionId?: string;
  readonly runId?: string;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
}

export type Middleware<H extends MiddlewareHook> = (
  payload: MiddlewarePayloads[H],
  context: MiddlewareContext,
) => MiddlewarePayloads[H] | Promise<MiddlewarePayloads[H]>;

/**
 * An ordered list of functions per hook. Not global: it runs only for calls that are given it.
 * Each function receives the previous one's result; `run` returns the last result.
 */
export interface MiddlewareRegistry {
  use<H extends MiddlewareHook>(hook: H, fn: Middleware<H>): MiddlewareRegistry;
  run<H extends MiddlewareHook>(
    hook: H,
    payload: MiddlewarePayloads[H],
    context?: MiddlewareContext,
  ): Promise<MiddlewarePayloads[H]>;
  /** How many functions are registered for `hook`. */
  count(hook: MiddlewareHook): number;
}

// ── assembleProviderInput ──

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
