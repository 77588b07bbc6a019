import { INPUT_ASSEMBLY_LAYOUTS, type InputAssemblyLayout } from "../../../core/assembly/index.ts";
import type { CachePrevented, CacheSimulation, NextTurnSimulation } from "../../../core/cache/index.ts";
import type { Labels } from "../../components/closedSets.ts";
import { fmtInt, fmtPct, fmtTimes } from "../../components/format.ts";
import { CAUSE_LABELS, PROVIDER_NAMES } from "../../components/names.ts";

const PREVENTED_TEXT: Labels<keyof CachePrevented> = {
  belowMinimum: "below the minimum",
  tooManyBreakpoints: "too many breakpoints",
  lookbackExceeded: "lookback exceeded",
  noBreakpoints: "no breakpoints",
};

function prevented(p: CachePrevented): string[] {
  return (Object.keys(PREVENTED_TEXT) as (keyof CachePrevented)[]).filter((k) => p[k]).map((k) => PREVENTED_TEXT[k]);
}

/** Per turn: tokens read from cache, written to it and sent uncached, and the cost relative to no caching. */
export function SimulationPanel({ cache }: { readonly cache: CacheSimulation }) {
  const r = cache.rule;
  return (
    <section className="panel" data-testid="cache-simulation">
      <div className="panel-head">
        <h2>Cache simulation</h2>
        <span className="muted">
          {PROVIDER_NAMES[cache.provider]} · {cache.model}
        </span>
      </div>
      <p className="cp-rule" data-testid="cache-rule" data-rule-id={r.id} data-min-tokens={r.minTokens}>
        Rule <code>{r.id}</code>:{" "}
        {r.mode === "breakpoints" ? "caches at cache_control breakpoints" : "caches prefixes automatically"}, minimum{" "}
        {fmtInt(r.minTokens)} tokens
        {r.hitIncrement !== null ? `, hits in ${fmtInt(r.hitIncrement)}-token steps` : ""}
        {r.maxBreakpoints !== null ? `, at most ${r.maxBreakpoints} breakpoints` : ""}; read{" "}
        {fmtTimes(r.readMultiplier)}, write {fmtTimes(r.writeMultiplier)}, TTL {r.ttl}.{" "}
        <span className="muted">
          Source: {r.source} ({r.status}, {r.date}){r.note ? ` — ${r.note}` : ""}
        </span>
      </p>
      {cache.alternatives.length > 0 ? (
        <p className="muted" data-testid="cache-rule-alternatives">
          Other sources disagree for this model: {cache.alternatives.join(", ")}.
        </p>
      ) : null}
      <table className="grid-table">
        <thead>
          <tr>
            <th>Turn</th>
            <th className="num">Total</th>
            <th className="num">Read from cache</th>
            <th className="num">Written</th>
            <th className="num">Uncached</th>
            <th className="num">Relative cost</th>
            <th>Notes</th>
          </tr>
        </thead>
        <tbody>
          {cache.turns.map((t) => {
            const stops = prevented(t.prevented);
            return (
              <tr
                key={t.turn}
                data-testid="cache-turn-row"
                data-turn={t.turn}
                data-read={t.cachedReadTokens}
                data-write={t.cacheWriteTokens}
                data-uncached={t.uncachedTokens}
              >
                <td>{t.turn === cache.turns.length ? `${t.turn} (this)` : `${t.turn} (previous)`}</td>
                <td className="num">{fmtInt(t.totalTokens)}</td>
                <td className="num">{fmtInt(t.cachedReadTokens)}</td>
                <td className="num">{fmtInt(t.cacheWriteTokens)}</td>
                <td className="num">{fmtInt(t.uncachedTokens)}</td>
                <td className="num">{fmtTimes(t.relativeCost)}</td>
                <td>
                  {stops.map((s) => (
                    <span key={s} className="badge badge-warn">
                      {s}
                    </span>
                  ))}{" "}
                  <span className="muted">{t.notes.join(" ")}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr data-testid="cache-totals">
            <td>All turns</td>
            <td className="num">{fmtInt(cache.totals.totalTokens)}</td>
            <td className="num">{fmtInt(cache.totals.cachedReadTokens)}</td>
            <td className="num">{fmtInt(cache.totals.cacheWriteTokens)}</td>
            <td className="num">{fmtInt(cache.totals.uncachedTokens)}</td>
            <td className="num">{fmtTimes(cache.totals.relativeCost)}</td>
            <td />
          </tr>
        </tfoot>
      </table>
      {cache.assumptions.length > 0 ? (
        <ul className="cp-assumptions muted">
          {cache.assumptions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The same two turns under `legacy` and `cache_aware`: how much of the next turn each keeps cacheable. */
export function NextTurnPanel({
  sim,
  selected,
}: {
  readonly sim: NextTurnSimulation;
  readonly selected: InputAssemblyLayout;
}) {
  return (
    <section className="panel" data-testid="next-turn">
      <div className="panel-head">
        <h2>Next turn: legacy vs cache_aware</h2>
        <span className="muted">This turn followed by a simulated reply and a new input, assembled both ways.</span>
      </div>
      <div className="cp-next">
        {INPUT_ASSEMBLY_LAYOUTS.map((layout) => sim[layout]).map((l) => (
          <div
            key={l.layout}
            className="cp-next-row"
            data-testid={`next-turn-${l.layout}`}
            data-ratio={l.stablePrefixRatio}
          >
            <span className="cp-next-name">
              <code>{l.layout}</code>
              {l.layout === selected ? <span className="badge badge-ok">selected</span> : null}
            </span>
            <span
              className="cp-meter"
              role="meter"
              aria-valuemin={0}
              aria-valuemax={1}
              aria-valuenow={l.stablePrefixRatio}
              aria-label={`${l.layout} stable prefix`}
            >
              <span style={{ width: `${Math.min(100, l.stablePrefixRatio * 100)}%` }} />
            </span>
            <span className="num cp-next-pct">{fmtPct(l.stablePrefixRatio, 0)}</span>
            <span className="muted cp-next-detail">
              {fmtInt(l.comparison.commonPrefix.tokens)} of {fmtInt(l.nextTurn.tokens)} tokens shared
              {l.comparison.divergence
                ? ` · ${CAUSE_LABELS[l.comparison.divergence.cause]} at ${l.comparison.divergence.path}`
                : ""}
            </span>
          </div>
        ))}
      </div>
    </section>
  );
}
