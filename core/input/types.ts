import type { MiddlewareRegistry } from "../assemble/middleware.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/index.ts";

/** What a host hands to an input builder: a user string, one message, or messages kept as given. */
export type AgentInput = string | Message | readonly Message[];

/** The two input orders of spec 000. `cache_aware` is the default. */
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
