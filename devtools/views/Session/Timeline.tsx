import type { KeyboardEvent } from "react";
import type { BustCause, SessionThread } from "../../../core/session/index.ts";
import { fmtInt } from "../../components/format.ts";
import { BUST_CAUSE_LABELS, BUST_MARKS, fmtGap, TIMELINE, TURN_CAUSE_LABELS, timelineModel } from "./model.ts";

interface Props {
  readonly thread: SessionThread;
  /** Turn number → why it lost cache. */
  readonly busts: ReadonlyMap<number, BustCause>;
  readonly onOpen: (turn: number) => void;
}

/**
 * One thread, turn by turn: a stacked bar of the predicted tokens (read from cache at the bottom,
 * written above, uncached on top), the response's actual usage as a narrow bar beside it, and each
 * bust marked above its turn with the cause. Plain SVG; each turn is a button that opens it.
 */
export function Timeline({ thread, busts, onOpen }: Props) {
  const m = timelineModel(thread, busts);
  const T = TIMELINE;
  const key = (turn: number) => (event: KeyboardEvent) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    onOpen(turn);
  };
  return (
    <div className="ss-timeline-scroll">
      <svg
        className="ss-timeline"
        data-testid="session-timeline"
        data-thread={thread.id}
        width={m.width}
        height={m.height}
        viewBox={`0 0 ${m.width} ${m.height}`}
        role="group"
        aria-label={`Thread ${thread.id}: ${thread.turns.length} turns, tokens per turn`}
      >
        {m.ticks.map((t) => (
          <g key={t.value} className="ss-tick">
            <line x1={T.left - 6} x2={m.width - T.right} y1={t.y} y2={t.y} />
            <text x={T.left - 10} y={t.y + 4} textAnchor="end">
              {fmtInt(t.value)}
            </text>
          </g>
        ))}
        {m.bars.map((b) => {
          const t = b.turn;
          const cx = b.x + m.bar / 2;
          const label = `Turn ${t.turn}: ${TURN_CAUSE_LABELS[t.cause]}${b.bust ? `, lost cache (${BUST_CAUSE_LABELS[b.bust.cause]})` : ""}; predicted ${fmtInt(t.predicted.cacheRead)} read, ${fmtInt(t.predicted.cacheWrite)} written, ${fmtInt(t.predicted.uncached)} uncached${t.actual ? `; actual ${fmtInt(t.actual.cacheRead)} read of ${fmtInt(t.actual.input)}` : ""}. Open this turn and its previous one.`;
          return (
            <g
              key={t.turn}
              className={`ss-turn${b.bust ? " ss-turn-bust" : ""}`}
              role="button"
              tabIndex={0}
              aria-label={label}
              data-testid="timeline-turn"
              data-turn={t.turn}
              data-cause={t.cause}
              data-bust={b.bust?.cause ?? ""}
              data-expired={t.predicted.expired}
              onClick={() => onOpen(t.turn)}
              onKeyDown={key(t.turn)}
            >
              <title>{label}</title>
              <rect className="ss-hit" x={b.x - 6} y={T.top - 30} width={m.slot} height={T.plot + 30 + T.bottom} />
              <rect className="ss-read" x={b.x} y={b.read.y} width={m.bar} height={b.read.height} />
              <rect className="ss-write" x={b.x} y={b.write.y} width={m.bar} height={b.write.height} />
              <rect className="ss-uncached" x={b.x} y={b.uncached.y} width={m.bar} height={b.uncached.height} />
              {b.actual ? (
                <g className="ss-actual" data-testid="timeline-actual">
                  <rect
                    className="ss-read"
                    x={b.x + m.bar + 2}
                    y={b.actual.read.y}
                    width={m.actual}
                    height={b.actual.read.height}
                  />
                  <rect
                    className="ss-write"
                    x={b.x + m.bar + 2}
                    y={b.actual.write.y}
                    width={m.actual}
                    height={b.actual.write.height}
                  />
                  <rect
                    className="ss-uncached"
                    x={b.x + m.bar + 2}
                    y={b.actual.rest.y}
                    width={m.actual}
                    height={b.actual.rest.height}
                  />
                </g>
              ) : null}
              {b.bust ? (
                <g
                  className={`ss-bust ss-bust-${b.bust.cause === "ttl_expired" ? "expired" : "cause"}`}
                  data-testid="timeline-bust"
                >
                  <line x1={cx} x2={cx} y1={T.top - 12 - b.bust.row * 14} y2={T.top + T.plot} />
                  <text x={cx} y={T.top - 16 - b.bust.row * 14} textAnchor="middle">
                    {BUST_MARKS[b.bust.cause]}
                  </text>
                </g>
              ) : t.predicted.expired ? (
                <text className="ss-expired-mark" x={cx} y={T.top - 16} textAnchor="middle">
                  expired
                </text>
              ) : null}
              <text className="ss-turn-label" x={cx} y={T.top + T.plot + 18} textAnchor="middle">
                {t.turn}
              </text>
              {m.slot >= 64 && t.gapSeconds !== null && t.gapSeconds >= 60 ? (
                <text
                  className={`ss-gap-label${t.predicted.expired ? " ss-gap-long" : ""}`}
                  x={cx}
                  y={T.top + T.plot + 32}
                  textAnchor="middle"
                >
                  +{fmtGap(t.gapSeconds)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
