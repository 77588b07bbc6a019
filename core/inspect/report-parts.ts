/** Builders of the report's sections from the other modules' results (plain JSON out). */
import type { AssemblyTrace } from "../assembly/trace.ts";
import type { ContextBudgetOmission, ContextBudgetReport } from "../assembly/context-types.ts";
import { InvalidInputError, StrataError } from "../util/errors.ts";
import { RequestFormatError } from "../formats/errors.ts";
import { TemplateError } from "../templates/errors.ts";
import type { PreparedTiers } from "../request/prepare-with.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { Message } from "../messages/types.ts";
import { sha256Hex } from "../util/hash.ts";
import { foldWhitespace, safeSlice } from "../util/text.ts";
import type { SegmentedRequest } from "../cache/segments.ts";
import { reportSegment, SegmentRecord, segmentJson } from "../cache/segment-record.ts";
import type { ListCap } from "./bounds.ts";
import type { ReportSegment, Segment } from "../cache/types.ts";
import type {
  DroppedItem,
  LayoutTrace,
  ReportContextBudget,
  ReportProblem,
  ReportSegments,
  ReportTiers,
} from "./types.ts";

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

/** What a preview shows at most, in UTF-16 units. */
const PREVIEW_CHARS = 80;

/**
 * A long piece of a block's preview (arguments, a result, a URL) is cut to this many units before
 * it is joined: the preview shows the first `PREVIEW_CHARS` of the joined string, and one unit
 * more keeps a cut string longer than that, so the preview is the very one the whole piece gives
 * (`safeSlice` drops a high surrogate at the edge only when more follows). Uncut, the joined
 * string (up to 200 units of arguments, a whole URL) was copied flat to show 80 units of it.
 */
const PIECE_CHARS = PREVIEW_CHARS + 1;

/** Up to `max` characters, never splitting a surrogate pair, with newlines shown as spaces. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  return foldWhitespace(safeSlice(text, 0, max));
}

/** A value as short text for previews (large values are not serialized whole). */
function short(v: unknown): string {
  if (typeof v === "string") return v.slice(0, PIECE_CHARS);
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v);
    if (keys.length > 20) return Array.isArray(v) ? `[${keys.length} items]` : `{${keys.slice(0, 8).join(", ")}, …}`;
  }
  return (JSON.stringify(v) ?? "").slice(0, PIECE_CHARS);
}

/** What a block shows in a preview, of which `preview` keeps the first `PREVIEW_CHARS` units. */
function blockPreview(b: Record<string, unknown>): string {
  switch (b.type) {
    case "text":
    case "thinking":
      return String(b.text ?? "");
    case "tool_call":
      return `${String(b.name)}(${short(b.arguments)})`;
    case "tool_result":
      return `→ ${short(b.result)}`;
    default:
      return `[${String(b.type)}${b.mimeType ? ` ${String(b.mimeType)}` : ""}${b.url ? ` ${String(b.url).slice(0, PIECE_CHARS)}` : b.data ? ` ${String(b.data).length} base64 chars` : b.text ? ` ${String(b.text).slice(0, PIECE_CHARS)}` : ""}]`;
  }
}

/** A message's readable text for previews. */
export function messagePreview(m: Message): string {
  return preview(m.content.map((b) => blockPreview(b as unknown as Record<string, unknown>)).join(" "));
}

const BLOCK_INDEX = /\.content\[(\d+)\]$/;
const TOOL_INDEX = /^tools\[(\d+)\]$/;

/**
 * The tool or block index of segment `s`: a record's own, or read from a plain segment's path
 * (`pattern`), -1 when it names none.
 */
const itemOf = (s: Segment, pattern: RegExp): number =>
  s instanceof SegmentRecord ? s.item : Number(pattern.exec(s.path)?.[1] ?? -1);

/**
 * A readable one-line preview of a segment, from the request object (no re-parsing); its JSON
 * (`text`, written only then) when the request has no such piece.
 */
function segmentPreview(s: Segment, text: () => string, request: NormalizedRequest): string {
  switch (s.kind) {
    case "tool": {
      const t = request.tools[itemOf(s, TOOL_INDEX)];
      return t ? `tool ${t.name}${t.description ? `: ${t.description}` : ""}` : text();
    }
    case "message": {
      const m = request.messages[s.messageIndex ?? -1];
      return m ? `${m.role}${m.name ? ` (${m.name})` : ""}` : text();
    }
    case "block": {
      const b = request.messages[s.messageIndex ?? -1]?.content[itemOf(s, BLOCK_INDEX)];
      return b ? blockPreview(b as unknown as Record<string, unknown>) : text();
    }
    default:
      return text();
  }
}

/** The report's segments, cut to `bound`'s cap (previews are made only for the segments kept). */
export function reportSegments(seg: SegmentedRequest, request: NormalizedRequest, bound: ListCap): ReportSegments {
  const segments: ReportSegment[] = bound
    .list(seg.segments, "segments.segments")
    .map((s, i) => reportSegment(s, preview(segmentPreview(s, () => segmentJson(s, seg.texts[i]!), request))));
  return {
    provider: seg.provider,
    order: seg.order,
    orderNote: seg.orderNote,
    totalBytes: seg.totalBytes,
    totalTokens: seg.totalTokens,
    segments,
  };
}

/** Where each candidate came from: `sections[i]`, or a wire system prompt's section. */
export interface TierRowSource {
  readonly title: string | null;
  readonly path: string;
  readonly start: number | null;
  readonly end: number | null;
}

export function reportTiers(
  t: PreparedTiers,
  origin: ReportTiers["origin"] = "sections",
  sources?: readonly TierRowSource[],
): ReportTiers {
  const c = t.composed;
  return {
    origin,
    effectiveBudget: finite(c.effectiveBudget),
    activeCeiling: finite(c.activeCeiling),
    activeBudgetFraction: c.activeBudgetFraction,
    coreChars: c.coreChars,
    totalChars: c.totalChars,
    totalTokensEst: c.totalTokensEst,
    budgetUsedPct: finite(c.budgetUsedPct),
    overflowed: c.overflowed,
    rows: t.rows.map((r, i) => ({
      id: r.id,
      ...(sources?.[i] ?? { title: null, path: `sections[${i}]`, start: null, end: null }),
      tier: r.tier,
      chars: r.chars,
      runningBefore: r.totalBefore,
      limitKind: r.limit.kind === "active_ceiling" ? "ceiling" : r.limit.kind,
      limit: r.limit.kind === "none" ? null : finite(r.limit.value),
      verdict: r.verdict,
      reason: r.reason,
    })),
    composedChars: c.composed.length,
    composedSha256: sha256Hex(c.composed),
  };
}

export function tierDrops(tiers: ReportTiers): DroppedItem[] {
  return tiers.rows
    .filter((r) => r.verdict === "dropped")
    .map((r) => ({
      stage: "tiers",
      id: r.id,
      path: r.path,
      kind: r.tier,
      size: r.chars,
      unit: "chars",
      limit: r.limit,
      usedBefore: r.runningBefore,
      reason: r.reason,
    }));
}

export function omissionItem(
  o: ContextBudgetOmission,
  report: ContextBudgetReport | undefined,
  path: string | null = null,
): DroppedItem {
  const byTokens = o.exceeded.includes("maxInputTokens") || !o.exceeded.includes("maxInputBytes");
  const unit = byTokens ? "tokens" : "bytes";
  const cap = byTokens ? report?.maxInputTokens : report?.maxInputBytes;
  const before = byTokens ? o.tokensBefore : o.bytesBefore;
  const size = byTokens ? o.tokens : o.bytes;
  const capText = cap === undefined ? "" : ` > ${byTokens ? "maxInputTokens" : "maxInputBytes"} ${cap}`;
  return {
    stage: "context_budget",
    id: o.source,
    path,
    kind: o.kind,
    size,
    unit,
    limit: cap ?? null,
    usedBefore: before,
    reason: `${o.kind}: the prompt was ${before} ${unit}${capText}; dropping ${(o.sources.length > 0 ? o.sources : [o.source]).join(" + ")} (${size} ${unit}) leaves ${before - size}`,
  };
}

export function layoutTrace(trace: AssemblyTrace, request: NormalizedRequest): LayoutTrace {
  return {
    layout: trace.layout,
    messages: trace.rows.map((r) => {
      const source = String(r.source);
      const colon = source.indexOf(":");
      return {
        index: r.index,
        path: `messages[${r.index}]`,
        part: null,
        role: r.role,
        source,
        sourceKind: colon < 0 ? source : source.slice(0, colon),
        chars: r.chars,
        bytes: r.bytes,
        tokens: r.tokens,
        preview: request.messages[r.index] ? messagePreview(request.messages[r.index]!) : "",
      };
    }),
    omissions: trace.omissions.map((o) => omissionItem(o, trace.budget)),
    totalChars: trace.totals.chars,
    totalBytes: trace.totals.bytes,
    totalTokens: trace.totals.tokens,
  };
}

/** Any thrown value → a report problem (typed errors keep their code and field/path). */
export function problemFrom(
  stage: ReportProblem["stage"],
  error: unknown,
  severity: ReportProblem["severity"] = "error",
): ReportProblem {
  if (error instanceof StrataError) {
    let path: string | null = null;
    if (error instanceof InvalidInputError) path = error.field.replace(/^candidates\[/, "sections[");
    else if (error instanceof RequestFormatError) path = error.issues[0]?.path ?? null;
    else if (error instanceof TemplateError && error.line !== undefined)
      path = `template:${error.line}:${error.column ?? 1}`;
    return { stage, code: error.code, severity, message: error.message, path };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { stage, code: "unexpected_error", severity, message, path: null };
}

/** A ProviderRequest as plain JSON (drops `signal` and undefined fields). */
export function plainRequest(request: NormalizedRequest): NormalizedRequest {
  const { signal: _s, ...rest } = request as NormalizedRequest & { signal?: unknown };
  return JSON.parse(JSON.stringify(rest)) as NormalizedRequest;
}

/** The context-budget section from an eviction report (assembly's, or a wire request's parts'). */
export function budgetSection(
  report: ContextBudgetReport,
  omitted: readonly DroppedItem[],
  omittedParts: readonly number[],
): ReportContextBudget {
  return {
    maxInputTokens: report.maxInputTokens ?? null,
    maxInputBytes: report.maxInputBytes ?? null,
    beforeTokens: report.tokensBefore,
    beforeBytes: report.bytesBefore,
    protectedTokens: report.protectedTokens,
    protectedBytes: report.protectedBytes,
    usedTokens: report.keptTokens,
    usedBytes: report.keptBytes,
    omitted,
    omittedParts,
  };
}
