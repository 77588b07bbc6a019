import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useEffect, useRef, useState } from "react";

/** Lists up to this long are rendered whole (screenshots see every row); longer ones are virtualized. */
export const VIRTUALIZE_ABOVE = 200;

interface Props<T> {
  readonly items: readonly T[];
  /** Estimated row height in px; rows may be taller, they are measured. */
  readonly rowHeight: number;
  readonly renderRow: (item: T, index: number) => ReactNode;
  readonly getKey?: (item: T, index: number) => string | number;
  readonly testId: string;
  /** Scroll viewport height when virtualized. */
  readonly height?: number;
  readonly className?: string;
  readonly role?: string;
  readonly threshold?: number;
  /** Scrolls this row into view when it changes (e.g. "jump to message"). */
  readonly scrollToIndex?: number | null;
  /**
   * Every row is exactly `rowHeight` px: rows are not measured (measuring forces a layout per row),
   * and the rows in view are found from the scroll position alone (see `FixedRows`).
   */
  readonly fixedRowHeight?: boolean;
}

/** Rows drawn above and below the ones in view. */
const OVERSCAN = 8;

/**
 * The tallest scroll content a list of fixed rows makes, in px. Browsers cap an element's height
 * (Chromium at 33,554,428 px, Firefox at about 17.9 million): a taller list would stop where the
 * cap does, its last rows out of reach (an 18 px line of pretty JSON past line 1,864,135 in
 * Chromium, past about 994,000 in Firefox). Past this height the scroll range stands for the whole
 * list, scaled (see `FixedRows`).
 */
export const MAX_SCROLL_PX = 16_000_000;

/**
 * A list that stays fast at 100,000 rows and plain below the threshold: rows of one height are
 * placed by arithmetic (`FixedRows`), others measured by @tanstack/react-virtual.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  renderRow,
  getKey,
  testId,
  height = 560,
  className,
  role,
  threshold = VIRTUALIZE_ABOVE,
  scrollToIndex = null,
  fixedRowHeight = false,
}: Props<T>) {
  const big = items.length > threshold;
  const plainRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (big || scrollToIndex === null) return;
    plainRef.current?.children[scrollToIndex]?.scrollIntoView({ block: "center" });
  }, [big, scrollToIndex]);
  if (!big) {
    return (
      <div ref={plainRef} className={className} data-testid={testId} data-count={items.length} role={role}>
        {items.map((item, i) => (
          <div key={getKey ? getKey(item, i) : i} className="vrow">
            {renderRow(item, i)}
          </div>
        ))}
      </div>
    );
  }
  // Rows of one height are placed by arithmetic; others are measured by the virtualizer.
  const Rows = fixedRowHeight ? FixedRows : Virtualized;
  return (
    <Rows
      items={items}
      rowHeight={rowHeight}
      renderRow={renderRow}
      getKey={getKey}
      testId={testId}
      height={height}
      className={className}
      role={role}
      scrollToIndex={scrollToIndex}
    />
  );
}

/**
 * Rows of one height: the rows in view are `scrollTop / rowHeight` on, computed, not looked up.
 * The virtualizer keeps a measurement object per row, made again for each list it is given: a
 * request's pretty JSON (800,000 lines for an 18.5 MB chat) took ~27 ms and a 60 ms collection on
 * every switch to the view that shows it.
 *
 * A list taller than `MAX_SCROLL_PX` scrolls a range of that height, each scrolled pixel standing
 * for `scale` pixels of the list, so that its end stays within reach: the rows in view are drawn
 * where the viewport is (the list's offset at the top of the viewport is `scrollTop * scale`), and
 * a wheel or arrow key moves that many times further.
 */
function FixedRows<T>({
  items,
  rowHeight,
  renderRow,
  getKey,
  testId,
  height,
  className,
  role,
  scrollToIndex,
}: VirtualizedProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const total = items.length * rowHeight;
  const range = Math.min(total, MAX_SCROLL_PX);
  // List pixels per scrolled pixel: 1 unless the list is taller than the range it scrolls.
  const scale = total <= range ? 1 : (total - height) / (range - height);
  useEffect(() => {
    const el = scrollRef.current;
    if (scrollToIndex === null || !el) return;
    // The row in the middle of the viewport (the browser keeps scrollTop within its range).
    el.scrollTop = Math.max(0, (scrollToIndex * rowHeight - (height - rowHeight) / 2) / scale);
    setTop(el.scrollTop);
  }, [scrollToIndex, rowHeight, height, scale]);
  // The list's offset at the top of the viewport, and how far rows are drawn from their place in
  // the list to be in view (0 when the list fits its range; whole pixels, so text stays sharp).
  const offset = top * scale;
  const shift = Math.round(top - offset);
  const first = Math.max(0, Math.floor(offset / rowHeight) - OVERSCAN);
  const end = Math.min(items.length, Math.ceil((offset + height) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < end; i++) {
    const item = items[i]!;
    rows.push(
      <div
        key={getKey ? getKey(item, i) : i}
        data-index={i}
        className="vrow"
        style={{
          position: "absolute",
          top: 0,
          left: 0,
          width: "100%",
          height: rowHeight,
          transform: `translateY(${i * rowHeight + shift}px)`,
        }}
      >
        {renderRow(item, i)}
      </div>,
    );
  }
  return (
    <div
      ref={scrollRef}
      className={`vscroll ${className ?? ""}`}
      style={{ height, overflow: "auto" }}
      data-testid={testId}
      data-count={items.length}
      data-virtualized="true"
      data-rows="fixed"
      data-scale={scale === 1 ? undefined : scale.toFixed(3)}
      role={role}
      tabIndex={0}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
    >
      <div
        // A scaled list's last rows may be drawn past the range's end: clipped, so that they do not
        // lengthen the range (long lines still scroll sideways).
        style={{ height: range, position: "relative", width: "100%", ...(scale === 1 ? {} : { overflowY: "clip" }) }}
      >
        {rows}
      </div>
    </div>
  );
}

interface VirtualizedProps<T> {
  readonly items: readonly T[];
  readonly rowHeight: number;
  readonly renderRow: (item: T, index: number) => ReactNode;
  readonly getKey: ((item: T, index: number) => string | number) | undefined;
  readonly testId: string;
  readonly height: number;
  readonly className: string | undefined;
  readonly role: string | undefined;
  readonly scrollToIndex: number | null;
}

function Virtualized<T>({
  items,
  rowHeight,
  renderRow,
  getKey,
  testId,
  height,
  className,
  role,
  scrollToIndex,
}: VirtualizedProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer hands back fresh functions each render; fine here (no React Compiler memoization).
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    initialRect: { width: 800, height },
    ...(getKey ? { getItemKey: (i: number) => getKey(items[i]!, i) } : {}),
  });
  useEffect(() => {
    if (scrollToIndex !== null) virtualizer.scrollToIndex(scrollToIndex, { align: "center" });
  }, [scrollToIndex, virtualizer]);
  return (
    <div
      ref={scrollRef}
      className={`vscroll ${className ?? ""}`}
      style={{ height, overflow: "auto" }}
      data-testid={testId}
      data-count={items.length}
      data-virtualized="true"
      data-rows="measured"
      role={role}
      tabIndex={0}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            className="vrow"
            style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${row.start}px)` }}
          >
            {renderRow(items[row.index]!, row.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
