import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_SCROLL_PX, VirtualList, VIRTUALIZE_ABOVE } from "./VirtualList.tsx";

describe("VirtualList", () => {
  afterEach(cleanup);

  it("renders short lists whole", () => {
    const items = Array.from({ length: VIRTUALIZE_ABOVE }, (_, i) => i);
    render(
      <VirtualList items={items} rowHeight={20} testId="list" renderRow={(n) => <span data-testid="row">{n}</span>} />,
    );
    expect(screen.getAllByTestId("row")).toHaveLength(VIRTUALIZE_ABOVE);
    expect(screen.getByTestId("list").dataset["virtualized"]).toBeUndefined();
  });

  it("keeps only a window of a 100,000-row list in the DOM", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    render(
      <VirtualList items={items} rowHeight={20} testId="list" renderRow={(n) => <span data-testid="row">{n}</span>} />,
    );
    const list = screen.getByTestId("list");
    expect(list.dataset["virtualized"]).toBe("true");
    expect(list.dataset["count"]).toBe("100000");
    expect(screen.queryAllByTestId("row").length).toBeLessThan(100);
  });

  it("places rows of one height from the scroll position alone", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    const row = (n: number) => <span data-testid="row">{n}</span>;
    const { rerender } = render(
      <VirtualList items={items} rowHeight={20} height={200} fixedRowHeight testId="list" renderRow={row} />,
    );
    const list = screen.getByTestId("list");
    expect(list.dataset["virtualized"]).toBe("true");
    expect(list.dataset["count"]).toBe("100000");
    expect((list.firstElementChild as HTMLElement).style.height).toBe("2000000px");
    const shown = () => screen.getAllByTestId("row").map((r) => Number(r.textContent));
    // 10 rows in view and 8 below them
    expect(shown()).toEqual(Array.from({ length: 18 }, (_, i) => i));
    list.scrollTop = 50_010; // row 2,500 is at the top, 10 px of it scrolled out
    fireEvent.scroll(list);
    expect(shown()).toEqual(Array.from({ length: 27 }, (_, i) => 2492 + i));
    const placed = list.querySelector('[data-index="2500"]') as HTMLElement;
    expect(placed.style.transform).toBe("translateY(50000px)");
    expect(placed.style.height).toBe("20px");
    // Asked to show a row, the list scrolls it to the middle.
    rerender(
      <VirtualList
        items={items}
        rowHeight={20}
        height={200}
        fixedRowHeight
        testId="list"
        renderRow={row}
        scrollToIndex={99_999}
      />,
    );
    expect(list.scrollTop).toBe(99_999 * 20 - 90);
    expect(shown()).toContain(99_999);
    expect(shown().at(-1)).toBe(99_999);
  });

  /** `length` lines of 18 px in a 460 px viewport, as JsonLines shows pretty JSON; each row shows its index. */
  const lines = (length: number, scrollToIndex: number | null = null) => (
    <VirtualList
      items={{ length } as unknown as readonly number[]}
      rowHeight={18}
      height={460}
      fixedRowHeight
      testId="list"
      renderRow={(_, i) => <span data-testid="row">{i}</span>}
      scrollToIndex={scrollToIndex}
    />
  );

  it("keeps every row of a list taller than a browser's tallest element within reach, scaled", () => {
    // 2,000,000 lines of 18 px: 36 M px, past Chromium's 33.5 M px cap on an element's height.
    const list = (scrollToIndex: number | null = null) => lines(2_000_000, scrollToIndex);
    const { rerender } = render(list());
    const el = screen.getByTestId("list");
    expect((el.firstElementChild as HTMLElement).style.height).toBe(`${MAX_SCROLL_PX}px`);
    const scale = (2_000_000 * 18 - 460) / (MAX_SCROLL_PX - 460);
    expect(el.dataset["scale"]).toBe(scale.toFixed(3));
    const shown = () => screen.getAllByTestId("row").map((r) => Number(r.textContent));
    const at = (i: number) =>
      Number(
        /translateY\((-?[\d.]+)px\)/.exec((el.querySelector(`[data-index="${i}"]`) as HTMLElement).style.transform)![1],
      );
    const scrollTo = (top: number) => {
      el.scrollTop = top;
      fireEvent.scroll(el);
    };
    // The first rows are where an unscaled list has them.
    expect(shown()[0]).toBe(0);
    expect(at(0)).toBe(0);
    // At the end of the range the last row is the viewport's last, drawn within the range.
    scrollTo(MAX_SCROLL_PX - 460);
    expect(shown().at(-1)).toBe(1_999_999);
    expect(Math.abs(at(1_999_999) + 18 - MAX_SCROLL_PX)).toBeLessThanOrEqual(1);
    // Halfway down the range: the row halfway down the list is at the top of the viewport.
    scrollTo(8_000_000);
    const topRow = Math.floor((8_000_000 * scale) / 18);
    expect(shown()).toContain(topRow);
    expect(at(topRow)).toBeGreaterThanOrEqual(8_000_000 - 18);
    expect(at(topRow)).toBeLessThanOrEqual(8_000_000);
    expect(at(topRow + 1) - at(topRow)).toBe(18);
    // Asked to show a row, the list scrolls it to the middle of the viewport.
    rerender(list(1_500_000));
    expect(shown()).toContain(1_500_000);
    expect(at(1_500_000) - el.scrollTop).toBeCloseTo((460 - 18) / 2, 0);
  });

  it("scrolls a list that fits the tallest element unscaled", () => {
    const rows = Math.floor(MAX_SCROLL_PX / 18);
    render(lines(rows));
    const el = screen.getByTestId("list");
    expect(el.dataset["scale"]).toBeUndefined();
    expect((el.firstElementChild as HTMLElement).style.height).toBe(`${rows * 18}px`);
  });
});
