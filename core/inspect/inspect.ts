/**
 * `inspect(input, options)` → `InspectionReport`: one pure (async) function that parses a
 * request in any supported format and runs every analysis on it. The devtools and the edge
 * worker both call it; neither re-derives anything.
 *
 * Unparseable input throws `RequestFormatError` (with paths, line and column). Every later
 * stage that fails becomes a `problems` entry; the report keeps what the other stages found.
 */
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { applyBreakpoints, breakpointsFor } from "../cache/breakpoints.ts";
import { bundleTurn, compareTurns, type Turn, toTurn } from "../cache/compare.ts";
import { parseFingerprintBundle } from "./fingerprint-schema.ts";
import { bundleFromSegments, isFingerprintBundle } from "../cache/fingerprints.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { checkProvider, type SegmentedRequest } from "../cache/segments.ts";
import { simulateTurns, type TokenSource } from "../cache/simulate.ts";
import { countedMeasure, countOf, estimatorMeasure, type Measure } from "../cache/counted.ts";
import { completeCountKit, lazyCountKit } from "../tokens/count-lazy.ts";
import type { TokenCount } from "../tokens/types.ts";
import { checkDeadline } from "./deadline.ts";
import { DEFAULT_NEXT_TURN, inputMessages, replyMessage } from "./turn-edit.ts";
import type {
  BreakpointSuggestion,
  CacheRule,
  CacheSimulation,
  FingerprintBundle,
  NextTurnSimulation,
  PrefixComparison,
  RequestPart,
} from "../cache/types.ts";
import { providerHistoryIssues } from "../conversation/provider-history.ts";
import { partPreview, requestParts } from "../cache/parts.ts";
import type { PromptTier } from "../composer/tier-gate-types.ts";
import { reportLiterals } from "./report-literals.ts";
import { reportWindow } from "./report-window.ts";
import { type AssemblyListed, wireSections } from "./report-wire.ts";
import type { HistoryIssue } from "../conversation/errors.ts";
import { parsePrefixRequest, parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ParsedRequest, RequestFormat } from "../request/parse-request.ts";
import { DEFAULT_MAX_REQUEST_LENGTH } from "../formats/parse.ts";
import { RequestFormatError } from "../formats/errors.ts";
import { cutArrayValue } from "../util/json-cut.ts";
import { checkItemCount, DEFAULT_LIST_CAP, DEFAULT_MAX_ITEMS, ListCap, limitOption } from "./bounds.ts";
import { problemFrom, reportSegments } from "./report-parts.ts";
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
  type ReportTokens,
  type ReportUsage,
  type ReportTiers,
  type ReportWindow,
} from "./types.ts";
import type { StrataOptions } from "./strata.ts";

/** `inspect` options: those an `AssemblyRequest` uses too (`StrataOptions`), and the rest. */
export interface InspectOptions extends StrataOptions {
  /** The previous turn: JSON text, a request in any format, or a fingerprint bundle. */
  readonly previous?: unknown;
  /** Skip detection. */
  readonly format?: RequestFormat;
  /** Cache rule table and row (see `CACHE_RULES`). */
  readonly rules?: readonly CacheRule[];
  readonly ruleId?: string;
  /**
   * The provider's response to this request — its JSON body (text or parsed), its SSE stream as
   * text, or its `usage` object — for `report.usage`: predicted vs actual input and cached tokens.
   */
  readonly response?: unknown;
  /** Tiers of a wire request's system prompt sections, by section id (default `active`); see `report.tiers`. */
  readonly tiers?: Readonly<Record<string, PromptTier>>;
  /** Most messages and content blocks the request may hold (default 100,000); more is `InspectLimitError`. */
  readonly maxItems?: number;
  /** Most entries a report list keeps (default 1,000); longer lists are cut and named in `report.truncated`. */
  readonly listCap?: number;
}

/** The assembler and its report sections, loaded only for an `AssemblyRequest` (see strata.ts). */
type Strata = typeof import("./strata.ts");
const loadStrata = (): Promise<Strata> => import("./strata.ts");

/** Where the report's token figures come from, for the simulation's assumptions. */
const tokenSource = (measure: Measure, count: TokenCount | null): TokenSource =>
  measure.source === "estimator" ? "estimator" : count?.method === "exact" ? "exact" : "counted";

/** `report.tokens` from the request's count (or, with a `tokenEstimator`, its total alone). */
function tokensSection(seg: SegmentedRequest, count: TokenCount | null): ReportTokens {
  if (count === null)
    return {
      counter: "tokenEstimator",
      method: "estimate",
      total: seg.totalTokens,
      low: null,
      high: null,
      band: null,
      format: null,
      encoding: null,
      notes: [],
    };
  const { total, low, high } = count;
  return {
    counter: "countRequestTokens",
    method: count.method,
    total,
    low,
    high,
    band: total === 0 ? 0 : Math.round((Math.max(total - low, high - total) / total) * 1000) / 1000,
    format: count.format,
    encoding: count.encoding,
    notes: count.notes,
  };
}

/** The previous turn, made once: comparison, breakpoints and simulation all use it. */
interface PreviousTurn {
  readonly turn: Turn;
  /** Its segments, the current request's twin (null for a fingerprint bundle). */
  readonly seg: SegmentedRequest | null;
  readonly request: NormalizedRequest | null;
  readonly assembled: boolean;
  readonly kind: "request" | "fingerprints";
}

/**
 * options.previous → a turn for the comparison, made once: a bundle is parsed (every shape issue,
 * then the structural checks) and a request parsed or assembled, then segmented. A request that is
 * `current` (the inspected request, as read and as parsed) with fewer messages is derived from it
 * instead of read again (`parsePrefixRequest`), and shares its messages. It is made before
 * the current request is segmented, which then takes it as its twin (see `segmentWith`): the
 * segments both turns share are hashed once, and a current request that appends to the previous
 * one is counted on from the previous count (see `countTokensWith`) instead of from the start.
 */
async function previousTurn(
  previous: unknown,
  options: InspectOptions,
  measure: Measure,
  maxItems: number,
  ready: (request: NormalizedRequest) => Promise<void>,
  current: { readonly text: string | undefined; readonly value: unknown; readonly parsed: ParsedRequest },
): Promise<PreviousTurn> {
  const provider = measure.provider;
  // Read once: the value tells a bundle from a request, and a request is parsed from it. A text
  // that is the current text with its newest messages cut off is not parsed again (`cutArrayValue`).
  const value =
    typeof previous !== "string"
      ? previous
      : ((current.text === undefined ? undefined : cutArrayValue(previous, current.text, current.value)) ??
        readJson(previous));
  if (isFingerprintBundle(value))
    return {
      turn: bundleTurn(parseFingerprintBundle(value), provider, "previous"),
      seg: null,
      request: null,
      assembled: false,
      kind: "fingerprints",
    };
  // Most often the current request with fewer messages: derived from it, not read again.
  const parsed =
    parsePrefixRequest(value, current.value, current.parsed) ?? parseInput(previous, value, undefined, maxItems);
  let request: NormalizedRequest;
  let assembled = false;
  if (parsed.format !== "strata") request = parsed.request;
  else {
    request = await (await loadStrata()).assembledPrevious(parsed.request, options);
    assembled = true;
  }
  await ready(request);
  const seg = measure.segment(request);
  return {
    turn: toTurn(seg, provider, measure.partial, "previous"),
    seg,
    request,
    assembled,
    kind: "request",
  };
}

/**
 * `partPreview` of each part, made once: the report's parts list and its three traced orders show
 * the same parts (each order its first `listCap`).
 */
function partPreviews(request: NormalizedRequest, parts: number): (p: RequestPart) => string {
  // By part index: a list sized once, not a map growing an entry at a time.
  const made = new Array<string | undefined>(parts);
  return (p) => (made[p.index] ??= partPreview(request, p));
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
  return (await createInspection(input, options)).report();
}

/**
 * One analysis of a request, to report as often as needed with different list caps: a short
 * report first, then a longer one, from the same work (see `createInspection`).
 */
export interface Inspection {
  /**
   * The report, each list cut to `listCap` entries (default: the options' `listCap`, else
   * `DEFAULT_LIST_CAP`). Exactly what `inspect` gives with that cap; only the lists are made again.
   * Reports of one inspection share the sections that do not depend on the cap: treat them as
   * read-only.
   */
  report(listCap?: number): InspectionReport;
}

/**
 * `inspect`'s analysis without its report: parses, segments, counts, compares and simulates once;
 * `report(listCap)` then cuts the lists. For a caller that shows a short report first and the
 * whole one later (the devtools), the second costs the lists alone, not a second inspection.
 * Throws as `inspect` does; `report` throws only `InvalidInputError` for a bad `listCap`.
 */
export async function createInspection(input: unknown, options: InspectOptions = {}): Promise<Inspection> {
  checkDeadline(options);
  const maxItems = limitOption(options.maxItems, "maxItems", DEFAULT_MAX_ITEMS);
  const defaultCap = limitOption(options.listCap, "listCap", DEFAULT_LIST_CAP);
  const value = typeof input === "string" ? readJson(input) : input;
  const parsed = parseInput(input, value, options.format, maxItems);
  const problems: ReportProblem[] = [];
  const estimator = options.tokenEstimator;

  let request: NormalizedRequest | null;
  let assembly: ReportAssembly | null = null;
  /** A wire request's assembly section, its traced lists cut to a cap (see `wireSections`). */
  let wireAssembly: ((cap: number) => ReportAssembly) | null = null;
  let listed: AssemblyListed | null = null;
  let tiers: ReportTiers | null = null;
  let contextBudget: ReportContextBudget | null = null;
  let templates: ReportTemplate | null = null;
  let nextTurn: NextTurnSimulation | null = null;
  let volatileVariables: string[] = [];
  const dropped: DroppedItem[] = [];

  let strata: Strata | null = null;
  if (parsed.format === "strata") {
    strata = await loadStrata();
    const a = await strata.strataSections(parsed.request, options, problems);
    ({ request, assembly, tiers, contextBudget, templates, nextTurn, volatileVariables } = a);
    dropped.push(...a.dropped);
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
  let partPreviewOf: ((p: RequestPart) => string) | null = null;
  let window: ReportWindow | null = null;
  let volatileLiterals: ReportLiterals | null = null;
  let count: TokenCount | null = null;
  let tokens: ReportTokens | null = null;
  let usage: ReportUsage | null = null;
  if (request) {
    // Checked once here; the request itself was parsed or assembled, so it needs no shape check.
    const estimate = checkedTokenEstimator(estimator, "tokenEstimator");
    checkProvider(provider);
    const ruleOpts = {
      ...(options.rules ? { rules: options.rules } : {}),
      ...(options.ruleId ? { ruleId: options.ruleId } : {}),
    };
    // One counter for every figure: countRequestTokens per segment, or the caller's estimator. The
    // counter's media rules and exact OpenAI part load only for a request that needs them.
    const kit = lazyCountKit();
    const measure = estimator
      ? estimatorMeasure(provider, estimate)
      : countedMeasure(provider, estimate, kit, {
          ...(options.model ? { model: options.model } : {}),
          ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
        });
    const ready = (r: NormalizedRequest) =>
      estimator ? Promise.resolve() : completeCountKit(kit, r, options.tokenizer !== undefined);
    await ready(request);
    const partial = measure.partial;
    let prev: PreviousTurn | null = null;
    let previousError: unknown;
    if (options.previous !== undefined) {
      try {
        prev = await previousTurn(options.previous, options, measure, maxItems, ready, {
          text: typeof input === "string" ? input : undefined,
          value,
          parsed,
        });
      } catch (e) {
        previousError = e;
      }
    }
    seg = measure.segment(request, prev?.seg ?? undefined);
    count = countOf(seg);
    const turn = toTurn(seg, provider, partial);
    if (prev) {
      try {
        prefix = compareTurns(
          prev.turn,
          turn,
          { provider, ...(volatileVariables.length > 0 ? { template: { volatileVariables } } : {}) },
          partial,
        );
        previousKind = prev.kind;
      } catch (e) {
        prev = null;
        previousError = e;
      }
    }
    if (previousError !== undefined) problems.push(problemFrom("previous", previousError));
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
        breakpoints = breakpointsFor(request, ruleOpts, partial, prev ? prev.turn : null, seg);
        // An assembled request carries no markers (the host's adapter places them): simulate with the suggestions.
        if (parsed.format === "strata" && !seg.segments.some((s) => s.cacheBreakpoint)) {
          const marked = (r: NormalizedRequest, b: readonly BreakpointSuggestion[]) =>
            toTurn(measure.segment(applyBreakpoints(r, b)), provider, partial);
          const prevMarked =
            prev?.assembled && prev.request
              ? marked(
                  prev.request,
                  breakpointsFor(prev.request, ruleOpts, partial, null, measure.segment(prev.request)),
                )
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
        partial,
        { tokens: tokenSource(measure, count) },
      );
      cache = extra.length > 0 ? { ...sim, assumptions: [...sim.assumptions, ...extra] } : sim;
    } catch (e) {
      problems.push(problemFrom("cache", e));
    }
    try {
      history =
        parsed.format === "strata"
          ? strata!.historyIssues(request.messages)
          : providerHistoryIssues(request.messages, parsed.format);
    } catch (e) {
      problems.push(problemFrom("history", e));
    }
    // The parts of the request (for an assembled one only to find its stable text). Previews are
    // made for the parts the report keeps (below, and the traced messages in wireSections).
    const requestPartList = requestParts(request, seg, false);
    partPreviewOf = partPreviews(request, requestPartList.length);
    if (parsed.format !== "strata") {
      parts = { parts: requestPartList };
      const wire = wireSections(
        request,
        seg,
        requestPartList,
        provider,
        measure,
        {
          ...(options.contextBudget !== undefined ? { contextBudget: options.contextBudget } : {}),
          ...(options.tiers ? { tiers: options.tiers } : {}),
          ...(options.tierBudget !== undefined ? { tierBudget: options.tierBudget } : {}),
          preview: partPreviewOf,
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
      wireAssembly = wire.assembly;
      listed = wire.listed;
      nextTurn = wire.nextTurn;
      contextBudget = wire.contextBudget;
      tiers = wire.tiers;
      dropped.push(...wire.dropped);
    }
    window = reportWindow(request, model, provider, seg.totalTokens, problems);
    tokens = tokensSection(seg, count);
    if (options.response !== undefined) {
      try {
        // The usage readers load only for a report that has a response.
        const { usageSection } = await import("./report-usage.ts");
        usage = usageSection(options.response, parsed.format, provider, tokens, cache, prev !== null, problems);
      } catch (e) {
        problems.push(problemFrom("usage", e));
      }
    }
    volatileLiterals = reportLiterals(request, requestPartList, prev?.request ?? null);
  }

  const report = (listCap?: number): InspectionReport => {
    const bound = new ListCap(listCap === undefined ? defaultCap : limitOption(listCap, "listCap", DEFAULT_LIST_CAP));
    const segments = seg && request ? reportSegments(seg, request, bound) : null;
    // A bundle cut short would compare wrongly: with more segments than the cap there is none (and
    // the segments past the cap are never hashed).
    let fingerprints: FingerprintBundle | null = null;
    if (seg && seg.segments.length > bound.cap) bound.omit("fingerprints", seg.segments.length);
    else if (seg) fingerprints = bundleFromSegments(seg);
    const shownAssembly = wireAssembly ? wireAssembly(bound.cap) : assembly;
    return {
      reportVersion: REPORT_VERSION,
      format: parsed.format,
      provider,
      model,
      settings: {
        provider,
        model,
        layout: shownAssembly?.selectedLayout ?? "cache_aware",
        tokenEstimator: estimator ? "custom" : "default",
        previous: previousKind,
        cacheRuleId: cache?.rule.id ?? "",
      },
      request,
      parts:
        parts && request
          ? { parts: bound.list(parts.parts, "parts.parts").map((p) => ({ ...p, preview: partPreviewOf!(p) })) }
          : null,
      assembly: shownAssembly ? boundAssembly(shownAssembly, bound, listed) : null,
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
      tokens,
      usage,
      fingerprints,
      problems,
      truncated: bound.truncated,
    };
  };
  return { report };
}

/**
 * The assembly section with each layout's traced messages and omissions cut to the cap; `listed`:
 * how many messages a wire request's lists have (they come cut already, see `wireSections`).
 */
function boundAssembly(assembly: ReportAssembly, bound: ListCap, listed: AssemblyListed | null): ReportAssembly {
  const trace = (t: LayoutTrace | null, path: string, total: number | undefined): LayoutTrace | null =>
    t && {
      ...t,
      messages: bound.list(t.messages, `${path}.messages`, total),
      omissions: bound.list(t.omissions, `${path}.omissions`),
    };
  return {
    ...assembly,
    legacy: trace(assembly.legacy, "assembly.legacy", listed?.legacy),
    cache_aware: trace(assembly.cache_aware, "assembly.cache_aware", listed?.cache_aware),
    asSent: assembly.asSent && {
      ...assembly.asSent,
      messages: bound.list(assembly.asSent.messages, "assembly.asSent.messages", listed?.asSent),
    },
  };
}
