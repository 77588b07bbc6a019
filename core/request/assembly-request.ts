/**
 * `AssemblyRequest`: Strata's own request format — the JSON-able options of
 * `assembleProviderInput`, plus tier `sections` (composed into a system instruction) and a
 * `template` block (rendered with the Jinja-style renderer). Functions have JSON stand-ins:
 * `resources` for a `resourceLoader`, `context` for `contextProviders`, an ordered
 * `tailSegments` list for the run-owned tail map.
 */
import type { AssembleProviderInputOptions } from "../assembly/types.ts";
import type { BudgetedSectionInput } from "../composer/tier-gate-types.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import type { ContextBlock } from "../assembly/types.ts";

/** Tier budget config as JSON (`totalBudget: null` = no limit). */
export interface TierBudgetJson {
  readonly depth?: number;
  readonly runtimeRole?: string;
  readonly totalBudget?: number | null;
  readonly activeBudgetFraction?: number;
}

export interface ContextBudgetJson {
  readonly maxInputTokens?: number;
  readonly maxInputBytes?: number;
  readonly reportOmissions?: boolean;
}

/** Where a rendered template goes. */
export type TemplateTarget = "systemInstructions" | "developerInstructions" | "input";

export interface AssemblyTemplate {
  readonly template: string;
  /** Runtime arguments; they win over `defaults` (runtime arguments take precedence). */
  readonly args?: Readonly<Record<string, JsonValue>>;
  readonly defaults?: Readonly<Record<string, JsonValue>>;
  /** Default `systemInstructions`: the rendered text becomes the first system instruction. */
  readonly target?: TemplateTarget;
  /** RFC 3339 instant with a zone (`Z` or `±HH:MM`) for `system.*` values; without it those values are absent, never the ambient clock. */
  readonly now?: string;
}

/** The `assembleProviderInput` options that are plain JSON, with the same types. */
type JsonAssemblyOptions = Pick<
  AssembleProviderInputOptions,
  | "model"
  | "input"
  | "inputLayout"
  | "systemInstructions"
  | "developerInstructions"
  | "history"
  | "summaries"
  | "attachments"
  | "resourceUris"
  | "toolResults"
  | "skills"
  | "tools"
  | "providerOptions"
  | "metadata"
  | "sessionId"
  | "runId"
  | "cacheKey"
>;

export interface AssemblyRequest extends JsonAssemblyOptions {
  /** uri → text, served by an in-memory resource loader. */
  readonly resources?: Readonly<Record<string, string>>;
  /** Context blocks, resolved as one static context provider. */
  readonly context?: readonly ContextBlock[];
  /** The run-owned tail, in insertion order. */
  readonly tailSegments?: readonly { readonly id: string; readonly message: Message }[];
  readonly contextBudget?: ContextBudgetJson;
  /** Tier candidates, composed with `tierBudget` into one system instruction. */
  readonly sections?: readonly BudgetedSectionInput[];
  readonly tierBudget?: TierBudgetJson;
  readonly template?: AssemblyTemplate;
}

type MessageIn = { readonly content: string | readonly ContentBlock[] } & Omit<Message, "content">;

/** Expands the `content: "text"` shorthand of messages. */
export function normalizeMessage(m: MessageIn): Message {
  return typeof m.content === "string" ? { ...m, content: [{ type: "text", text: m.content }] } : (m as Message);
}

/** Schema output → `AssemblyRequest` (message shorthands expanded, `$schema` dropped). */
export function normalizeAssemblyRequest(raw: Record<string, unknown>): AssemblyRequest {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    const v = raw[key];
    if (v === undefined || key === "$schema") continue;
    if (key === "history") out[key] = (v as MessageIn[]).map(normalizeMessage);
    else if (key === "input")
      out[key] =
        typeof v === "string"
          ? v
          : Array.isArray(v)
            ? (v as MessageIn[]).map(normalizeMessage)
            : normalizeMessage(v as MessageIn);
    else if (key === "tailSegments")
      out[key] = (v as { id: string; message: MessageIn }[]).map((t) => ({
        id: t.id,
        message: normalizeMessage(t.message),
      }));
    else out[key] = v;
  }
  return out as unknown as AssemblyRequest;
}
