import type { InspectionReport } from "../../../core/inspect/index.ts";
import { fmtBytes, fmtInt, fmtPct, fmtTimes, plural } from "../../components/format.ts";
import { CAUSE_LABELS, FORMAT_NAMES, PROVIDER_NAMES } from "../../components/names.ts";
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
  return {
    id: "budget",
    view: "budget",
    title: "Budget used",
    value: "—",
    detail: "No budget set: add max tokens or bytes above.",
    tone: "neutral",
  };
}

function prefixCard(r: InspectionReport): OverviewCard {
  if (r.prefix) {
    const p = r.prefix;
    const ratio = p.next.bytes === 0 ? 0 : p.commonPrefix.bytes / p.next.bytes;
    const cause = p.divergence
      ? `diverges at ${p.divergence.path} (${CAUSE_LABELS[p.divergence.cause]})`
      : "identical to the previous turn";
    return {
      id: "prefix",
      view: "cache",
      title: "Stable prefix",
      value: fmtPct(ratio, 0),
      detail: `vs previous turn; ${cause}`,
      tone: p.divergence?.bustsCache ? (ratio < 0.5 ? "bad" : "warn") : "good",
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

/** The overview's cards, in display order. Pure: the report in, strings out. */
export function overviewCards(r: InspectionReport): readonly OverviewCard[] {
  const messages = r.request?.messages.length ?? 0;
  const tools = r.request?.tools.length ?? 0;
  const seg = r.segments;
  const errors = r.problems.filter((p) => p.severity === "error").length;
  const warnings = r.problems.filter((p) => p.severity === "warning").length + (r.templates?.volatility.length ?? 0);
  const historyIssues = r.history.issues.length;
  const dropped = r.dropped.length;
  return [
    {
      id: "format",
      view: "raw",
      title: "Format",
      value: FORMAT_NAMES[r.format],
      detail: `${PROVIDER_NAMES[r.provider]} · ${r.model || "no model"} · rule ${r.settings.cacheRuleId}`,
      tone: "neutral",
    },
    {
      id: "messages",
      view: "layout",
      title: "Messages",
      value: fmtInt(messages),
      detail: `${plural(tools, "tool")}${r.assembly ? ` · assembled in ${r.assembly.selectedLayout}` : ""}`,
      tone: "neutral",
    },
    {
      id: "size",
      view: "budget",
      title: "Size",
      value: seg ? `${fmtInt(seg.totalTokens)} tokens` : "—",
      detail: seg
        ? `${fmtBytes(seg.totalBytes)} serialized · ${plural(seg.segments.length, "segment")} · ${r.settings.tokenEstimator === "default" ? "÷4 estimate" : "tokenizer"}`
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
      view: historyIssues > 0 ? "history" : warnings > 0 && r.templates ? "templates" : "history",
      title: "Issues & warnings",
      value: `${fmtInt(errors + historyIssues)} · ${fmtInt(warnings)}`,
      detail: `${plural(errors, "error")}, ${plural(historyIssues, "history issue")}, ${plural(warnings, "warning")}`,
      tone: errors + historyIssues > 0 ? "bad" : warnings > 0 ? "warn" : "good",
    },
  ];
}
