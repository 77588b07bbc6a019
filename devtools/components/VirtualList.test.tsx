import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualList, VIRTUALIZE_ABOVE } from "./VirtualList.tsx";

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
});
