import type { RequestCounts } from "../../inspect/protocol.ts";
import type { InspectionReport } from "../../../core/inspect/index.ts";
import { fmtBytes, fmtInt, fmtPct, fmtTimes, plural } from "../../components/format.ts";
import { CAUSE_LABELS, FORMAT_NAMES, PROVIDER_NAMES } from "../../components/names.ts";
import { fmtTokenCount } from "../../components/tokens.ts";
import type { ViewId } from "../../routing/routes.ts";

export type Tone = "neutral" | "good" | "warn" | "bad";

export interface OverviewCard {
  readonly id: string;
  readonly view: ViewId;
  readonly title: string;
  readonly value: string;
  readonly detail: string;
  readonly tone: Tone;
}

function budgetCard(r: InspectionReport): OverviewCard {
  const cb = r.contextBudget;
  if (cb && (cb.maxInputTokens !== null || cb.maxInputBytes !== null)) {
    const parts: string[] = [];
    let worst = 0;
    if (cb.maxInputTokens !== null) {
      const ratio = cb.usedTokens / cb.maxInputTokens;
      worst = Math.max(worst, ratio);
      parts.push(`${fmtInt(cb.usedTokens)} / ${fmtInt(cb.maxInputTokens)} tokens`);
    }
    if (cb.maxInputBytes !== null) {
      const ratio = cb.usedBytes / cb.maxInputBytes;
      worst = Math.max(worst, ratio);
      parts.push(`${fmtInt(cb.usedBytes)} / ${fmtInt(cb.maxInputBytes)} bytes`);
    }
    return {
      id: "budget",
      view: "budget",
      title: "Budget used",
      value: fmtPct(worst, 0),
      detail: parts.join(" · "),
      tone: worst > 1 ? "bad" : worst > 0.9 ? "warn" : "good",
    };
  }
  const t = r.tiers;
  if (t && t.effectiveBudget !== null) {
    return {
      id: "budget",
      view: "tiers",
      title: "Budget used",
      value: t.budgetUsedPct === null ? "∞" : fmtPct(t.budgetUsedPct / 100, 0),
      detail: `${fmtInt(t.totalChars)} / ${fmtInt(t.effectiveBudget)} chars of tiered sections`,
      tone: t.overflowed ? "bad" : "neutral",
    };
  }
  const w = r.window;
  if (w?.row && w.usedRatio !== null) {
    return {
      id: "budget",
      view: "budget",
      title: "Context window",
      value: fmtPct(w.usedRatio, 0),
      detail: `of ${w.model}'s ${fmtInt(w.row.contextWindow)}-token window; no cap set`,
      tone: w.usedRatio > 1 ? "bad" : w.usedRatio > 0.9 ? "warn" : "good",
    };
  }
  return {
    id: "budget",
    view: "budget",
    title: "Budget used",
    value: "—",
    detail: w && !w.row ? w.summary : "No budget set: add max tokens or bytes above.",
    tone: "neutral",
  };
}

function prefixCard(r: InspectionReport): OverviewCard {
  if (r.prefix) {
    const p = r.prefix;
    const ratio = p.next.bytes === 0 ? 0 : p.commonPrefix.bytes / p.next.bytes;
    const reused = p.previous.bytes === 0 ? 0 : p.commonPrefix.bytes / p.previous.bytes;
    // An append keeps the whole previous turn: say so, and keep "diverges" for real busts.
    const cause = !p.divergence
      ? "identical to the previous turn"
      : p.divergence.cause === "appended"
        ? `appended: reuses ${fmtPct(reused, 0)} of the previous turn (${fmtPct(ratio, 0)} of this one)`
        : `diverges at ${p.divergence.path} (${CAUSE_LABELS[p.divergence.cause]})`;
    return {
      id: "prefix",
      view: "cache",
      title: "Stable prefix",
      value: fmtPct(ratio, 0),
      detail: `vs previous turn; ${cause}`,
      tone: p.divergence?.bustsCache ? (ratio < 0.5 ? "bad" : "warn") : "good",
    };
  }
  const asSent = r.assembly?.asSent?.nextTurn;
  if (asSent) {
    return {
      id: "prefix",
      view: "layout",
      title: "Stable prefix",
      value: fmtPct(asSent.stablePrefixRatio, 0),
      detail: "of a simulated next turn, as sent; add the previous turn to compare with it",
      tone: asSent.stablePrefixRatio >= 0.8 ? "good" : "warn",
    };
  }
  if (r.nextTurn && r.assembly) {
    const sim = r.nextTurn[r.assembly.selectedLayout];
    return {
      id: "prefix",
      view: "cache",
      title: "Stable prefix",
      value: fmtPct(sim.stablePrefixRatio, 0),
      detail: `vs a simulated next turn (${r.assembly.selectedLayout})`,
      tone: sim.stablePrefixRatio >= 0.8 ? "good" : "warn",
    };
  }
  return {
    id: "prefix",
    view: "cache",
    title: "Stable prefix",
    value: "—",
    detail: "Add a previous turn to compare.",
    tone: "neutral",
  };
}

function savingsCard(r: InspectionReport): OverviewCard {
  const last = r.cache?.turns[r.cache.turns.length - 1];
  if (!r.cache || !last)
    return {
      id: "savings",
      view: "cache",
      title: "Est. cache savings",
      value: "—",
      detail: "No request to simulate.",
      tone: "neutral",
    };
  const saving = 1 - last.relativeCost;
  const why = last.prevented.belowMinimum
    ? `below the ${fmtInt(r.cache.rule.minTokens)}-token minimum`
    : last.cachedReadTokens > 0
      ? `${fmtInt(last.cachedReadTokens)} tokens read from cache`
      : last.cacheWriteTokens > 0
        ? "this turn writes the cache"
        : "nothing cached";
  return {
    id: "savings",
    view: "cache",
    title: "Est. cache savings",
    value: fmtPct(saving, 0),
    detail: `this turn costs ${fmtTimes(last.relativeCost)} uncached; ${why}`,
    tone: saving > 0.2 ? "good" : saving < 0 ? "warn" : "neutral",
  };
}

/** How the size was counted, in a few words. */
function sizeBasis(r: InspectionReport): string {
  const t = r.tokens;
  if (!t || t.counter === "tokenEstimator") return "chars/4 estimate";
  if (t.method === "exact") return `exact (${t.encoding ?? "tokenizer"})`;
  return `calibrated ${PROVIDER_NAMES[r.provider]} estimate`;
}

/**
 * The overview's cards, in display order. Pure: the report in, strings out. `counts`: the request's
 * counts while the request itself is still on its way from the worker (`report.request` null).
 */
export function overviewCards(r: InspectionReport, counts?: RequestCounts | null): readonly OverviewCard[] {
  const messages = r.request?.messages.length ?? counts?.messages ?? 0;
  const tools = r.request?.tools.length ?? counts?.tools ?? 0;
  const seg = r.segments;
  const errors = r.problems.filter((p) => p.severity === "error").length;
  // Literal values count unless the previous turn showed them unchanged.
  const literals = (r.volatileLiterals?.findings ?? []).filter((f) => f.changed !== false).length;
  const warnings =
    r.problems.filter((p) => p.severity === "warning").length + (r.templates?.volatility.length ?? 0) + literals;
  const historyIssues = r.history.issues.length;
  const dropped = r.dropped.length;
  return [
    {
      id: "format",
      view: "raw",
      title: "Format",
      value: FORMAT_NAMES[r.format],
      detail: `${PROVIDER_NAMES[r.provider]} · ${r.model || "no model: pick one"} · rule ${r.settings.cacheRuleId}`,
      tone: "neutral",
    },
    {
      id: "messages",
      view: "layout",
      title: "Messages",
      value: fmtInt(messages),
      detail: `${plural(tools, "tool")}${
        r.assembly?.asSent
          ? ` · as sent, follows ${r.assembly.asSent.follows.length === 2 ? "both layouts" : (r.assembly.asSent.follows[0] ?? "neither layout")}`
          : r.assembly
            ? ` · assembled in ${r.assembly.selectedLayout}`
            : ""
      }`,
      tone: "neutral",
    },
    {
      id: "size",
      view: "budget",
      title: "Size",
      value: seg ? fmtTokenCount(seg.totalTokens, r.tokens) : "—",
      detail: seg
        ? `${fmtBytes(seg.totalBytes)} serialized · ${plural(seg.segments.length, "segment")} · ${sizeBasis(r)}`
        : "No request.",
      tone: "neutral",
    },
    budgetCard(r),
    {
      id: "dropped",
      view: "dropped",
      title: "Dropped",
      value: fmtInt(dropped),
      detail:
        dropped === 0
          ? "Nothing was left out."
          : `${plural(r.dropped.filter((d) => d.stage === "tiers").length, "tier section")} · ${plural(r.dropped.filter((d) => d.stage === "context_budget").length, "budget omission")}`,
      tone: dropped > 0 ? "warn" : "good",
    },
    prefixCard(r),
    savingsCard(r),
    {
      id: "issues",
      view: historyIssues > 0 ? "history" : warnings > 0 && (r.templates || literals > 0) ? "templates" : "history",
      title: "Issues & warnings",
      value: `${fmtInt(errors + historyIssues)} · ${fmtInt(warnings)}`,
      detail: `${plural(errors, "error")}, ${plural(historyIssues, "history issue")}, ${plural(warnings, "warning")}${literals > 0 ? ` (${plural(literals, "volatile value")})` : ""}`,
      tone: errors + historyIssues > 0 ? "bad" : warnings > 0 ? "warn" : "good",
    },
  ];
}
