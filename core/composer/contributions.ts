/**
 * The friendly contribution API: small constructors for the common shapes, and
 * `createPlugin` to bundle them. They only build data; `resolvePromptCandidates` applies it.
 */
import type { PromptTier } from "./tier-gate-types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { ALL_CORE_FRAGMENT_TEMPLATE_IDS, isCoreFragmentTemplateId } from "./fragments.ts";
import type { CoreFragmentTemplateId } from "./fragments.ts";
import type {
  HarnessPlugin,
  PlacedContribution,
  PromptContent,
  PromptGate,
  PromptRuntimeContext,
  PromptScope,
  PromptContribution,
  PromptSlot,
  ReplaceContribution,
} from "./contribution-types.ts";
import { definedFields } from "../util/plain-object.ts";

/** Options shared by the helpers. Omitted fields take each helper's default. */
export interface ContributionOptions {
  readonly content: PromptContent;
  readonly id?: string;
  readonly tier?: PromptTier;
  readonly condensed?: PromptContent;
}

export interface AppendPromptOptions extends ContributionOptions {
  /** Default "body". */
  readonly slot?: PromptSlot;
  readonly scope?: PromptScope;
  readonly when?: PromptGate;
}

export interface ReplaceCoreOptions extends ContributionOptions {
  readonly id: CoreFragmentTemplateId;
}

export interface ScopedPromptOptions extends AppendPromptOptions {
  readonly scope: PromptScope;
}

export interface GatedPromptOptions extends AppendPromptOptions {
  readonly when: PromptGate;
}

function isContent(value: unknown): value is PromptContent {
  return typeof value === "string" || typeof value === "function";
}

function options(input: PromptContent | AppendPromptOptions): AppendPromptOptions {
  return isContent(input) ? { content: input } : input;
}

function placed(
  mode: "prepend" | "append",
  slot: PromptSlot,
  tier: PromptTier,
  o: AppendPromptOptions,
): PlacedContribution {
  return {
    mode,
    slot,
    tier,
    content: o.content,
    ...definedFields({ id: o.id, condensed: o.condensed, scope: o.scope, when: o.when }),
  };
}

/** Adds content after earlier contributions of its slot ("body" by default). Tier defaults to "active". */
export function appendPrompt(prompt: PromptContent | AppendPromptOptions): PlacedContribution {
  const o = options(prompt);
  return placed("append", o.slot ?? "body", o.tier ?? "active", o);
}

/**
 * Puts persona content at the top of the persona slot, ahead of appended persona content.
 * Several prepends keep their registration order. Tier defaults to "core" (never dropped).
 */
export function prependPersona(persona: PromptContent | ContributionOptions): PlacedContribution {
  const o = options(persona);
  return placed("prepend", "persona", o.tier ?? "core", { ...o, slot: "persona" });
}

/**
 * Supplies the content of a bundled core template fragment, which opts that fragment in. Use
 * sparingly: you own the fragment's text from then on. Tier defaults to "core".
 */
export function replaceCore(replacement: ReplaceCoreOptions): ReplaceContribution {
  if (replacement === null || typeof replacement !== "object" || !isCoreFragmentTemplateId(replacement.id)) {
    const got =
      replacement === null || typeof replacement !== "object" ? String(replacement) : JSON.stringify(replacement.id);
    throw new InvalidInputError(
      "replacement.id",
      `${got} is not a core fragment id; use one of ${ALL_CORE_FRAGMENT_TEMPLATE_IDS.join(", ")}.`,
    );
  }
  return {
    mode: "replace",
    slot: "core",
    fragmentId: replacement.id,
    tier: replacement.tier ?? "core",
    content: replacement.content,
    ...definedFields({ condensed: replacement.condensed }),
  };
}

/** Content included only when the runtime context's scope matches `scope` (every key). Appends to "body" by default. */
export function scopedPrompt(prompt: ScopedPromptOptions): PlacedContribution {
  return placed("append", prompt.slot ?? "body", prompt.tier ?? "active", prompt);
}

/** Content included only when `when(context)` returns true for this turn. Appends to "body" by default. */
export function gatedPrompt(prompt: GatedPromptOptions): PlacedContribution {
  return placed("append", prompt.slot ?? "body", prompt.tier ?? "active", prompt);
}

export interface CreatePluginOptions {
  readonly name: string;
  /** Contributions offered on every call (each may still carry a scope, a gate or content functions). */
  readonly prompts?: readonly PromptContribution[];
  /** Contributions computed from the runtime context on each call. */
  readonly runtimePrompts?: (context: PromptRuntimeContext) => readonly PromptContribution[];
}

/** A `HarnessPlugin` from a flat object of contributions. */
export function createPlugin(plugin: CreatePluginOptions): HarnessPlugin {
  if (plugin === null || typeof plugin !== "object" || typeof plugin.name !== "string" || plugin.name === "") {
    throw new InvalidInputError(
      "plugin.name",
      "a plugin needs a non-empty name; it prefixes the plugin's section ids.",
    );
  }
  const prompts = plugin.prompts === undefined ? undefined : Object.freeze([...plugin.prompts]);
  const runtime = plugin.runtimePrompts;
  return Object.freeze({
    name: plugin.name,
    ...(prompts === undefined ? {} : { contributePrompts: () => prompts }),
    ...definedFields({ contributeRuntimeAwarePrompts: runtime }),
  });
}
