import { describe, expect, it } from "vitest";
import { IntList } from "./int-list.ts";

describe("IntList", () => {
  it("grows from any capacity and gives back every value in order", () => {
    for (const capacity of [0, 1, 16, 100_000]) {
      const list = new IntList(capacity);
      for (let i = 0; i < 100_000; i++) list.push(i % 7 === 1 ? -i : i);
      expect(list.length).toBe(100_000);
      for (const i of [0, 1, 15, 16, 17, 65_535, 65_536, 99_999]) expect(list.get(i)).toBe(i % 7 === 1 ? -i : i);
      const values = list.values();
      expect(values.length).toBe(100_000);
      expect(values[99_998]).toBe(99_998);
    }
  });

  it("gives a view of the values so far, which later pushes leave as it is", () => {
    const list = new IntList(4);
    [5, 6, 7].forEach((v) => list.push(v));
    const before = list.values();
    list.push(8);
    list.push(9);
    expect([...before]).toEqual([5, 6, 7]);
    expect([...list.values()]).toEqual([5, 6, 7, 8, 9]);
  });
});
