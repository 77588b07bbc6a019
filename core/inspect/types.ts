/**
 * The `InspectionReport`: everything `inspect()` finds out about one request, as plain
 * JSON (no functions, no `undefined`, no `Infinity`). Every key is always present;
 * a section that does not apply is `null`. The devtools and the edge worker draw
 * this report and never re-derive anything from the request.
 *
 * Stability: adding a key bumps nothing; renaming, removing or changing the meaning of
 * a key bumps `REPORT_VERSION`.
 */
import type { OutOfPlace, PartsNextTurn } from "../cache/part-layout.ts";
import type {
  BreakpointSuggestion,
  CacheProvider,
  CacheSimulation,
  FingerprintBundle,
  NextTurnSimulation,
  PrefixComparison,
  ReportSegment,
  RequestPart,
} from "../cache/types.ts";
import type { HistoryIssue } from "../conversation/errors.ts";
import type { NormalizedRequest, WireFormat } from "../formats/types.ts";
import type { LiteralVolatility } from "../templates/literal-volatility.ts";
import type { RequestFormat } from "../request/parse-request.ts";
import type { Role } from "../messages/types.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";
import type { CountMethod, TokenFormat, TokenNote } from "../tokens/types.ts";
import type { Usage, UsageFormat } from "../tokens/usage.ts";

/**
 * 2: a wire request (OpenAI Chat / Responses, Anthropic, Gemini) gets every section an
 * `AssemblyRequest` gets — `parts` (new), `assembly` (its own order, the layout it follows, both
 * layouts re-laid), `contextBudget` and `dropped` under caps, `nextTurn`, `tiers` (its system prompt
 * in sections); new `window` (the model's context window) and `volatileLiterals`; history issues
 * follow each provider's own rules (`history.rules`); problems may have stage `budget`.
 */
/**
 * 3: bounded reports. Every per-message or per-segment list (`segments.segments`, `parts.parts`,
 * the traced messages and omissions of `assembly`, `dropped`, `contextBudget.omitted`,
 * `tiers.rows`, `history.issues`, `volatileLiterals.scanned`) keeps at most `listCap` entries
 * (default 1,000); a list cut short is named in the new `truncated`, with its full count. A
 * request with more segments than the cap has `fingerprints: null` (a bundle cut short would
 * compare wrongly), also named in `truncated`. A request with more than `maxItems` messages and
 * blocks (default 100,000) is refused (`InspectLimitError`, code `too_many_messages`).
 *
 * 4: every token figure (segments, prefixes, the cache minimum and simulation, parts, the context
 * budget of a wire request, the window, next turns) is `countRequestTokens`' per segment — the
 * tokens the provider bills, exact for OpenAI with a `tokenizer` — instead of ÷4, unless a
 * `tokenEstimator` is given; new `tokens` (method and band) and `usage` (predicted vs actual).
 */
export const REPORT_VERSION = 4 as const;

/** A report list cut to `listCap` entries (`shown` 0: the section is null, see its doc). */
export interface ReportTruncation {
  readonly kind: "truncated";
  /** The list in the report, e.g. `segments.segments`, `assembly.asSent.messages`, `fingerprints`. */
  readonly path: string;
  /** Entries the full list has, and how many the report keeps (its first ones). */
  readonly total: number;
  readonly shown: number;
}

export interface InspectionReport {
  readonly reportVersion: typeof REPORT_VERSION;
  /** What `parseRequest` detected. */
  readonly format: RequestFormat;
  /** Provider whose cache rules and prompt order were used (option, else inferred from format/model). */
  readonly provider: CacheProvider;
  /** Model id used for cache rules (option, else the request's). */
  readonly model: string;
  /** The options that shaped the report, echoed back. */
  readonly settings: InspectionSettings;
  /**
   * The normalized request: for wire formats the parsed request, for a Strata
   * `AssemblyRequest` the assembled one (in `settings.layout`). Null when assembly failed
   * (see `problems`).
   */
  readonly request: NormalizedRequest | null;
  /** A wire request's parts in Strata's part kinds (see `requestParts`); null for an `AssemblyRequest`. */
  readonly parts: ReportParts | null;
  /**
   * Both layouts: for an `AssemblyRequest` as assembled, for a wire request its parts re-laid (and
   * `asSent`: its own order and the layout it follows). Null when there is no request.
   */
  readonly assembly: ReportAssembly | null;
  /**
   * Tier gating rows: an `AssemblyRequest`'s `sections`, or a wire request's system prompt split
   * into sections (`options.tiers` assigns their tiers, default `active`). Null when there are none.
   */
  readonly tiers: ReportTiers | null;
  /** Context-budget accounting; null unless the `AssemblyRequest` or `options.contextBudget` sets a cap. */
  readonly contextBudget: ReportContextBudget | null;
  /** The request against its model's context window (the model table); null when there is no request. */
  readonly window: ReportWindow | null;
  /** Everything that was left out, from every stage, with reasons and the arithmetic that decided it. */
  readonly dropped: readonly DroppedItem[];
  /** The request in provider prompt order; null when there is no request. */
  readonly segments: ReportSegments | null;
  /** Comparison with `options.previous`; null without one. */
  readonly prefix: PrefixComparison | null;
  /**
   * Cache simulation over [previous?, this request]; null when there is no request. An assembled
   * (Strata) request carries no cache markers: for Anthropic it is simulated with `breakpoints`
   * applied (see `cache.assumptions`).
   */
  readonly cache: CacheSimulation | null;
  /** Anthropic only: where `cache_control` breakpoints pay off (`suggestCacheBreakpoints`, with `previous` when given). */
  readonly breakpoints: readonly BreakpointSuggestion[] | null;
  /** This turn and a simulated next one under both layouts; null when there is no request. */
  readonly nextTurn: NextTurnSimulation | null;
  /** History validation of the request's messages (always run). */
  readonly history: ReportHistory;
  /** Template rendering and volatility; null unless the `AssemblyRequest` has a `template`. */
  readonly templates: ReportTemplate | null;
  /** Volatile-looking values in the literal text of the stable part of the prompt; null when there is no request. */
  readonly volatileLiterals: ReportLiterals | null;
  /** How the token figures were counted (exact or estimate) and their band; null when there is no request. */
  readonly tokens: ReportTokens | null;
  /** The provider's reported usage (`options.response`) against the prediction; null without a response. */
  readonly usage: ReportUsage | null;
  /** Hash-only bundle of this request, safe to share; null when there is no request. */
  readonly fingerprints: FingerprintBundle | null;
  /** Stages that failed or warned; the report still holds what the other stages found. */
  readonly problems: readonly ReportProblem[];
  /** Lists cut to `listCap` entries (see `REPORT_VERSION`); empty when every list is whole. */
  readonly truncated: readonly ReportTruncation[];
}

export interface InspectionSettings {
  readonly provider: CacheProvider;
  readonly model: string;
  /** Layout of `request` (Strata input only; `cache_aware` otherwise). */
  readonly layout: InputAssemblyLayout;
  /** `default` = `countRequestTokens` per segment (see `tokens`); `custom` = an injected `tokenEstimator`. */
  readonly tokenEstimator: "default" | "custom";
  /** What `options.previous` was: nothing, a request, or a fingerprint bundle. */
  readonly previous: "none" | "request" | "fingerprints";
  /** Id of the cache rule row used. */
  readonly cacheRuleId: string;
}

/** Assembly of a Strata `AssemblyRequest`, or a wire request's parts, under both layouts. */
export interface ReportAssembly {
  /** The layout `request` was assembled with; for a wire request the one it follows (`cache_aware` when both or neither). */
  readonly selectedLayout: InputAssemblyLayout;
  /** Null for a layout whose assembly failed, or a wire request that cannot be re-laid (see `asSent.cannotRelay`). */
  readonly legacy: LayoutTrace | null;
  readonly cache_aware: LayoutTrace | null;
  /** A wire request's own order; null for an `AssemblyRequest`. */
  readonly asSent: WireOrder | null;
}

/** A wire request's parts in the order it sent them, and which layout that order follows. */
export interface WireOrder {
  /** The message parts as sent (tool parts are listed in `parts`, the catalog never moves). */
  readonly messages: readonly TracedMessage[];
  /** Layouts whose group order the request follows: both, one, or none. */
  readonly follows: readonly InputAssemblyLayout[];
  /** Per layout, the first part out of place; null where the request follows it. */
  readonly outOfPlace: Readonly<Record<InputAssemblyLayout, OutOfPlace | null>>;
  /** Why the parts cannot be re-laid (an `unknown` part); null when they can. */
  readonly cannotRelay: string | null;
  /**
   * This turn and the next in the request's own order: laid out by the layout it follows (`basis`),
   * or, when it follows none, with the reply and next input appended. Compare with
   * `nextTurn.cache_aware`, the same parts re-laid. Null when it could not be simulated.
   */
  readonly nextTurn: PartsNextTurn | null;
}

export interface LayoutTrace {
  readonly layout: InputAssemblyLayout;
  /** Every output message in order, with where it came from. */
  readonly messages: readonly TracedMessage[];
  /** What this layout's assembly left out (context-budget omissions). */
  readonly omissions: readonly DroppedItem[];
  readonly totalChars: number;
  readonly totalBytes: number;
  readonly totalTokens: number;
}

export interface TracedMessage {
  /** Index in the assembled `messages`; for a wire request's parts, the position in this order. */
  readonly index: number;
  /** `messages[i]` of the assembled request; a wire part's own path (`messages[3].content[0..1]`). */
  readonly path: string;
  /** Index in `report.parts.parts` for a wire request; null for an assembled message. */
  readonly part: number | null;
  readonly role: Role;
  /**
   * Provenance, as the assembly trace names it: `instructions`, `context:<id>`, `skill:<name>`,
   * `tools`, `attachment:<name>`, `resource:<uri>`, `summary`, `history:<index>`,
   * `toolResult:<toolCallId>`, `input`, `tail:<id>`.
   */
  readonly source: string;
  /** The part of `source` before the first `:` (`history`, `attachment`, …). */
  readonly sourceKind: string;
  /** UTF-16 length of the message's text blocks. */
  readonly chars: number;
  /** UTF-8 bytes of the message's text blocks. */
  readonly bytes: number;
  readonly tokens: number;
  /** Up to 80 characters of the message's text. */
  readonly preview: string;
}

/** The tier gate's decision for every candidate section (the composer's explanation). */
export interface ReportTiers {
  /** `sections` of an `AssemblyRequest`, or `instructions`: a wire request's system prompt split by `splitPromptSections`. */
  readonly origin: "sections" | "instructions";
  /** Null when the budget is unlimited. */
  readonly effectiveBudget: number | null;
  /** `coreChars + floor((budget - coreChars) × activeBudgetFraction)`; null when unlimited. */
  readonly activeCeiling: number | null;
  readonly activeBudgetFraction: number;
  readonly coreChars: number;
  /** Sum of included sections' chars (separators not counted). */
  readonly totalChars: number;
  readonly totalTokensEst: number;
  /** `totalChars / budget × 100`, 2 decimals; 0 with no limit; null when the budget is 0 and something is included. */
  readonly budgetUsedPct: number | null;
  /** Core sections alone exceed the budget (they are still included). */
  readonly overflowed: boolean;
  readonly rows: readonly TierRow[];
  /** UTF-16 length of the composed system prompt (`included` joined by "\n\n"). */
  readonly composedChars: number;
  readonly composedSha256: string;
}

export interface TierRow {
  readonly id: string;
  /** A wire system prompt's section: its heading, tag or first words, and where it sits; null for `sections`. */
  readonly title: string | null;
  /** `sections[i]`, or the text block the section was cut from (`messages[0].content[0]`). */
  readonly path: string;
  /** UTF-16 offsets of the section in the text at `path`; null for `sections`. */
  readonly start: number | null;
  readonly end: number | null;
  readonly tier: "core" | "active" | "informational";
  readonly chars: number;
  /** Running total of included chars before this candidate. */
  readonly runningBefore: number;
  /** What the candidate was tested against: nothing (core), the active ceiling, or the budget. */
  readonly limitKind: "none" | "ceiling" | "budget";
  /** The limit's value; null for `none` or an unlimited budget. */
  readonly limit: number | null;
  readonly verdict: "included" | "dropped";
  /** The arithmetic in words, e.g. `1200 + 900 = 2100 > ceiling 1900`. */
  readonly reason: string;
}

export interface ReportContextBudget {
  readonly maxInputTokens: number | null;
  readonly maxInputBytes: number | null;
  /** The prompt before eviction, and what may not be evicted (instructions, current input, tool catalog). */
  readonly beforeTokens: number;
  readonly beforeBytes: number;
  readonly protectedTokens: number;
  readonly protectedBytes: number;
  /** Totals of the assembled request in the selected layout, or of a wire request's kept parts. */
  readonly usedTokens: number;
  readonly usedBytes: number;
  readonly omitted: readonly DroppedItem[];
  /** A wire request's omitted parts (indexes into `parts.parts`): the trimmed request is `requestFromParts` of the rest. */
  readonly omittedParts: readonly number[];
}

/** A wire request's parts (see `requestParts` for the rules). */
export interface ReportParts {
  readonly parts: readonly RequestPart[];
}

/** The request against its model's context window (`MODEL_TABLE`). */
export interface ReportWindow {
  /** The model id looked up; empty when the request names none. */
  readonly model: string;
  /** The table row; null when the id matches none. */
  readonly row: ReportModelRow | null;
  /** Rows nearest an unknown id (up to 3). */
  readonly nearest: readonly ReportModelRow[];
  /** Tokens of the prompt (the segments' total). */
  readonly inputTokens: number;
  /** The request's own output cap and its field (`max_tokens`, `max_completion_tokens`, `max_output_tokens`, `generationConfig.maxOutputTokens`). */
  readonly maxOutputTokens: number | null;
  readonly maxOutputField: string | null;
  /** True when the provider counts the output cap against the window (OpenAI, Anthropic; Gemini limits input alone). */
  readonly outputCounts: boolean;
  /** `inputTokens` plus the output cap where it counts. */
  readonly usedTokens: number;
  /** `usedTokens / row.contextWindow`, 4 decimals; null without a row. */
  readonly usedRatio: number | null;
  /** The answer in one sentence. */
  readonly summary: string;
}

export interface ReportModelRow {
  readonly id: string;
  readonly family: string;
  readonly provider: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** How the id matched: `exact` or by `pattern`; null for a nearest-row suggestion. */
  readonly matched: "exact" | "pattern" | null;
  readonly sources: readonly { readonly title: string; readonly url: string; readonly date: string }[];
}

/** Volatile-looking values in literal prompt text (`lintLiteralVolatility`). */
export interface ReportLiterals {
  /** Paths whose text was read: the stable part of the prompt (tools, instructions, context, summaries, attachments). */
  readonly scanned: readonly string[];
  readonly findings: readonly LiteralFinding[];
  /** More values were found than a report carries (`MAX_FINDINGS`). */
  readonly truncated: boolean;
}

export interface LiteralFinding extends LiteralVolatility {
  /** With a previous request: did the value change since? Null when unknown (no previous text at this path). */
  readonly changed: boolean | null;
}

/** Something a stage left out. */
export interface DroppedItem {
  readonly stage: "tiers" | "context_budget";
  /** Section id, or the assembly source (`history:3`, `attachment:notes.md`, …). */
  readonly id: string;
  /** Where it sits: a wire part's path (`messages[3]`), a section's path; null for an assembled message. */
  readonly path: string | null;
  /** Tier for `tiers`; section kind (`history`, `toolResults`, …) for `context_budget`. */
  readonly kind: string;
  /** Size of the item in the unit that decided (chars for tiers; tokens or bytes for budgets). */
  readonly size: number;
  readonly unit: "chars" | "tokens" | "bytes";
  /** The limit it was tested against, when known. */
  readonly limit: number | null;
  /** What had been used before it, when known. */
  readonly usedBefore: number | null;
  /** The arithmetic in words. */
  readonly reason: string;
}

export interface ReportSegments {
  readonly provider: CacheProvider;
  /** Regions in prompt order, e.g. `["tools", "system", "messages"]`. */
  readonly order: readonly string[];
  /** Why this order for this provider (documented or assumed). */
  readonly orderNote: string;
  readonly totalBytes: number;
  readonly totalTokens: number;
  readonly segments: readonly ReportSegment[];
}

export interface ReportHistory {
  /** Whose rules: `strata` (the pipeline's, for an `AssemblyRequest`) or the wire format's own (`providerHistoryIssues`). */
  readonly rules: "strata" | WireFormat;
  readonly issues: readonly HistoryIssue[];
}

export interface ReportTemplate {
  /** Length of the template source and of the rendered text (UTF-16). */
  readonly templateChars: number;
  readonly renderedChars: number;
  readonly renderedSha256: string;
  /** Where the rendered text went. */
  readonly target: "systemInstructions" | "developerInstructions" | "input";
  /** Null when rendering succeeded. */
  readonly error: ReportProblem | null;
  readonly volatility: readonly VolatilityWarning[];
}

export interface VolatilityWarning {
  /** What the template reads: `system.current_time`, a root alias such as `current_time`, `strftime_now()`. */
  readonly variable: string;
  /** How often it changes: `per_request`, `per_day` or `per_conversation`. */
  readonly volatility: string;
  /** 1-based position in the template; 0 when unknown. */
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface ReportProblem {
  readonly stage: "parse" | "template" | "tiers" | "assembly" | "budget" | "history" | "cache" | "previous" | "usage";
  /** The error's `code` (e.g. `context_budget_exceeded`). */
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly message: string;
  /** JSON path or field, when the error names one. */
  readonly path: string | null;
}

/** How the report's token figures were counted. Every figure shares the request's method and relative band. */
export interface ReportTokens {
  /** `countRequestTokens` (per provider, images by size), or the caller's `tokenEstimator`. */
  readonly counter: "countRequestTokens" | "tokenEstimator";
  /** `exact` only when OpenAI's tokenizer counted every part under known framing rules. */
  readonly method: CountMethod;
  /** The request's input tokens as billed (Anthropic: input + cache reads + cache writes). */
  readonly total: number;
  /** The billed count lies in `[low, high]` for about 9 requests in 10; null for a `tokenEstimator` (its error is unknown). */
  readonly low: number | null;
  readonly high: number | null;
  /** `max(total − low, high − total) / total` to 0.001: the ± of every figure (0 when exact); null when unknown. */
  readonly band: number | null;
  /** The wire format whose framing was counted; null for a `tokenEstimator`. */
  readonly format: TokenFormat | null;
  /** The tokenizer encoding (`o200k_base`), or null for an estimate without one. */
  readonly encoding: string | null;
  /** What could not be counted exactly (media of unknown size, a tokenizer for another encoding, …). */
  readonly notes: readonly TokenNote[];
}

/** The provider's reported usage beside the prediction for the same request. */
export interface ReportUsage {
  /** The response format read (`readUsage`): the request's own, or its provider's. */
  readonly format: UsageFormat;
  /** Normalized usage (input counts cached tokens); null when the response holds none. */
  readonly actual: Usage | null;
  readonly predicted: {
    readonly input: number;
    readonly low: number | null;
    readonly high: number | null;
    readonly method: CountMethod;
    /** The simulation's read and write for this request (a cold cache unless `previous` is given). */
    readonly cacheRead: number;
    readonly cacheWrite: number;
  };
  /** `actual − predicted`; null without actual usage. `inputPct`: of the actual input, to 0.1 (null when it is 0). */
  readonly difference: {
    readonly input: number;
    readonly inputPct: number | null;
    readonly cacheRead: number;
    readonly cacheWrite: number;
  } | null;
  /** Whether the actual input lies in `[low, high]`; null without usage or a band. */
  readonly withinBand: boolean | null;
  readonly notes: readonly string[];
}
