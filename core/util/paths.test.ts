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
});
