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

/**
 * The lines of `text` as a list: split when short; when long, a view over the line starts, each
 * line cut out only when its row is drawn (splitting a 30 MB document made half a million strings
 * on the main thread; finding the line starts makes none).
 */
export function textLines(text: string): readonly string[] {
  // The same long text is shown again on every switch to its view: its line starts are kept.
  for (const kept of keptLines) if (kept.text === text) return kept.lines;
  let count = 1;
  for (let i = text.indexOf("\n"); i !== -1 && count <= JSON_VIRTUALIZE_ABOVE; i = text.indexOf("\n", i + 1)) count++;
  if (count <= JSON_VIRTUALIZE_ABOVE) return text.split("\n");
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const line = (k: number) => text.slice(starts[k]!, k + 1 < starts.length ? starts[k + 1]! - 1 : text.length);
  // Only `length` and indexing are read for a virtualized list (see VirtualList).
  const lines = new Proxy(starts, {
    get: (target, key, receiver) =>
      typeof key === "string" && /^\d+$/.test(key) ? line(Number(key)) : Reflect.get(target, key, receiver),
  }) as unknown as readonly string[];
  keptLines.unshift({ text, lines });
  keptLines.length = Math.min(keptLines.length, KEPT_TEXTS);
  return lines;
}

/**
 * Long texts whose lines were found last, newest first (each with its line starts: 800,000 lines
 * of an 18.5 MB chat's pretty JSON took ~20 ms to find). Texts are compared as strings: the same
 * text is almost always the very same string, compared at once.
 */
const keptLines: { readonly text: string; readonly lines: readonly string[] }[] = [];
const KEPT_TEXTS = 3;

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
  const lines = useMemo(() => textLines(text), [text]);
  return (
    <div className="json-lines" style={{ maxHeight: height, overflow: "auto" }}>
      <VirtualList
        items={lines}
        rowHeight={18}
        // One line per row (white-space: pre, line-height 18px): placed, not measured.
        fixedRowHeight
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
