/**
 * `prepareAssemblyWith(request, options, renderTemplate)`: an `AssemblyRequest` → the options
 * `assembleProviderInput` takes. Free of the Jinja engine: the caller passes the renderer (see
 * `prepareAssembly` in assembly-options.ts, which passes Jinja's; `inspect` loads it only for a
 * request that has a template).
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
import { tierBudgetConfig } from "./tier-budget.ts";
import { InvalidInputError } from "../util/errors.ts";

export { tierBudgetConfig } from "./tier-budget.ts";
import type { TemplateError } from "../templates/errors.ts";
import type { InputAssemblyLayout, InstructionsInput } from "../assembly/types.ts";
import type { Message } from "../messages/types.ts";
import { assertMessage, expectArray, expectString } from "../messages/validate.ts";
import { isObject } from "../util/plain-object.ts";
import { assertContextBlocks } from "../assembly/prompt-validate.ts";
import type {
  AssemblyRequest,
  AssemblyTemplate,
  ContextBudgetJson,
  TemplateTarget,
  TierBudgetJson,
} from "./assembly-request.ts";

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

/** Renders a template block: `renderAssemblyTemplate` (assembly-options.ts). */
export type AssemblyTemplateRenderer = (template: AssemblyTemplate) => PreparedTemplate;

/**
 * Builds the `assembleProviderInput` options for `request`; throws typed errors for bad sections
 * or templates. `renderTemplate` is needed only when the request has a `template`.
 */
export function prepareAssemblyWith(
  request: AssemblyRequest,
  options: PrepareAssemblyOptions,
  renderTemplate: AssemblyTemplateRenderer | undefined,
): PreparedAssembly {
  checkRequest(request, options);
  if (request.template && !renderTemplate)
    throw new InvalidInputError("template", "needs the template engine: call prepareAssembly (or load it first).");
  const template = request.template && renderTemplate ? renderTemplate(request.template) : null;
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
