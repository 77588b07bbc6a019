import { resolveContextBudget } from "./context-budget.ts";
import { evictToBudget } from "./context-eviction.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { measureAt, measureMessages, measureToolSchemas } from "./context-measure.ts";
import type { Measure } from "./context-measure.ts";
import type { ContextBudgetReport } from "./context-types.ts";
import { CONTEXT_BUDGET_REPORT_METADATA_KEY } from "./context-types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { throwIfAborted, untilAborted } from "./abort.ts";
import { buildUnlabeledInputGroups, historyItems } from "./input-groups.ts";
import type { UnlabeledInputGroups } from "./input-groups.ts";
import { isDefaultInputBuilder } from "./input-builder.ts";
import { resolveInputLayout } from "./layouts.ts";
import type { InputAssemblyLayout } from "./types.ts";
import { assertMessage, assertMessages } from "../messages/validate.ts";
import { definedFields, isObject } from "../util/plain-object.ts";
import { assertMessagesSupportModelCapabilities } from "../messages/index.ts";
import type { JsonValue, Message, ProviderRequest } from "../messages/index.ts";
import { composePrompt, composition, isDefaultPromptBuilder } from "./prompt-builder.ts";
import { skillBodyMessage } from "./prompt-shapes.ts";
import { ProvenanceMap } from "./sources.ts";
import type { SourcedMessage } from "./sources.ts";
import type { PromptBuildRequest } from "./types.ts";
import { assertSkills, assertTools } from "./prompt-validate.ts";
import { flatInput, positionalPrompt, sourcedPrompt } from "./composed.ts";
import type { ComposedPrompt, FlatInput } from "./composed.ts";
import { resolveContextProviders } from "./context-providers.ts";
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
  const { request, layout, traced, nativeTools, report } = await runAssembly(options, true);
  return { request, trace: buildTrace(layout, traced!.items, traced!.measures, nativeTools, report) };
}

/** What one assembly produced; `traced` (each kept item with its measure) only when asked for. */
interface Assembled {
  readonly request: ProviderRequest;
  readonly layout: InputAssemblyLayout;
  readonly traced: { readonly items: readonly SourcedMessage[]; readonly measures: readonly Measure[] } | undefined;
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
  if (tail !== undefined && !(tail instanceof Map))
    throw new InvalidInputError("tailSegments", "must be a Map of segment id → message.");
  if (middleware !== undefined && (!isObject(middleware) || typeof middleware["run"] !== "function")) {
    throw new InvalidInputError("middleware", "must be a registry from createMiddlewareRegistry().");
  }
  const ids = middlewareContextOf(options);

  // 1. Input assembly. Provenance is remembered by message identity, protected groups first (or,
  // for the default builder, by position when nothing can move or show it: see FlatInput).
  let provenance: ProvenanceMap | undefined;
  let groups: UnlabeledInputGroups | undefined;
  let flat: FlatInput | undefined;
  let messages: readonly Message[];
  const builder = options.inputBuilder;
  const defaultBuilder = builder === undefined || isDefaultInputBuilder(builder);
  if (defaultBuilder) {
    groups = await buildUnlabeledInputGroups(options.input, options, { resourcesToTail: tail !== undefined });
    flat = flatInput(groups, layout);
    messages = flat.messages;
    for (const segment of groups.tail) tail!.set(segment.id, segment.message);
  } else {
    if (!isObject(builder) || typeof builder["build"] !== "function")
      throw new InvalidInputError("inputBuilder", "must be { name, build(input, context) }.");
    // A custom builder's output is labeled by identity: host input and history objects it passes
    // through keep their labels; anything it creates is `custom` (kept by budgets).
    const map = new ProvenanceMap();
    provenance = map;
    if (Array.isArray(options.input)) for (const m of options.input) map.record({ message: m, source: "input" });
    else if (isObject(options.input)) map.record({ message: options.input as Message, source: "input" });
    options.history?.forEach((message, i) => map.record({ message, source: `history:${i}` }));
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
  const context = await resolveContextProviders({
    messages,
    ...definedFields({ providers: options.contextProviders, middleware }),
    ...ids,
  });

  // 4. Session tail: loaded skill bodies join URI resources; first insertion fixed each id's place.
  const tailItems: SourcedMessage[] = [];
  if (tail !== undefined) {
    for (const skill of skills) {
      if (skill.instructions !== undefined)
        tail.set(`skill:${skill.name}`, skillBodyMessage({ ...skill, instructions: skill.instructions }));
    }
    for (const [id, message] of tail) {
      assertMessage(message, `tailSegments.get(${JSON.stringify(id)})`);
      tailItems.push({ message, source: `tail:${id}` });
    }
    provenance?.recordAll(tailItems);
  }

  // 5. `prompt_build` middleware, then composition. Provider tools stay the host's list.
  const promptMessages = tailItems.length === 0 ? messages : [...messages, ...tailItems.map((item) => item.message)];
  const promptBuilder = options.promptBuilder;
  const defaultPrompt = promptBuilder === undefined || isDefaultPromptBuilder(promptBuilder);
  const positional =
    flat !== undefined &&
    defaultPrompt &&
    middleware === undefined &&
    (options.contextProviders === undefined || options.contextProviders.length === 0) &&
    tail === undefined &&
    !measureAll &&
    budget?.reportOmissions !== true &&
    !flat.historyHoldsInput()
      ? flat
      : undefined;
  if (groups !== undefined && positional === undefined) provenance = identityProvenance(groups, tailItems);
  const instructionCount = defaultBuilder
    ? (positional?.instructionCount ?? leadingInstructions(promptMessages, provenance!))
    : undefined;
  let request: PromptBuildRequest = {
    messages: promptMessages,
    inputLayout: layout,
    context,
    skills,
    tools,
    model,
    tailSkillBodies: tail !== undefined,
    ...definedFields({ instructionCount, metadata: options.metadata, signal }),
  };
  if (middleware !== undefined) {
    const changed = await middleware.run("prompt_build", request, ids);
    if (
      changed.messages !== promptMessages &&
      changed.instructionCount === instructionCount &&
      instructionCount !== undefined
    ) {
      request = { ...changed, instructionCount: leadingInstructions(changed.messages, provenance!) };
    } else request = changed;
    assertMessages(request.messages, "middleware.prompt_build messages");
  }
  const lookup = (message: Message): SourcedMessage => provenance!.lookup(message);
  let composed: ComposedPrompt;
  if (positional !== undefined) composed = positionalPrompt(positional, composition({ ...request, tools }));
  else if (defaultPrompt) composed = sourcedPrompt(composePrompt({ ...request, tools }, lookup));
  else {
    if (!isObject(promptBuilder) || typeof promptBuilder["build"] !== "function")
      throw new InvalidInputError("promptBuilder", "must be { name, build(request) }.");
    const built: unknown = await untilAborted(promptBuilder.build({ ...request, tools }), signal);
    assertMessages(built, "promptBuilder.build()");
    composed = sourcedPrompt(built.map(lookup));
  }
  throwIfAborted(signal);

  // 6. Optional budget over the composed prompt: each message measured once, running totals.
  const estimate = budget?.estimate ?? estimateTextTokens;
  const nativeTools =
    tools.length > 0 && model.capabilities?.tools === true ? measureToolSchemas(tools, estimate) : undefined;
  const all = composed.messages;
  // Byte sizes only where something reads them: a byte cap, the omission report or the trace
  // (otherwise the report's byte figures are 0, and only `truncated` and `keep` are used).
  const withBytes =
    measureAll || (budget !== undefined && (budget.maxInputBytes !== undefined || budget.reportOmissions));
  const columns = budget !== undefined || measureAll ? measureMessages(all, estimate, withBytes) : undefined;
  let report: ContextBudgetReport | undefined;
  let keep: Uint8Array | undefined;
  if (budget !== undefined) {
    // The omission list is built only when someone will read it (the report or the trace).
    const evicted = evictToBudget(
      { messages: all, ranks: composed.ranks(), itemAt: composed.itemAt },
      columns!,
      nativeTools,
      budget,
      budget.reportOmissions || measureAll,
    );
    report = evicted.report;
    if (report.truncated) keep = evicted.keep;
  }
  // `all` is this call's own array: sent as is when nothing was dropped, else compacted in place
  // unless the trace still reads it by position.
  const finalMessages = keep === undefined ? all : measureAll ? kept(all, keep) : keptInPlace(all as Message[], keep);
  let traced: { items: SourcedMessage[]; measures: Measure[] } | undefined;
  if (measureAll) {
    traced = { items: [], measures: [] };
    for (let p = 0; p < all.length; p++) {
      if (keep !== undefined && keep[p] === 0) continue;
      traced.items.push(composed.itemAt(p));
      traced.measures.push(measureAt(columns!, p));
    }
  }

  // 7. Capability check on what is actually sent, then the request.
  assertMessagesSupportModelCapabilities(finalMessages, model);
  const metadata: Readonly<Record<string, JsonValue>> | undefined =
    report !== undefined && budget!.reportOmissions
      ? { ...options.metadata, [CONTEXT_BUDGET_REPORT_METADATA_KEY]: report }
      : options.metadata;
  const providerRequest = applyDefaultProviderRequestOptions(
    {
      model,
      messages: finalMessages,
      tools,
      ...definedFields({ providerOptions: options.providerOptions, metadata, signal }),
    },
    {
      ...definedFields({ sessionId: options.sessionId, cacheKey: options.cacheKey }),
    },
  );
  return { request: providerRequest, layout, traced, nativeTools, report };
}

/** The default builder's labels by identity, recorded as `buildInputGroups` ranks them: protected groups first. */
function identityProvenance(groups: UnlabeledInputGroups, tailItems: readonly SourcedMessage[]): ProvenanceMap {
  const map = new ProvenanceMap();
  for (const group of [
    groups.input,
    groups.instructions,
    historyItems(groups.history),
    groups.toolResults,
    groups.summaries,
    groups.attachments,
    tailItems,
  ]) {
    map.recordAll(group);
  }
  return map;
}

/** The messages `keep` marks `1`, in order (sized once: a history can be 100,000 messages). */
function kept(messages: readonly Message[], keep: Uint8Array): Message[] {
  let count = 0;
  for (let p = 0; p < keep.length; p++) count += keep[p]!;
  const out = new Array<Message>(count);
  for (let p = 0, n = 0; p < messages.length; p++) if (keep[p] === 1) out[n++] = messages[p]!;
  return out;
}

/**
 * `kept`, written over `messages` itself (an array this call built and no one else holds): a
 * 100,000-message history then costs no second array, which V8 would allocate outside the young
 * generation, page by page. Shortening `length` trims the array where it lies.
 */
function keptInPlace(messages: Message[], keep: Uint8Array): Message[] {
  let n = 0;
  for (let p = 0; p < keep.length; p++) if (keep[p] === 1) messages[n++] = messages[p]!;
  messages.length = n;
  return messages;
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
