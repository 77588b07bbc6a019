import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameJson } from "./same-json.ts";

const jsonArb = fc.jsonValue({ maxDepth: 4 });

describe("sameJson", () => {
  it("is true only for values that serialize the same, and for every value against its own copy (property, seed 1803)", () => {
    fc.assert(
      fc.property(jsonArb, jsonArb, (a, b) => {
        if (sameJson(a, b)) expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
      { seed: 1803, numRuns: 300 },
    );
  });

  it("gives up on what it cannot vouch for", () => {
    const f = () => 1;
    expect(sameJson(f, f)).toBe(false);
    expect(sameJson(1n, 1n)).toBe(false);
    expect(sameJson(Number.NaN, Number.NaN)).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ toJSON: "x" }, { toJSON: "x" })).toBe(false);
    expect(sameJson(new Date(0), new Date(0))).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(sameJson(deep, structuredClone(deep))).toBe(false);
  });
});
