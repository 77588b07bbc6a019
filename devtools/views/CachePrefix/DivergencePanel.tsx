import type { PrefixComparison } from "../../../core/cache/index.ts";
import type { InspectionReport } from "../../../core/inspect/index.ts";
import { fmtInt, fmtPct } from "../../components/format.ts";
import { CAUSE_LABELS, CAUSE_TEXT } from "../../components/names.ts";

/** The first divergence against the previous turn: where, a before/after excerpt, and the cause in words. */
export function DivergencePanel({
  prefix,
  previousKind,
}: {
  readonly prefix: PrefixComparison;
  readonly previousKind: InspectionReport["settings"]["previous"];
}) {
  const d = prefix.divergence;
  const ratio = prefix.next.bytes === 0 ? 0 : prefix.commonPrefix.bytes / prefix.next.bytes;
  return (
    <section className="panel" data-testid="divergence-panel">
      <div className="panel-head">
        <h2>Against the previous turn</h2>
        {previousKind === "fingerprints" ? <span className="badge">compared with a hash-only bundle</span> : null}
      </div>
      <dl className="cp-facts">
        <div>
          <dt>Shared prefix</dt>
          <dd
            data-testid="prefix-common"
            data-bytes={prefix.commonPrefix.bytes}
            data-tokens={prefix.commonPrefix.tokens}
          >
            {fmtInt(prefix.commonPrefix.tokens)} tokens · {fmtInt(prefix.commonPrefix.bytes)} bytes ·{" "}
            {fmtInt(prefix.commonPrefix.segments)} segments ({fmtPct(ratio, 0)} of this turn)
          </dd>
        </div>
        <div>
          <dt>Previous → this turn</dt>
          <dd>
            {fmtInt(prefix.previous.tokens)} → {fmtInt(prefix.next.tokens)} tokens
          </dd>
        </div>
      </dl>
      {prefix.identical ? (
        <p data-testid="divergence-none" className="ok">
          Identical to the previous turn: everything can be read from the cache.
        </p>
      ) : null}
      {d ? (
        <div className="cp-divergence" data-testid="divergence" data-cause={d.cause} data-busts={d.bustsCache}>
          <p className="cp-cause">
            <span className={`badge ${d.bustsCache ? "badge-error" : "badge-ok"}`} data-testid="divergence-cause">
              {CAUSE_LABELS[d.cause]}
            </span>{" "}
            <span data-testid="divergence-words">{CAUSE_TEXT[d.cause]}</span>
          </p>
          <p className="cp-path">
            First difference at{" "}
            <code className="path" data-testid="divergence-path">
              {d.path}
            </code>
            {d.previousPath !== null && d.previousPath !== d.path ? (
              <>
                {" "}
                (previously{" "}
                <code className="path" data-testid="divergence-previous-path">
                  {d.previousPath}
                </code>
                )
              </>
            ) : null}
            , byte {fmtInt(d.byteOffset)}, segment {d.segmentIndex}.
          </p>
          <p className="muted" data-testid="divergence-detail">
            {d.detail}
          </p>
          {d.excerpt ? (
            <div className="cp-diff" data-testid="divergence-diff">
              <div className="cp-diff-line" data-testid="divergence-before">
                <span className="cp-diff-tag">before</span>
                <code>
                  <span className="cp-common">…{d.excerpt.common}</span>
                  <del>{d.excerpt.previous}</del>
                </code>
              </div>
              <div className="cp-diff-line" data-testid="divergence-after">
                <span className="cp-diff-tag">after</span>
                <code>
                  <span className="cp-common">…{d.excerpt.common}</span>
                  <ins>{d.excerpt.next}</ins>
                </code>
              </div>
            </div>
          ) : (
            <p className="muted">No text excerpt: one side is a hash-only bundle.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
