import { useMemo } from "react";
import type { NormalizedRequest } from "../../../core/formats/index.ts";
import type { ReportSegments } from "../../../core/inspect/index.ts";
import { blockAt, Thumbnail } from "../../components/Thumbnail.tsx";
import { fmtInt } from "../../components/format.ts";
import { VirtualList } from "../../components/VirtualList.tsx";
import { isStable } from "./model.ts";

/** Every segment in prompt order with its size and hash; rows inside the shared prefix are marked. */
export function SegmentTable({
  request = null,
  seg,
  stableBytes,
}: {
  readonly seg: ReportSegments;
  /** The request, for thumbnails of inline images. */
  readonly request?: NormalizedRequest | null;
  readonly stableBytes: number | null;
}) {
  const hasImages = useMemo(() => seg.segments.some((s) => s.blockType === "image"), [seg.segments]);
  return (
    <section className="panel">
      <div className="panel-head">
        <h2>Segments</h2>
        <span className="muted">
          Order {seg.order.join(" → ")}. {seg.orderNote}
        </span>
      </div>
      <div className="cp-seg cp-seg-head" aria-hidden="true">
        <span className="num">#</span>
        <span>Path</span>
        <span>Region</span>
        <span className="num">Bytes</span>
        <span className="num">Tokens</span>
        <span>SHA-256</span>
        <span>Preview</span>
      </div>
      <VirtualList
        items={seg.segments}
        rowHeight={28}
        // Rows are one line each but for an image's thumbnail: without images, placed, not measured.
        fixedRowHeight={!hasImages}
        testId="segment-list"
        getKey={(s) => s.index}
        renderRow={(s) => {
          const stable = isStable(s, stableBytes);
          return (
            <div
              className="cp-seg"
              data-testid="cache-segment"
              data-path={s.path}
              data-stable={stable}
              data-breakpoint={s.cacheBreakpoint}
            >
              <span className="num muted">{s.index}</span>
              <code className="cp-seg-path" title={s.path}>
                {s.cacheBreakpoint ? "◆ " : ""}
                {s.path}
              </code>
              <span className="cp-region" data-region={s.region}>
                {s.region}
                {s.role && s.role !== s.region ? ` · ${s.role}` : ""}
              </span>
              <span className="num">{fmtInt(s.byteLength)}</span>
              <span className="num">{fmtInt(s.tokens)}</span>
              <code className="muted" title={s.sha256}>
                {s.sha256.slice(0, 10)}
              </code>
              <span className="cp-preview" title={s.preview}>
                {s.blockType === "image" ? <Thumbnail block={blockAt(request, s.path)} /> : null}
                {s.preview}
              </span>
            </div>
          );
        }}
      />
    </section>
  );
}
