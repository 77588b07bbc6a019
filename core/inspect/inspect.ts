/**
 * `inspect(input, options)` → `InspectionReport`: one pure (async) function that parses a
 * request in any supported format and runs every analysis on it. The devtools and the edge
 * worker both call it; neither re-derives anything.
 *
 * Unparseable input throws `RequestFormatError` (with paths, line and column). Every later
 * stage that fails becomes a `problems` entry; the report keeps what the other stages found.
 */
import { explainProviderInput } from "../assembly/assemble.ts";
import type { ExplainedProviderInput } from "../assembly/trace.ts";
import { checkedTokenEstimator, type TokenEstimator } from "../tokens/estimate.ts";
import { applyBreakpoints, breakpointsFor } from "../cache/breakpoints.ts";
import { bundleTurn, compareTurns, type Turn, toTurn } from "../cache/compare.ts";
import { parseFingerprintBundle } from "./fingerprint-schema.ts";
import { bundleFromSegments, isFingerprintBundle } from "../cache/fingerprints.ts";
import { simulateNextTurnWith } from "./next-turn.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { checkProvider, type SegmentedRequest, segmentLazily } from "../cache/segments.ts";
import { simulateTurns } from "../cache/simulate.ts";
import { DEFAULT_SIMULATED_NEXT_INPUT, DEFAULT_SIMULATED_REPLY, inputMessages, replyMessage } from "./turn-edit.ts";
import type {
  BreakpointSuggestion,
  CacheProvider,
  CacheRule,
  CacheSimulation,
  FingerprintBundle,
  NextTurnSimulation,
  PrefixComparison,
} from "../cache/types.ts";
import { historyIssues } from "../conversation/history.ts";
import { providerHistoryIssues } from "../conversation/provider-history.ts";
import { partPreview, requestParts } from "../cache/parts.ts";
import type { PromptTier } from "../composer/tier-gate-types.ts";
import { reportLiterals } from "./report-literals.ts";
import { reportWindow } from "./report-window.ts";
import { wireSections } from "./report-wire.ts";
import type { HistoryIssue } from "../conversation/errors.ts";
import { InvalidInputError } from "../util/errors.ts";
import { TemplateError } from "../templates/errors.ts";
import { type AssemblyTemplateRenderer, type PreparedAssembly, prepareAssemblyWith } from "../request/prepare-with.ts";
import type { AssemblyRequest, ContextBudgetJson, TierBudgetJson } from "../request/assembly-request.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ParsedRequest, RequestFormat } from "../request/parse-request.ts";
import { DEFAULT_MAX_REQUEST_LENGTH } from "../formats/parse.ts";
import { RequestFormatError } from "../formats/errors.ts";
import { checkItemCount, DEFAULT_LIST_CAP, DEFAULT_MAX_ITEMS, ListCap, limitOption } from "./bounds.ts";
import {
  budgetSection,
  layoutTrace,
  omissionItem,
  plainRequest,
  problemFrom,
  reportSegments,
  tierDrops,
  reportTiers,
} from "./report-parts.ts";
import {
  type ReportAssembly,
  type ReportContextBudget,
  type DroppedItem,
  type InspectionReport,
  type LayoutTrace,
  REPORT_VERSION,
  type ReportLiterals,
  type ReportParts,
  type ReportProblem,
  type ReportTemplate,
  type ReportTiers,
  type ReportWindow,
} from "./types.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";

export interface InspectOptions {
  /** The previous turn: JSON text, a request in any format, or a fingerprint bundle. */
  readonly previous?: unknown;
  /** Whose cache rules and prompt order to use; default inferred from the format / model. */
  readonly provider?: CacheProvider;
  /** Model id for cache rules; default the request's. */
  readonly model?: string;
  readonly tokenEstimator?: TokenEstimator;
  /** Tier budget override for `sections` (a number is `totalBudget`; null = no limit). */
  readonly tierBudget?: number | null | TierBudgetJson;
  /** Context budget override; null removes the request's. */
  readonly contextBudget?: ContextBudgetJson | null;
  /** Layout of `report.request` for an `AssemblyRequest`; default the request's, else `cache_aware`. */
  readonly layout?: InputAssemblyLayout;
  /** Skip detection. */
  readonly format?: RequestFormat;
  /** Cache rule table and row (see `CACHE_RULES`). */
  readonly rules?: readonly CacheRule[];
  readonly ruleId?: string;
  /** Reply and next input for the next-turn simulation of an `AssemblyRequest`; `false` skips it. */
  readonly nextTurn?: false | { readonly reply: string; readonly nextInput: string };
  /** Tiers of a wire request's system prompt sections, by section id (default `active`); see `report.tiers`. */
  readonly tiers?: Readonly<Record<string, PromptTier>>;
  /**
   * Wall-clock guard of each template render, in milliseconds (default 1,000): past it the render
   * stops with a `template_deadline` problem. Backs the deterministic work limit; see the README.
   */
  readonly deadlineMs?: number;
  /** The deadline's clock in milliseconds (default `performance.now`). */
  readonly clock?: () => number;
  /** Most messages and content blocks the request may hold (default 100,000); more is `InspectLimitError`. */
  readonly maxItems?: number;
  /** Most entries a report list keeps (default 1,000); longer lists are cut and named in `report.truncated`. */
  readonly listCap?: number;
}

/** Default `deadlineMs` of a template render in `inspect`. */
export const DEFAULT_INSPECT_DEADLINE_MS = 1_000;

/** The default next turn: placeholders, so the picture only shows layout effects. */
const DEFAULT_NEXT_TURN = { reply: DEFAULT_SIMULATED_REPLY, nextInput: DEFAULT_SIMULATED_NEXT_INPUT };

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
function inspectRenderer(engine: TemplateEngine | undefined, options: InspectOptions) {
  if (engine === undefined) return undefined;
  const deadlineMs = options.deadlineMs ?? DEFAULT_INSPECT_DEADLINE_MS;
  return engine.renderOnce({ deadlineMs, ...(options.clock ? { clock: options.clock } : {}) });
}

function checkDeadline(options: InspectOptions): void {
  const { deadlineMs, clock } = options;
  if (deadlineMs !== undefined && (typeof deadlineMs !== "number" || !Number.isFinite(deadlineMs) || deadlineMs <= 0))
    throw new InvalidInputError("deadlineMs", `must be a positive number of milliseconds, got ${String(deadlineMs)}.`);
  if (clock !== undefined && typeof clock !== "function")
    throw new InvalidInputError("clock", "must be a function returning milliseconds (like performance.now).");
}

/** prepareAssembly, dropping the template or the sections when they are what fails. */
function prepare(
  request: AssemblyRequest,
  options: InspectOptions,
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
  options: InspectOptions,
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

/**
 * options.previous → a turn for the comparison, made once: a bundle is parsed (every shape issue,
 * then the structural checks) and a request parsed or assembled, then segmented (with `current`
 * as its twin, see `segmentWith`).
 */
async function previousTurn(
  previous: unknown,
  options: InspectOptions,
  provider: CacheProvider,
  estimate: TokenEstimator,
  current: SegmentedRequest,
  maxItems: number,
): Promise<{ turn: Turn; request: NormalizedRequest | null; assembled: boolean; kind: "request" | "fingerprints" }> {
  // Read once: the value tells a bundle from a request, and a request is parsed from it.
  const value = typeof previous === "string" ? readJson(previous) : previous;
  if (isFingerprintBundle(value))
    return {
      turn: bundleTurn(parseFingerprintBundle(value), provider, "previous"),
      request: null,
      assembled: false,
      kind: "fingerprints",
    };
  const parsed = parseInput(previous, value, undefined, maxItems);
  let request: NormalizedRequest;
  let assembled = false;
  if (parsed.format !== "strata") request = parsed.request;
  else {
    const engine = parsed.request.template ? await loadTemplateEngine() : undefined;
    const { prepared } = prepare(
      parsed.request,
      options,
      options.layout ?? parsed.request.inputLayout ?? "cache_aware",
      null,
      inspectRenderer(engine, options),
    );
    if (!prepared) throw new InvalidInputError("previous", "the previous AssemblyRequest cannot be assembled");
    request = plainRequest((await explainProviderInput(prepared.options)).request);
    assembled = true;
  }
  // Segmented with the current request as twin: the segments both turns share are hashed once.
  return {
    turn: toTurn(segmentLazily(request, provider, estimate, current), provider, estimate, "previous"),
    request,
    assembled,
    kind: "request",
  };
}

/** JSON text read with the engine's parser; the text itself when that fails (its error is `parseRequest`'s to give). */
function readJson(text: string): unknown {
  if (text.length > DEFAULT_MAX_REQUEST_LENGTH) return text;
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return text;
  }
}

/**
 * `input` parsed once: `value` is it read by `readJson` (or `input` itself when not text); its
 * messages are counted (`checkItemCount`) before anything is built, and it goes to `parseRequest`.
 * Any failure is the one `parseRequest` gives for the text (located syntax errors, limits).
 */
function parseInput(
  input: unknown,
  value: unknown,
  format: RequestFormat | undefined,
  maxItems: number,
): ParsedRequest {
  const parseOptions = format ? { format } : {};
  if (typeof value === "string") return parseRequest(input, parseOptions);
  checkItemCount(value, maxItems);
  if (value === input) return parseRequest(value, parseOptions);
  try {
    return parseRequest(value, parseOptions);
  } catch (e) {
    // The text's own error (e.g. a located "too deep"), exactly as parsing the text gives it.
    if (e instanceof RequestFormatError) return parseRequest(input, parseOptions);
    throw e;
  }
}

/**
 * Inspects one request. Throws `RequestFormatError` only when `input` cannot be parsed, and
 * `InspectLimitError` when it holds more than `options.maxItems` messages and blocks.
 */
export async function inspect(input: unknown, options: InspectOptions = {}): Promise<InspectionReport> {
  checkDeadline(options);
  const maxItems = limitOption(options.maxItems, "maxItems", DEFAULT_MAX_ITEMS);
  const bound = new ListCap(limitOption(options.listCap, "listCap", DEFAULT_LIST_CAP));
  const parsed = parseInput(input, typeof input === "string" ? readJson(input) : input, options.format, maxItems);
  const problems: ReportProblem[] = [];
  const estimator = options.tokenEstimator;

  let request: NormalizedRequest | null;
  let assembly: ReportAssembly | null = null;
  let tiers: ReportTiers | null = null;
  let contextBudget: ReportContextBudget | null = null;
  let templates: ReportTemplate | null = null;
  let nextTurn: NextTurnSimulation | null = null;
  let volatileVariables: string[] = [];
  const dropped: DroppedItem[] = [];

  if (parsed.format === "strata") {
    const engine = parsed.request.template ? await loadTemplateEngine() : undefined;
    const render = inspectRenderer(engine, options);
    const a = await assemble(parsed.request, options, problems, render);
    request = a.request;
    assembly = a.assembly;
    if (a.prepared?.tiers) {
      tiers = reportTiers(a.prepared.tiers);
      dropped.push(...tierDrops(tiers));
    }
    contextBudget = reportContextBudget(a.explained);
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
            ...(estimator ? { tokenEstimator: estimator } : {}),
          },
          render,
        );
      } catch (e) {
        problems.push(problemFrom("assembly", e, "warning"));
      }
    }
  } else {
    request = parsed.request;
    // Blocks kept verbatim because Strata does not know their type: named, with their wire path.
    for (const w of parsed.warnings)
      problems.push({ stage: "parse", code: w.code, severity: "warning", message: w.message, path: w.path });
  }

  const modelRef = request?.model ?? (parsed.format === "strata" ? parsed.request.model : { provider: "", model: "" });
  const provider = options.provider ?? inferCacheProvider(parsed.format, modelRef.provider, modelRef.model);
  const model = options.model ?? modelRef.model;

  let seg: SegmentedRequest | null = null;
  let prefix: PrefixComparison | null = null;
  let cache: CacheSimulation | null = null;
  let previousKind: "none" | "request" | "fingerprints" = "none";
  let history: HistoryIssue[] = [];
  let breakpoints: BreakpointSuggestion[] | null = null;
  let parts: ReportParts | null = null;
  let window: ReportWindow | null = null;
  let volatileLiterals: ReportLiterals | null = null;
  if (request) {
    // Checked once here; the request itself was parsed or assembled, so it needs no shape check.
    const estimate = checkedTokenEstimator(estimator, "tokenEstimator");
    checkProvider(provider);
    const ruleOpts = {
      ...(options.rules ? { rules: options.rules } : {}),
      ...(options.ruleId ? { ruleId: options.ruleId } : {}),
    };
    seg = segmentLazily(request, provider, estimate);
    const turn = toTurn(seg, provider, estimate);
    let prev: Awaited<ReturnType<typeof previousTurn>> | null = null;
    if (options.previous !== undefined) {
      try {
        // The previous turn is made once; comparison, breakpoints and simulation all use it.
        prev = await previousTurn(options.previous, options, provider, estimate, seg, maxItems);
        prefix = compareTurns(
          prev.turn,
          turn,
          { provider, ...(volatileVariables.length > 0 ? { template: { volatileVariables } } : {}) },
          estimate,
        );
        previousKind = prev.kind;
      } catch (e) {
        prev = null;
        problems.push(problemFrom("previous", e));
      }
    }
    let simulated: Turn[] = prev ? [prev.turn, turn] : [turn];
    const extra: string[] = [];
    // Gemini explicit caching: the named cache's contents are not in the body; Google bills them as cached.
    const cached = request.providerOptions?.cachedContent ?? request.providerOptions?.cached_content;
    // OpenAI's prompt_cache_key is no cache marker: it picks which cache machine the prefix is looked up on.
    if (provider === "openai" && request.cacheKey !== undefined)
      extra.push(
        `prompt_cache_key ${JSON.stringify(request.cacheKey)} is a routing key, not a marker: OpenAI sends requests with the same key and prefix to the same cache, so turns here share a cache only if they send this same key.`,
      );
    if (provider === "gemini" && typeof cached === "string")
      extra.push(
        `The request names the explicit cache ${JSON.stringify(cached)}: its tokens (not in this body) count as cached on every turn (usageMetadata.cachedContentTokenCount, billed at the cached rate plus storage); the turns here count only the body's own tokens.`,
      );
    if (provider === "anthropic") {
      try {
        breakpoints = breakpointsFor(request, ruleOpts, estimate, prev ? prev.turn : null);
        // An assembled request carries no markers (the host's adapter places them): simulate with the suggestions.
        if (parsed.format === "strata" && !seg.segments.some((s) => s.cacheBreakpoint)) {
          const marked = (r: NormalizedRequest, b: readonly BreakpointSuggestion[]) =>
            toTurn(segmentLazily(applyBreakpoints(r, b), provider, estimate), provider, estimate);
          const prevMarked =
            prev?.assembled && prev.request
              ? marked(prev.request, breakpointsFor(prev.request, ruleOpts, estimate, null))
              : prev?.turn;
          simulated = prevMarked ? [prevMarked, marked(request, breakpoints)] : [marked(request, breakpoints)];
          extra.push(
            breakpoints.length > 0
              ? `The assembled request has no cache_control markers; simulated with the suggested breakpoints (${breakpoints.map((b) => b.path).join(", ")}).`
              : "The assembled request has no cache_control markers and no prefix reaches the minimum, so no breakpoint was suggested.",
          );
        }
      } catch (e) {
        problems.push(problemFrom("cache", e, "warning"));
      }
    }
    try {
      const sim = simulateTurns(
        simulated,
        { provider, model, ...ruleOpts, ...(estimator ? { tokenEstimator: estimator } : {}) },
        estimate,
      );
      cache = extra.length > 0 ? { ...sim, assumptions: [...sim.assumptions, ...extra] } : sim;
    } catch (e) {
      problems.push(problemFrom("cache", e));
    }
    try {
      history =
        parsed.format === "strata"
          ? historyIssues(request.messages)
          : providerHistoryIssues(request.messages, parsed.format);
    } catch (e) {
      problems.push(problemFrom("history", e));
    }
    // The parts of the request (for an assembled one only to find its stable text). Previews are
    // made for the parts the report keeps (below, and the traced messages in wireSections).
    const requestPartList = requestParts(request, seg, false);
    if (parsed.format !== "strata") {
      parts = { parts: requestPartList };
      const wire = wireSections(
        request,
        seg,
        requestPartList,
        provider,
        estimate,
        {
          ...(options.contextBudget !== undefined ? { contextBudget: options.contextBudget } : {}),
          ...(options.tiers ? { tiers: options.tiers } : {}),
          ...(options.tierBudget !== undefined ? { tierBudget: options.tierBudget } : {}),
          listCap: bound.cap,
          nextTurn:
            options.nextTurn === false
              ? null
              : {
                  reply: replyMessage((options.nextTurn || DEFAULT_NEXT_TURN).reply),
                  nextInput: inputMessages((options.nextTurn || DEFAULT_NEXT_TURN).nextInput),
                },
        },
        problems,
      );
      assembly = wire.assembly;
      nextTurn = wire.nextTurn;
      contextBudget = wire.contextBudget;
      tiers = wire.tiers;
      dropped.push(...wire.dropped);
    }
    window = reportWindow(request, model, provider, seg.totalTokens, problems);
    volatileLiterals = reportLiterals(request, requestPartList, prev?.request ?? null);
  }

  const segments = seg && request ? reportSegments(seg, request, bound) : null;
  // A bundle cut short would compare wrongly: with more segments than the cap there is none (and
  // the segments past the cap are never hashed).
  let fingerprints: FingerprintBundle | null = null;
  if (seg && seg.segments.length > bound.cap) bound.omit("fingerprints", seg.segments.length);
  else if (seg) fingerprints = bundleFromSegments(seg);
  return {
    reportVersion: REPORT_VERSION,
    format: parsed.format,
    provider,
    model,
    settings: {
      provider,
      model,
      layout: assembly?.selectedLayout ?? "cache_aware",
      tokenEstimator: estimator ? "custom" : "default",
      previous: previousKind,
      cacheRuleId: cache?.rule.id ?? "",
    },
    request,
    parts:
      parts && request
        ? { parts: bound.list(parts.parts, "parts.parts").map((p) => ({ ...p, preview: partPreview(request, p) })) }
        : null,
    assembly: assembly ? boundAssembly(assembly, bound) : null,
    tiers: tiers ? { ...tiers, rows: bound.list(tiers.rows, "tiers.rows") } : null,
    contextBudget: contextBudget
      ? { ...contextBudget, omitted: bound.list(contextBudget.omitted, "contextBudget.omitted") }
      : null,
    window,
    dropped: bound.list(dropped, "dropped"),
    segments,
    prefix,
    cache,
    breakpoints,
    nextTurn,
    history: {
      rules: parsed.format === "strata" ? "strata" : parsed.format,
      issues: bound.list(history, "history.issues"),
    },
    templates,
    volatileLiterals: volatileLiterals
      ? { ...volatileLiterals, scanned: bound.list(volatileLiterals.scanned, "volatileLiterals.scanned") }
      : null,
    fingerprints,
    problems,
    truncated: bound.truncated,
  };
}

/** The assembly section with each layout's traced messages and omissions cut to the cap. */
function boundAssembly(assembly: ReportAssembly, bound: ListCap): ReportAssembly {
  const trace = (t: LayoutTrace | null, path: string): LayoutTrace | null =>
    t && {
      ...t,
      messages: bound.list(t.messages, `${path}.messages`),
      omissions: bound.list(t.omissions, `${path}.omissions`),
    };
  return {
    ...assembly,
    legacy: trace(assembly.legacy, "assembly.legacy"),
    cache_aware: trace(assembly.cache_aware, "assembly.cache_aware"),
    asSent: assembly.asSent && {
      ...assembly.asSent,
      messages: bound.list(assembly.asSent.messages, "assembly.asSent.messages"),
    },
  };
}
