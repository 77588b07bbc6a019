import { resolveContextBudget } from "../budget/context-budget.ts";
import { evictToBudget } from "../budget/context-eviction.ts";
import { estimateTextTokens, measureMessage, measureToolSchemas } from "../budget/context-measure.ts";
import type { Measure } from "../budget/context-measure.ts";
import type { ContextBudgetReport } from "../budget/context-types.ts";
import { CONTEXT_BUDGET_REPORT_METADATA_KEY } from "../budget/context-types.ts";
import { InvalidInputError } from "../errors.ts";
import { throwIfAborted, untilAborted } from "../input/abort.ts";
import { buildInputGroups } from "../input/groups.ts";
import { isDefaultInputBuilder } from "../input/input-builder.ts";
import { flattenInputGroups, resolveInputLayout } from "../input/layouts.ts";
import type { InputAssemblyLayout } from "../input/types.ts";
import { assertMessage, assertMessages, isObject } from "../input/validate.ts";
import { assertMessagesSupportModelCapabilities } from "../messages/index.ts";
import type { JsonValue, Message, ProviderRequest } from "../messages/index.ts";
import { composePrompt, isDefaultPromptBuilder } from "../prompt/prompt-builder.ts";
import { skillBodyMessage } from "../prompt/shapes.ts";
import { ProvenanceMap } from "../prompt/sources.ts";
import type { SourcedMessage } from "../prompt/sources.ts";
import type { PromptBuildRequest } from "../prompt/types.ts";
import { assertSkills, assertTools } from "../prompt/validate.ts";
import { resolveContextProviders } from "./context.ts";
import { middlewareContextOf } from "./middleware.ts";
import { applyDefaultProviderRequestOptions } from "./request-defaults.ts";
import { buildTrace } from "./trace.ts";
import type { ExplainedProviderInput } from "./trace.ts";
import type { AssembleProviderInputOptions } from "./types.ts";

/**
 * Input assembly → `input_assembly` middleware (exactly once, whatever the builder) → ordered
 * context resolution + `context` middleware → tail segments → `prompt_build` middleware →
 * prompt composition → optional context budget → capability check → `ProviderRequest`.
 * Calls no provider.
 */
export async function assembleProviderInput(options: AssembleProviderInputOptions): Promise<ProviderRequest> {
  return (await runAssembly(options, false)).request;
}

/** The same assembly as `assembleProviderInput`, plus where every output message came from. */
export async function explainProviderInput(options: AssembleProviderInputOptions): Promise<ExplainedProviderInput> {
  const { request, layout, items, measures, nativeTools, report } = await runAssembly(options, true);
  return { request, trace: buildTrace(layout, items, measures!, nativeTools, report) };
}

/** What one assembly produced; `measures` (one per kept item) only when asked for or budgeted. */
interface Assembled {
  readonly request: ProviderRequest;
  readonly layout: InputAssemblyLayout;
  readonly items: readonly SourcedMessage[];
  readonly measures: readonly Measure[] | undefined;
  readonly nativeTools: Measure | undefined;
  readonly report: ContextBudgetReport | undefined;
}

// The trace is built by `explainProviderInput` from what this returns, so `assembleProviderInput`
// never reaches the trace code (smaller bundles for hosts that only assemble).
async function runAssembly(options: AssembleProviderInputOptions, measureAll: boolean): Promise<Assembled> {
  if (!isObject(options)) throw new InvalidInputError("options", "must be an object with at least { model, input }.");
  const { model, signal, middleware, tailSegments: tail } = options;
  if (!isObject(model) || typeof model["provider"] !== "string" || typeof model["model"] !== "string") {
    throw new InvalidInputError("model", "must be { provider: string, model: string, capabilities? }.");
  }
  throwIfAborted(signal);
  const layout = resolveInputLayout(options.inputLayout);
  const tools = options.tools ?? [];
  assertTools(tools, "tools");
  const skills = options.skills ?? [];
  assertSkills(skills, "skills");
  const budget = options.contextBudget === undefined ? undefined : resolveContextBudget(options.contextBudget);
  if (tail !== undefined && !(tail instanceof Map)) throw new InvalidInputError("tailSegments", "must be a Map of segment id → message.");
  if (middleware !== undefined && (!isObject(middleware) || typeof middleware["run"] !== "function")) {
    throw new InvalidInputError("middleware", "must be a registry from createMiddlewareRegistry().");
  }
  const ids = middlewareContextOf(options);

  // 1. Input assembly. Provenance is remembered by message identity, protected groups first.
  const provenance = new ProvenanceMap();
  let messages: readonly Message[];
  const builder = options.inputBuilder;
  const defaultBuilder = builder === undefined || isDefaultInputBuilder(builder);
  if (defaultBuilder) {
    const groups = await buildInputGroups(options.input, options, { resourcesToTail: tail !== undefined });
    for (const group of [groups.input, groups.instructions, groups.history, groups.toolResults, groups.summaries, groups.attachments]) {
      provenance.recordAll(group);
    }
    messages = flattenInputGroups(groups, layout).map((item) => item.message);
    for (const segment of groups.tail) tail!.set(segment.id, segment.message);
  } else {
    if (!isObject(builder) || typeof builder["build"] !== "function") throw new InvalidInputError("inputBuilder", "must be { name, build(input, context) }.");
    // A custom builder's output is labeled by identity: host input and history objects it passes
    // through keep their labels; anything it creates is `custom` (kept by budgets).
    if (Array.isArray(options.input)) for (const m of options.input) provenance.record({ message: m, source: "input" });
    else if (isObject(options.input)) provenance.record({ message: options.input as Message, source: "input" });
    options.history?.forEach((message, i) => provenance.record({ message, source: `history:${i}` }));
    const built: unknown = await untilAborted(builder.build(options.input, options), signal);
    assertMessages(built, "inputBuilder.build()");
    messages = built;
  }

  // 2. `input_assembly` runs exactly once, after whichever builder, on both plain and budget paths.
  if (middleware !== undefined) {
    messages = await middleware.run("input_assembly", messages, ids);
    assertMessages(messages, "middleware.input_assembly");
  }

  // 3. Ordered context resolution, then `context` middleware.
  const context = await resolveContextProviders({ messages, ...(options.contextProviders === undefined ? {} : { providers: options.contextProviders }), ...(middleware === undefined ? {} : { middleware }), ...ids });

  // 4. Session tail: loaded skill bodies join URI resources; first insertion fixed each id's place.
  const tailItems: SourcedMessage[] = [];
  if (tail !== undefined) {
    for (const skill of skills) {
      if (skill.instructions !== undefined) tail.set(`skill:${skill.name}`, skillBodyMessage({ ...skill, instructions: skill.instructions }));
    }
    for (const [id, message] of tail) {
      assertMessage(message, `tailSegments.get(${JSON.stringify(id)})`);
      tailItems.push({ message, source: `tail:${id}` });
    }
    provenance.recordAll(tailItems);
  }

  // 5. `prompt_build` middleware, then composition. Provider tools stay the host's list.
  const promptMessages = tailItems.length === 0 ? messages : [...messages, ...tailItems.map((item) => item.message)];
  const instructionCount = defaultBuilder ? leadingInstructions(promptMessages, provenance) : undefined;
  let request: PromptBuildRequest = {
    messages: promptMessages,
    inputLayout: layout,
    context,
    skills,
    tools,
    model,
    tailSkillBodies: tail !== undefined,
    ...(instructionCount === undefined ? {} : { instructionCount }),
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    ...(signal === undefined ? {} : { signal }),
  };
  if (middleware !== undefined) {
    const changed = await middleware.run("prompt_build", request, ids);
    if (changed.messages !== promptMessages && changed.instructionCount === instructionCount && instructionCount !== undefined) {
      request = { ...changed, instructionCount: leadingInstructions(changed.messages, provenance) };
    } else request = changed;
    assertMessages(request.messages, "middleware.prompt_build messages");
  }
  const lookup = (message: Message): SourcedMessage => provenance.lookup(message);
  const promptBuilder = options.promptBuilder;
  let items: SourcedMessage[];
  if (promptBuilder === undefined || isDefaultPromptBuilder(promptBuilder)) {
    items = composePrompt({ ...request, tools }, lookup);
  } else {
    if (!isObject(promptBuilder) || typeof promptBuilder["build"] !== "function") throw new InvalidInputError("promptBuilder", "must be { name, build(request) }.");
    const built: unknown = await untilAborted(promptBuilder.build({ ...request, tools }), signal);
    assertMessages(built, "promptBuilder.build()");
    items = built.map(lookup);
  }
  throwIfAborted(signal);

  // 6. Optional budget over the composed prompt: each message measured once, running totals.
  const estimate = budget?.estimate ?? estimateTextTokens;
  const nativeTools = tools.length > 0 && model.capabilities?.tools === true ? measureToolSchemas(tools, estimate) : undefined;
  let measures: Measure[] | undefined = budget !== undefined || measureAll ? items.map((item) => measureMessage(item.message, estimate)) : undefined;
  let report: ContextBudgetReport | undefined;
  if (budget !== undefined) {
    const evicted = evictToBudget(items, measures!, nativeTools, budget);
    report = evicted.report;
    if (report.truncated) {
      items = items.filter((_, i) => evicted.keep[i] === 1);
      measures = measures!.filter((_, i) => evicted.keep[i] === 1);
    }
  }

  // 7. Capability check on what is actually sent, then the request.
  const finalMessages = items.map((item) => item.message);
  assertMessagesSupportModelCapabilities(finalMessages, model);
  const metadata: Readonly<Record<string, JsonValue>> | undefined =
    report !== undefined && budget!.reportOmissions ? { ...options.metadata, [CONTEXT_BUDGET_REPORT_METADATA_KEY]: report } : options.metadata;
  const providerRequest = applyDefaultProviderRequestOptions(
    {
      model,
      messages: finalMessages,
      tools,
      ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
      ...(metadata === undefined ? {} : { metadata }),
      ...(signal === undefined ? {} : { signal }),
    },
    { ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }), ...(options.cacheKey === undefined ? {} : { cacheKey: options.cacheKey }) },
  );
  return { request: providerRequest, layout, items, measures, nativeTools, report };
}

/** Leading messages that are instructions (or system messages middleware added before them). */
function leadingInstructions(messages: readonly Message[], provenance: ProvenanceMap): number {
  let n = 0;
  while (n < messages.length) {
    const item = provenance.lookup(messages[n]!);
    if (item.source === "instructions" || (item.source === "custom" && item.message.role === "system")) n++;
    else break;
  }
  return n;
}
