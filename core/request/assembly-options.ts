/**
 * `prepareAssembly(request)`: an `AssemblyRequest` → the options `assembleProviderInput` takes.
 * - `template` is rendered (Jinja-style, `buildPromptContext` with the request's injected `now`;
 *   without `now` the `system.*` namespace is absent — the ambient clock is never read).
 * - `sections` are composed with `budget` into one instruction.
 * - System instructions are, in order: the rendered template, the composed sections, then the
 *   request's own `systemInstructions` (each its own system message).
 * - `resources`, `context` and `tailSegments` become a resource loader, a static context
 *   provider and the tail `Map`.
 */
import type { AssembleProviderInputOptions } from "../assembly/types.ts";
import type { ContextBudget } from "../assembly/context-types.ts";
import type { TokenEstimator } from "../tokens/estimate.ts";
import { type ComposedPrompt, composeBudgetedPrompt } from "../composer/composer.ts";
import { explainBudgetedPrompt } from "../composer/composer-explain.ts";
import type { BudgetExplanationRow } from "../composer/tier-gate-explain.ts";
import type { BudgetConfig } from "../composer/tier-gate-types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { TemplateError } from "../templates/errors.ts";
import type { InputAssemblyLayout, InstructionsInput } from "../assembly/types.ts";
import type { Message } from "../messages/types.ts";
import { assertMessage, expectArray, expectString } from "../messages/validate.ts";
import { isObject } from "../util/plain-object.ts";
import { assertContextBlocks } from "../assembly/prompt-validate.ts";
import { renderJinjaTemplate } from "../templates/jinja/render.ts";
import { buildPromptContext } from "../conversation/prompt-context.ts";
import { ISO_INSTANT } from "../conversation/system-clock.ts";
import type { AssemblyRequest, ContextBudgetJson, TemplateTarget, TierBudgetJson } from "./assembly-request.ts";

export interface PrepareAssemblyOptions {
  /** Overrides `request.inputLayout`. */
  readonly layout?: InputAssemblyLayout;
  /** Overrides `request.budget` for the tier sections (a number is `totalBudget`; null = no limit). */
  readonly tierBudget?: number | null | TierBudgetJson;
  /** Overrides `request.contextBudget`; `null` removes it. */
  readonly contextBudget?: ContextBudgetJson | null;
  /** Passed to the context budget as its `tokenEstimator`. */
  readonly tokenEstimator?: TokenEstimator;
}

export interface PreparedTiers {
  readonly config: BudgetConfig;
  readonly composed: ComposedPrompt;
  readonly rows: readonly BudgetExplanationRow[];
}

export interface PreparedTemplate {
  readonly source: string;
  readonly rendered: string;
  readonly target: TemplateTarget;
  /** The render error, when the template fell back to its source text (render errors fall back to the source text). */
  readonly error: TemplateError | null;
  /** False when the template block has no `now` (so `system.*` was absent). */
  readonly hasClock: boolean;
}

export interface PreparedAssembly {
  readonly options: AssembleProviderInputOptions;
  readonly tiers: PreparedTiers | null;
  readonly template: PreparedTemplate | null;
}

export function tierBudgetConfig(
  json: TierBudgetJson | undefined,
  override?: number | null | TierBudgetJson,
): BudgetConfig {
  const merged: TierBudgetJson =
    override === undefined
      ? (json ?? {})
      : typeof override === "number" || override === null
        ? { ...json, totalBudget: override }
        : { ...json, ...override };
  const config: { -readonly [K in keyof BudgetConfig]: BudgetConfig[K] } = { depth: merged.depth ?? 0 };
  if (merged.runtimeRole !== undefined) config.runtimeRole = merged.runtimeRole;
  if (merged.totalBudget !== undefined)
    config.totalBudget = merged.totalBudget === null ? Number.POSITIVE_INFINITY : merged.totalBudget;
  if (merged.activeBudgetFraction !== undefined) config.activeBudgetFraction = merged.activeBudgetFraction;
  return config;
}

/** Renders an `AssemblyRequest`'s template block as `prepareAssembly` does (also used to rebuild adjacent turns). */
export function renderAssemblyTemplate(t: NonNullable<AssemblyRequest["template"]>): PreparedTemplate {
  let now: Date | undefined;
  if (t.now !== undefined) {
    // Only zoned RFC 3339 reaches the Date parser: anything else parses differently per runtime or host time zone.
    now = ISO_INSTANT.test(t.now) ? new Date(t.now) : new Date(Number.NaN);
    if (Number.isNaN(now.getTime())) {
      throw new InvalidInputError(
        "template.now",
        `${JSON.stringify(t.now)} is not an ISO 8601 date-time with a zone (e.g. "2026-11-29T08:30:00Z")`,
      );
    }
  }
  const context: Record<string, unknown> = { ...buildPromptContext({ now: now ?? new Date(0), args: t.args ?? {} }) };
  if (!now) delete context.system;
  let error: TemplateError | null = null;
  const rendered = renderJinjaTemplate(t.template, context, {
    onError: "original",
    onErrorReport: (e) => {
      error = e;
    },
    ...(t.defaults ? { defaults: t.defaults } : {}),
    ...(now ? { now } : {}),
  });
  return { source: t.template, rendered, target: t.target ?? "systemInstructions", error, hasClock: now !== undefined };
}

const asList = (
  i: InstructionsInput | undefined,
): readonly (string | { readonly text: string; readonly label?: string })[] =>
  i === undefined ? [] : typeof i === "string" ? [i] : i;

/**
 * The parts of an `AssemblyRequest` this stage reads, checked once (cheap, no zod; `parseRequest`
 * has already run the full schema on pasted requests). What it hands on — messages, budgets,
 * tools — `assembleProviderInput` checks itself.
 */
function checkRequest(request: unknown, options: unknown): asserts request is AssemblyRequest {
  if (!isObject(request))
    throw new InvalidInputError("request", "must be an AssemblyRequest object { model, input, … }.");
  if (!isObject(options))
    throw new InvalidInputError(
      "options",
      "must be an object { layout?, tierBudget?, contextBudget?, tokenEstimator? }.",
    );
  const t = request["template"];
  if (t !== undefined && (!isObject(t) || typeof t["template"] !== "string"))
    throw new InvalidInputError("template", "must be { template: string, args?, defaults?, target?, now? }.");
  if (request["sections"] !== undefined) expectArray(request["sections"], "sections");
  const resources = request["resources"];
  if (resources !== undefined) {
    if (!isObject(resources)) throw new InvalidInputError("resources", "must be an object of uri → text.");
    for (const uri of Object.keys(resources)) expectString(resources[uri], `resources[${JSON.stringify(uri)}]`);
  }
  if (request["context"] !== undefined) assertContextBlocks(request["context"], "context");
  const tail = request["tailSegments"];
  if (tail !== undefined) {
    const list = expectArray(tail, "tailSegments");
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!isObject(item)) throw new InvalidInputError(`tailSegments[${i}]`, "must be { id, message }.");
      expectString(item["id"], `tailSegments[${i}].id`);
      assertMessage(item["message"], `tailSegments[${i}].message`);
    }
  }
}

/** Builds the `assembleProviderInput` options for `request`; throws typed errors for bad sections or templates. */
export function prepareAssembly(request: AssemblyRequest, options: PrepareAssemblyOptions = {}): PreparedAssembly {
  checkRequest(request, options);
  const template = request.template ? renderAssemblyTemplate(request.template) : null;
  let tiers: PreparedTiers | null = null;
  if (request.sections && request.sections.length > 0) {
    const config = tierBudgetConfig(request.tierBudget, options.tierBudget);
    tiers = {
      config,
      composed: composeBudgetedPrompt(request.sections, config),
      rows: explainBudgetedPrompt(request.sections, config),
    };
  }
  const system: (string | { readonly text: string; readonly label?: string })[] = [];
  if (template?.target === "systemInstructions") system.push(template.rendered);
  if (tiers && tiers.composed.composed !== "") system.push(tiers.composed.composed);
  const developer =
    template?.target === "developerInstructions"
      ? [template.rendered, ...asList(request.developerInstructions)]
      : undefined;

  const {
    template: _t,
    sections: _s,
    tierBudget: _b,
    resources,
    context,
    tailSegments,
    contextBudget,
    systemInstructions,
    input,
    inputLayout,
    ...rest
  } = request;
  const out: Record<string, unknown> = { ...rest, input: template?.target === "input" ? template.rendered : input };
  const layout = options.layout ?? inputLayout;
  if (layout !== undefined) out.inputLayout = layout;
  if (system.length > 0) out.systemInstructions = [...system, ...asList(systemInstructions)];
  else if (systemInstructions !== undefined) out.systemInstructions = systemInstructions;
  if (developer) out.developerInstructions = developer;
  if (resources) {
    const map = new Map(Object.entries(resources));
    out.resourceLoader = {
      load(uri: string) {
        const text = map.get(uri);
        if (text === undefined)
          throw new InvalidInputError(
            "resources",
            `no text for ${JSON.stringify(uri)}: add it to the request's "resources"`,
          );
        return { uri, text };
      },
    };
  }
  if (context && context.length > 0) out.contextProviders = [{ name: "request.context", resolve: () => context }];
  if (tailSegments) out.tailSegments = new Map<string, Message>(tailSegments.map((t) => [t.id, t.message]));
  const budget = options.contextBudget === undefined ? contextBudget : (options.contextBudget ?? undefined);
  if (budget) {
    const b: ContextBudget = options.tokenEstimator ? { ...budget, tokenEstimator: options.tokenEstimator } : budget;
    out.contextBudget = b;
  }
  return { options: out as unknown as AssembleProviderInputOptions, tiers, template };
}
