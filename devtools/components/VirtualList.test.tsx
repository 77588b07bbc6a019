import { cleanup, render, screen } from "@testing-library/react";
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
});
