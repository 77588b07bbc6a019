import { useMemo } from "react";
import { fmtInt } from "./format.ts";
import { VirtualList } from "./VirtualList.tsx";

/** Lines up to this many are all in the DOM (findable, selectable); beyond, rows are virtualized. */
export const JSON_VIRTUALIZE_ABOVE = 2000;

/**
 * A line longer than this is shown clipped: laying out megabyte-long lines (a 50 MB request with
 * 1 MB messages) froze the page for seconds. Copy and Download still carry the full text.
 */
export const JSON_LINE_CHARS = 10_000;

/** Pretty JSON as text lines, virtualized past a couple of thousand lines, so a 5 MB document scrolls smoothly. */
export function JsonLines({
  text,
  testId,
  height = 460,
}: {
  readonly text: string;
  readonly testId: string;
  readonly height?: number;
}) {
  const lines = useMemo(() => text.split("\n"), [text]);
  return (
    <div className="json-lines" style={{ maxHeight: height, overflow: "auto" }}>
      <VirtualList
        items={lines}
        rowHeight={18}
        height={height}
        testId={testId}
        threshold={JSON_VIRTUALIZE_ABOVE}
        className="json-lines-list"
        renderRow={(line, i) => (
          <div className="json-line">
            <span className="json-ln" aria-hidden="true">
              {i + 1}
            </span>
            <span className="json-text">{line.length > JSON_LINE_CHARS ? line.slice(0, JSON_LINE_CHARS) : line}</span>
            {line.length > JSON_LINE_CHARS ? (
              <span className="muted" data-testid="json-line-clipped">
                … {fmtInt(line.length - JSON_LINE_CHARS)} more chars (copy or download for the full text)
              </span>
            ) : null}
          </div>
        )}
      />
    </div>
  );
}
