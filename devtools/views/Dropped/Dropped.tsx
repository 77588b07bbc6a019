import type { DroppedItem, InspectionReport } from "../../../core/inspect/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { fmtInt, plural } from "../../components/format.ts";
import { droppedKindText } from "../../components/names.ts";
import { VirtualList } from "../../components/VirtualList.tsx";
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
      <code className="dr-id" title={d.id}>
        {d.id}
      </code>
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
    return (
      <section className="panel" data-testid="dropped-empty">
        <h2>Nothing was dropped</h2>
        <p className="muted">
          Every tier section and every message fit. Lower the budget (header, or the Tier gating slider) to see what
          would go first.
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
    </section>
  );
}
