import { useMemo } from "react";
import { VirtualList } from "./VirtualList.tsx";

/** Lines up to this many are all in the DOM (findable, selectable); beyond, rows are virtualized. */
export const JSON_VIRTUALIZE_ABOVE = 2000;

/** Pretty JSON as text lines, virtualized past a couple of thousand lines, so a 5 MB document scrolls smoothly. */
export function JsonLines({ text, testId, height = 460 }: { readonly text: string; readonly testId: string; readonly height?: number }) {
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
            <span className="json-text">{line}</span>
          </div>
        )}
      />
    </div>
  );
}
