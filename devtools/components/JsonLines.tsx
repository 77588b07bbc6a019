import { useMemo } from "react";
import { fmtInt } from "./format.ts";
import { VirtualList } from "./VirtualList.tsx";
import type { TextParts } from "./textParts.ts";

/** Lines up to this many are all in the DOM (findable, selectable); beyond, rows are virtualized. */
export const JSON_VIRTUALIZE_ABOVE = 2000;

/**
 * A line longer than this is shown clipped: laying out megabyte-long lines (a 50 MB request with
 * 1 MB messages) froze the page for seconds. Copy and Download still carry the full text.
 */
export const JSON_LINE_CHARS = 10_000;

/**
 * The lines of a text in parts (each but the last ending with a newline, see `splitAtLines`; a
 * string is one part): a view over each part's line starts, a line cut out of its part when its
 * row is drawn. The starts are counted first, then written into a list of their size: grown by
 * `push`, the million starts of an 18.5 MB request's pretty JSON copied themselves over and over
 * (headless Chromium: 48 ms of a 173 ms task, most of its 66 ms of garbage collection besides;
 * counted first, 24 ms).
 */
function partLines(parts: readonly string[]): readonly string[] {
  /** Where a part's last line ends: before its closing newline. */
  const bodyEnd = (part: string) => (part.endsWith("\n") ? part.length - 1 : part.length);
  // After a final newline comes one empty line (as `split` gives), and an empty text is one: -1.
  const trailing = parts.length === 0 || parts[parts.length - 1]!.endsWith("\n");
  let count = trailing ? 1 : 0;
  for (const part of parts) {
    count++;
    const end = bodyEnd(part);
    for (let i = part.indexOf("\n"); i !== -1 && i < end; i = part.indexOf("\n", i + 1)) count++;
  }
  const starts = new Int32Array(count);
  /** The first line of each part, then the line count of all the parts. */
  const firstLine = new Int32Array(parts.length + 1);
  let n = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    firstLine[p] = n;
    starts[n++] = 0;
    const end = bodyEnd(part);
    for (let i = part.indexOf("\n"); i !== -1 && i < end; i = part.indexOf("\n", i + 1)) starts[n++] = i + 1;
  }
  firstLine[parts.length] = n;
  if (trailing) starts[n] = -1;
  const line = (k: number): string => {
    if (k >= count || starts[k] === -1) return "";
    let p = 0;
    for (let hi = parts.length - 1; p < hi; ) {
      const mid = (p + hi + 1) >> 1;
      if (firstLine[mid]! <= k) p = mid;
      else hi = mid - 1;
    }
    const part = parts[p]!;
    return part.slice(starts[k], k + 1 < firstLine[p + 1]! ? starts[k + 1]! - 1 : bodyEnd(part));
  };
  // A list of `count` lines to whatever reads it: its length, its indexes (a list short enough not
  // to be virtualized is mapped over, which asks whether each index is there).
  const isIndex = (key: string | symbol): key is string => typeof key === "string" && /^\d+$/.test(key);
  return new Proxy([] as string[], {
    get: (target, key, receiver) =>
      key === "length" ? count : isIndex(key) ? line(Number(key)) : Reflect.get(target, key, receiver),
    has: (target, key) => (isIndex(key) ? Number(key) < count : Reflect.has(target, key)),
  });
}

/**
 * The lines of `text` as a list: split when short; when long, a view over the line starts, each
 * line cut out only when its row is drawn (splitting a 30 MB document made half a million strings
 * on the main thread; finding the line starts makes none). A text in parts (`TextParts`) always
 * gets the view.
 */
export function textLines(text: string | TextParts): readonly string[] {
  // The same long text is shown again on every switch to its view: its line starts are kept.
  for (const kept of keptLines) if (kept.text === text) return kept.lines;
  if (typeof text === "string") {
    let count = 1;
    for (let i = text.indexOf("\n"); i !== -1 && count <= JSON_VIRTUALIZE_ABOVE; i = text.indexOf("\n", i + 1)) count++;
    if (count <= JSON_VIRTUALIZE_ABOVE) return text.split("\n");
  }
  const lines = partLines(typeof text === "string" ? [text] : text.parts);
  keptLines.unshift({ text, lines });
  keptLines.length = Math.min(keptLines.length, KEPT_TEXTS);
  return lines;
}

/**
 * Long texts whose lines were found last, newest first (each with its line starts: 800,000 lines
 * of an 18.5 MB chat's pretty JSON took ~20 ms to find). Texts are compared as strings: the same
 * text is almost always the very same string, compared at once.
 */
const keptLines: { readonly text: string | TextParts; readonly lines: readonly string[] }[] = [];
const KEPT_TEXTS = 3;

/** Pretty JSON as text lines, virtualized past a couple of thousand lines, so a 5 MB document scrolls smoothly. */
export function JsonLines({
  text,
  testId,
  height = 460,
}: {
  readonly text: string | TextParts;
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
