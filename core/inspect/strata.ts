/**
 * The sections of a Strata `AssemblyRequest`: assembled under both layouts (with the template and
 * tier fallbacks), its context budget, template report and simulated next turn. Loaded by
 * `import()` only when `inspect` is given an `AssemblyRequest` (as input or as the previous turn):
 * a wire request never needs the assembler.
 */
import { explainProviderInput } from "../assembly/assemble.ts";
import type { ExplainedProviderInput } from "../assembly/trace.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";
import type { CacheProvider, NextTurnSimulation } from "../cache/types.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { AssemblyRequest, ContextBudgetJson, TierBudgetJson } from "../request/assembly-request.ts";
import { type AssemblyTemplateRenderer, type PreparedAssembly, prepareAssemblyWith } from "../request/prepare-with.ts";
import { TemplateError } from "../templates/errors.ts";
import type { TokenEstimator } from "../tokens/estimate.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { InvalidInputError } from "../util/errors.ts";
import { DEFAULT_INSPECT_DEADLINE_MS } from "./deadline.ts";
import { simulateNextTurnWith } from "./next-turn.ts";
import {
  budgetSection,
  layoutTrace,
  omissionItem,
  plainRequest,
  problemFrom,
  reportTiers,
  tierDrops,
} from "./report-parts.ts";
import { DEFAULT_NEXT_TURN } from "./turn-edit.ts";
import type {
  DroppedItem,
  ReportAssembly,
  ReportContextBudget,
  ReportProblem,
  ReportTemplate,
  ReportTiers,
} from "./types.ts";

export { historyIssues } from "../conversation/history.ts";

/** The `inspect` options an `AssemblyRequest` uses (the rest of `InspectOptions` is for every request). */
export interface StrataOptions {
  /** Whose cache rules and prompt order to use; default inferred from the format / model. */
  readonly provider?: CacheProvider;
  /** Model id for cache rules; default the request's. */
  readonly model?: string;
  /**
   * Counts each segment instead of `countRequestTokens` (every token figure of the report then comes
   * from it). An assembly's own context budget keeps its default ÷4 unless this is given.
   */
  readonly tokenEstimator?: TokenEstimator;
  /** `await createOpenAITokenizer(model)` (`prompt-strata/tokenizers/openai`): exact OpenAI counts. */
  readonly tokenizer?: Tokenizer;
  /** Tier budget override for `sections` (a number is `totalBudget`; null = no limit). */
  readonly tierBudget?: number | null | TierBudgetJson;
  /** Context budget override; null removes the request's. */
  readonly contextBudget?: ContextBudgetJson | null;
  /** Layout of `report.request` for an `AssemblyRequest`; default the request's, else `cache_aware`. */
  readonly layout?: InputAssemblyLayout;
  /** Reply and next input for the next-turn simulation of an `AssemblyRequest`; `false` skips it. */
  readonly nextTurn?: false | { readonly reply: string; readonly nextInput: string };
  /**
   * Wall-clock guard of each template render, in milliseconds (default 1,000): past it the render
   * stops with a `template_deadline` problem. Backs the deterministic work limit; see the README.
   */
  readonly deadlineMs?: number;
  /** The deadline's clock in milliseconds (default `performance.now`). */
  readonly clock?: () => number;
}

interface Assembled {
  readonly request: NormalizedRequest | null;
  readonly prepared: PreparedAssembly | null;
  readonly assembly: ReportAssembly;
  readonly explained: ExplainedProviderInput | null;
}

/** The template engine (Jinja and its lint), loaded only for a request that has a template. */
type TemplateEngine = typeof import("./template-engine.ts");
const loadTemplateEngine = (): Promise<TemplateEngine> => import("./template-engine.ts");

/** The inspection's renderer: each template rendered once, under the deadline. */
function inspectRenderer(engine: TemplateEngine | undefined, options: StrataOptions) {
  if (engine === undefined) return undefined;
  const deadlineMs = options.deadlineMs ?? DEFAULT_INSPECT_DEADLINE_MS;
  return engine.renderOnce({ deadlineMs, ...(options.clock ? { clock: options.clock } : {}) });
}

/** prepareAssembly, dropping the template or the sections when they are what fails. */
function prepare(
  request: AssemblyRequest,
  options: StrataOptions,
  layout: InputAssemblyLayout,
  problems: ReportProblem[] | null,
  render: AssemblyTemplateRenderer | undefined,
): { prepared: PreparedAssembly | null; request: AssemblyRequest } {
  let req = request;
  const opts = {
    layout,
    ...(options.tierBudget !== undefined ? { tierBudget: options.tierBudget } : {}),
    ...(options.contextBudget !== undefined ? { contextBudget: options.contextBudget } : {}),
    ...(options.tokenEstimator ? { tokenEstimator: options.tokenEstimator } : {}),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return { prepared: prepareAssemblyWith(req, opts, render), request: req };
    } catch (e) {
      const templateFailed =
        e instanceof TemplateError || (e instanceof InvalidInputError && e.field.startsWith("template"));
      problems?.push(problemFrom(templateFailed ? "template" : "tiers", e));
      if (templateFailed && req.template) {
        const { template: _t, ...rest } = req;
        req = rest;
      } else if (req.sections) {
        const { sections: _s, tierBudget: _b, ...rest } = req;
        req = rest;
      } else break;
    }
  }
  return { prepared: null, request: req };
}

async function assemble(
  request: AssemblyRequest,
  options: StrataOptions,
  problems: ReportProblem[],
  render: AssemblyTemplateRenderer | undefined,
): Promise<Assembled & { readonly req: AssemblyRequest }> {
  const selected: InputAssemblyLayout = options.layout ?? request.inputLayout ?? "cache_aware";
  const traces: Partial<Record<InputAssemblyLayout, ReturnType<typeof layoutTrace> | null>> = {};
  let chosen:
    | { prepared: PreparedAssembly | null; explained: ExplainedProviderInput | null; req: AssemblyRequest }
    | undefined;
  for (const layout of ["legacy", "cache_aware"] as const) {
    const { prepared, request: req } = prepare(request, options, layout, layout === selected ? problems : null, render);
    let explained: ExplainedProviderInput | null = null;
    if (prepared) {
      try {
        explained = await explainProviderInput(prepared.options);
      } catch (e) {
        problems.push({ ...problemFrom("assembly", e), message: `${layout}: ${problemFrom("assembly", e).message}` });
      }
    }
    traces[layout] = explained ? layoutTrace(explained.trace, explained.request) : null;
    if (layout === selected) chosen = { prepared, explained, req };
  }
  const explained = chosen?.explained ?? null;
  return {
    request: explained ? plainRequest(explained.request) : null,
    prepared: chosen?.prepared ?? null,
    explained,
    req: chosen?.req ?? request,
    assembly: {
      selectedLayout: selected,
      legacy: traces.legacy ?? null,
      cache_aware: traces.cache_aware ?? null,
      asSent: null,
    },
  };
}

function reportContextBudget(explained: ExplainedProviderInput | null): ReportContextBudget | null {
  const report = explained?.trace.budget;
  if (!report) return null;
  return budgetSection(
    report,
    report.omitted.map((o) => omissionItem(o, report)),
    [],
  );
}

/** What `inspect` reports for an `AssemblyRequest` before segmenting the assembled request. */
export interface StrataSections {
  readonly request: NormalizedRequest | null;
  readonly assembly: ReportAssembly;
  readonly tiers: ReportTiers | null;
  readonly contextBudget: ReportContextBudget | null;
  readonly templates: ReportTemplate | null;
  readonly nextTurn: NextTurnSimulation | null;
  readonly volatileVariables: string[];
  readonly dropped: readonly DroppedItem[];
}

/** Assembles `request` under both layouts and reports each stage; a stage that fails becomes a problem. */
export async function strataSections(
  request: AssemblyRequest,
  options: StrataOptions,
  problems: ReportProblem[],
): Promise<StrataSections> {
  const engine = request.template ? await loadTemplateEngine() : undefined;
  const render = inspectRenderer(engine, options);
  const a = await assemble(request, options, problems, render);
  const dropped: DroppedItem[] = [];
  let tiers: ReportTiers | null = null;
  let templates: ReportTemplate | null = null;
  let nextTurn: NextTurnSimulation | null = null;
  let volatileVariables: string[] = [];
  if (a.prepared?.tiers) {
    tiers = reportTiers(a.prepared.tiers);
    dropped.push(...tierDrops(tiers));
  }
  const contextBudget = reportContextBudget(a.explained);
  if (contextBudget) dropped.push(...contextBudget.omitted);
  if (a.prepared?.template && engine) {
    templates = engine.reportTemplate(a.prepared.template, problems);
    volatileVariables = templates.volatility.map((w) => w.variable);
  }
  if (options.nextTurn !== false && a.prepared) {
    try {
      nextTurn = await simulateNextTurnWith(
        a.req,
        {
          ...(options.nextTurn || DEFAULT_NEXT_TURN),
          ...(options.provider ? { provider: options.provider } : {}),
          ...(options.tokenEstimator ? { tokenEstimator: options.tokenEstimator } : {}),
          ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
          ...(options.model ? { model: options.model } : {}),
        },
        render,
      );
    } catch (e) {
      problems.push(problemFrom("assembly", e, "warning"));
    }
  }
  return {
    request: a.request,
    assembly: a.assembly,
    tiers,
    contextBudget,
    templates,
    nextTurn,
    volatileVariables,
    dropped,
  };
}

/** The previous turn, an `AssemblyRequest`, assembled in the layout the current one uses. */
export async function assembledPrevious(request: AssemblyRequest, options: StrataOptions): Promise<NormalizedRequest> {
  const engine = request.template ? await loadTemplateEngine() : undefined;
  const { prepared } = prepare(
    request,
    options,
    options.layout ?? request.inputLayout ?? "cache_aware",
    null,
    inspectRenderer(engine, options),
  );
  if (!prepared) throw new InvalidInputError("previous", "the previous AssemblyRequest cannot be assembled");
  return plainRequest((await explainProviderInput(prepared.options)).request);
}
