import type { DroppedItem, InspectionReport } from "../../../core/inspect/index.ts";
import { TokenBasis } from "../../components/TokenBasis.tsx";
import type { Labels } from "../../components/closedSets.ts";
import { fmtInt, plural } from "../../components/format.ts";
import { droppedKindText } from "../../components/names.ts";
import { VirtualList } from "../../components/VirtualList.tsx";
import { TrimmedExport } from "./TrimmedExport.tsx";
import "./Dropped.css";

const STAGE_LABELS: Labels<DroppedItem["stage"]> = { tiers: "tier gate", context_budget: "context budget" };

/** `used + size = total > limit`, when the report has the numbers; the report's own words otherwise. */
export function arithmetic(d: DroppedItem): string | null {
  if (d.usedBefore === null || d.limit === null) return null;
  const total = d.usedBefore + d.size;
  return `${fmtInt(d.usedBefore)} + ${fmtInt(d.size)} = ${fmtInt(total)} ${total > d.limit ? ">" : "≤"} ${fmtInt(d.limit)} ${d.unit}`;
}

function Row({ d }: { readonly d: DroppedItem }) {
  const sum = arithmetic(d);
  return (
    <div className="dr-row" data-testid="dropped-row" data-id={d.id} data-stage={d.stage} data-kind={d.kind}>
      <span className="dr-stage badge">{STAGE_LABELS[d.stage]}</span>
      <span className="dr-kind" title={droppedKindText(d.kind)}>
        {d.kind}
      </span>
      <span className="dr-where">
        <code className="dr-id" title={d.id}>
          {d.id}
        </code>
        {d.path && d.path !== d.id ? (
          <code className="dr-path" data-testid="dropped-path" title={d.path}>
            {d.path}
          </code>
        ) : null}
      </span>
      <span className="dr-size num">
        {fmtInt(d.size)} {d.unit}
      </span>
      <span className="dr-rule">
        {sum ? (
          <span className="dr-sum" data-testid="dropped-arithmetic">
            {sum}
          </span>
        ) : null}
        <span className="dr-reason" data-testid="dropped-reason">
          {d.reason}
        </span>
      </span>
    </div>
  );
}

/** One row per item any stage left out: what, how big, which rule, and the numbers that decided. */
export function DroppedView({ report }: { readonly report: InspectionReport }) {
  const items = report.dropped;
  if (items.length === 0) {
    const cb = report.contextBudget;
    const overflow = report.problems.find((p) => p.stage === "budget" && p.code === "context_budget_exceeded");
    return (
      <section
        className="panel"
        data-testid="dropped-empty"
        data-reason={overflow ? "overflow" : cb ? "fits" : "no-cap"}
      >
        <h2>Nothing was dropped</h2>
        <p className="muted">
          {overflow
            ? "The cap is below what may never be dropped (instructions, current input, tool catalog), so nothing was evicted: raise the cap (see the problem above)."
            : cb
              ? `Everything fits the cap: ${fmtInt(cb.usedTokens)} tokens and ${fmtInt(cb.usedBytes)} bytes are kept${cb.maxInputTokens !== null ? ` of ${fmtInt(cb.maxInputTokens)} tokens` : ""}${cb.maxInputBytes !== null ? ` of ${fmtInt(cb.maxInputBytes)} bytes` : ""}.`
              : `No cap is set, so nothing was tested for eviction${report.tiers ? " and every tier section is in" : ""}. Set Max tokens or Max bytes in the header${report.tiers ? " (or move the Tier gating slider)" : ""} to see what would go first.`}
        </p>
      </section>
    );
  }
  const byStage = (s: DroppedItem["stage"]) => items.filter((d) => d.stage === s).length;
  return (
    <section className="panel">
      <div className="panel-head">
        <h2>Dropped</h2>
        <span className="muted" data-testid="dropped-summary">
          {plural(items.length, "item")}: {fmtInt(byStage("tiers"))} by the tier gate,{" "}
          {fmtInt(byStage("context_budget"))} by the context budget.
        </span>
      </div>
      <div className="dr-head" aria-hidden="true">
        <span>Rule</span>
        <span>Kind</span>
        <span>Id</span>
        <span className="num">Size</span>
        <span>Why</span>
      </div>
      <VirtualList
        items={items}
        rowHeight={44}
        testId="dropped-list"
        getKey={(d, i) => `${d.stage}:${d.id}:${i}`}
        renderRow={(d) => <Row d={d} />}
      />
      <TokenBasis report={report} scope="assembly" />
      <TrimmedExport report={report} />
    </section>
  );
}
