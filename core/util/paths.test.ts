import { describe, expect, it } from "vitest";
import { contentPath, messagePath } from "./paths.ts";

describe("messagePath and contentPath", () => {
  it("write the paths a template literal writes, for small and large indexes", () => {
    for (const i of [0, 7, 99, 1000, 12_345, 99_999, 1_000_000])
      for (const j of [0, 3, 10, 4_096]) {
        expect(messagePath(i)).toBe(`messages[${i}]`);
        expect(contentPath(i, j)).toBe(`messages[${i}].content[${j}]`);
      }
  });

  it("returns a path that later calls leave as it is (the pieces they join are reused)", () => {
    const first = messagePath(1);
    const block = contentPath(2, 3);
    messagePath(40);
    contentPath(50, 60);
    expect([first, block]).toEqual(["messages[1]", "messages[2].content[3]"]);
  });
});
