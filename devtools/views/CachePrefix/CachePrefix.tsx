import type { InspectionReport } from "../../../core/inspect/index.ts";
import { fmtInt } from "../../components/format.ts";
import { ResponsePanel } from "../../components/ResponsePanel.tsx";
import { TokenBasis } from "../../components/TokenBasis.tsx";
import { fmtTokenCount } from "../../components/tokens.ts";
import { PROVIDER_NAMES } from "../../components/names.ts";
import { DivergencePanel } from "./DivergencePanel.tsx";
import { PrefixStrip } from "./PrefixStrip.tsx";
import { SegmentTable } from "./SegmentTable.tsx";
import { NextTurnPanel, SimulationPanel } from "./Simulation.tsx";
import { ModelPrompt } from "../../app/ModelPrompt.tsx";
import "./CachePrefix.css";

/** The request as the provider's cache sees it: prompt order, the shared prefix, where and why it ends, and what it costs. */
export function CachePrefixView({ report }: { readonly report: InspectionReport }) {
  const seg = report.segments;
  if (!seg) {
    return (
      <section className="panel" data-testid="cache-empty">
        <h2>No request to analyse</h2>
        <p className="muted">The request could not be assembled; see the problems on the overview.</p>
      </section>
    );
  }
  return (
    <>
      <section className="panel">
        <div className="panel-head">
          <h2>Cache prefix</h2>
          <span className="muted" data-testid="cache-provider" data-provider={seg.provider}>
            {PROVIDER_NAMES[seg.provider]} order: {seg.order.join(" → ")} ·{" "}
            {fmtTokenCount(seg.totalTokens, report.tokens)} · {fmtInt(seg.totalBytes)} bytes
          </span>
        </div>
        <TokenBasis report={report} />
        <PrefixStrip seg={seg} prefix={report.prefix} rule={report.cache?.rule ?? null} />
        {!report.prefix ? (
          <p className="muted" data-testid="cache-no-previous">
            Put the previous turn's request (or a hash-only bundle) in the “Previous turn” slot to see what this turn
            can read from the cache and where it diverges.
          </p>
        ) : null}
      </section>
      {report.prefix ? <DivergencePanel prefix={report.prefix} previousKind={report.settings.previous} /> : null}
      <ModelPrompt report={report} />
      {report.cache ? <SimulationPanel cache={report.cache} /> : null}
      <ResponsePanel report={report} />
      {report.nextTurn ? <NextTurnPanel sim={report.nextTurn} selected={report.settings.layout} /> : null}
      <SegmentTable
        request={report.request}
        seg={seg}
        stableBytes={report.prefix ? report.prefix.commonPrefix.bytes : null}
      />
    </>
  );
}
