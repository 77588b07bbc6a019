import { useMemo } from "react";
import type { CacheRule, PrefixComparison } from "../../../core/cache/index.ts";
import type { ReportSegments } from "../../../core/inspect/index.ts";
import { fmtInt, plural } from "../../components/format.ts";
import { breakpointOffsets, minimumMark, regionBands } from "./model.ts";

const at = (offset: number, total: number) => `${total === 0 ? 0 : Math.min(100, (offset / total) * 100)}%`;

/** Segments per tick are drawn only up to this many; beyond it, region bands carry the picture. */
const TICKS_UP_TO = 400;

/**
 * The request in provider prompt order as one bar: region bands, the part shared with the previous
 * turn highlighted, and markers for the provider's minimum, the cache breakpoints and the divergence.
 */
export function PrefixStrip({
  seg,
  prefix,
  rule,
}: {
  readonly seg: ReportSegments;
  readonly prefix: PrefixComparison | null;
  readonly rule: CacheRule | null;
}) {
  const total = seg.totalBytes;
  const stable = prefix ? Math.min(prefix.commonPrefix.bytes, total) : null;
  const min = useMemo(() => (rule ? minimumMark(seg.segments, total, rule.minTokens) : null), [seg, total, rule]);
  const breakpoints = useMemo(() => breakpointOffsets(seg.segments), [seg]);
  const bands = useMemo(() => regionBands(seg), [seg]);
  const divergence = prefix?.divergence ?? null;
  return (
    <div className="cp-strip-wrap">
      <div
        className="cp-strip"
        data-testid="cache-strip"
        data-total-bytes={total}
        data-stable-bytes={stable ?? ""}
        role="img"
        aria-label={`Prompt of ${fmtInt(total)} bytes in ${seg.order.join(" → ")} order${stable !== null ? `, ${fmtInt(stable)} bytes shared with the previous turn` : ""}`}
      >
        {bands.map((b, i) => (
          <span
            key={i}
            className="cp-band"
            data-region={b.region}
            data-testid="cache-band"
            style={{ left: at(b.start, total), width: at(b.end - b.start, total) }}
          >
            <span className="cp-band-label">{b.region}</span>
          </span>
        ))}
        {seg.segments.length <= TICKS_UP_TO
          ? seg.segments.map((s) => (
              <span key={s.index} className="cp-tick" style={{ left: at(s.byteOffset, total) }} aria-hidden="true" />
            ))
          : null}
        {stable !== null ? (
          <span className="cp-stable" data-testid="cache-stable" style={{ width: at(stable, total) }} />
        ) : null}
        {stable !== null && stable < total ? (
          <span className="cp-unstable" style={{ left: at(stable, total), width: at(total - stable, total) }} />
        ) : null}
      </div>
      <div className="cp-markers" aria-hidden="false">
        {min ? (
          <span
            className={`cp-marker cp-min${min.beyond ? " beyond" : ""}`}
            data-testid="min-marker"
            data-min-tokens={min.minTokens}
            data-offset={min.offset}
            data-beyond={min.beyond}
            style={{ left: at(min.offset, total) }}
          >
            <span className="cp-marker-label">
              {min.beyond
                ? `minimum ${fmtInt(min.minTokens)} tokens: not reached`
                : `minimum ${fmtInt(min.minTokens)} tokens`}
            </span>
          </span>
        ) : null}
        {breakpoints.map((b) => (
          <span
            key={b.path}
            className="cp-marker cp-bp"
            data-testid="breakpoint-marker"
            data-path={b.path}
            data-offset={b.offset}
            style={{ left: at(b.offset, total) }}
            title={`cache_control on ${b.path}`}
          >
            <span className="cp-marker-label">◆</span>
          </span>
        ))}
        {divergence ? (
          // An append is no bust: the whole previous turn is reused, so it is marked as where the new part starts.
          <span
            className={`cp-marker ${divergence.bustsCache ? "cp-div" : "cp-app"}`}
            data-testid="divergence-marker"
            data-busts={divergence.bustsCache}
            data-offset={divergence.byteOffset}
            style={{ left: at(divergence.byteOffset, total) }}
          >
            <span className="cp-marker-label">
              {divergence.bustsCache
                ? "diverges"
                : divergence.cause === "appended"
                  ? "appended from here"
                  : "ends here"}
            </span>
          </span>
        ) : null}
      </div>
      <ul className="legend cp-legend">
        <li>
          <span className="swatch cp-sw-stable" aria-hidden="true" />
          {stable !== null
            ? `shared with the previous turn (${fmtInt(stable)} bytes)`
            : "no previous turn: nothing to share yet"}
        </li>
        <li>
          <span className="swatch cp-sw-unstable" aria-hidden="true" />
          new or changed
        </li>
        <li>◆ cache breakpoint ({plural(breakpoints.length, "marker")})</li>
        <li>│ provider minimum</li>
      </ul>
    </div>
  );
}
