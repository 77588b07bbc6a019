import { describe, expect, it } from "vitest";
import { allOf, isMember } from "./closedSets.ts";

type Colour = "red" | "green" | "blue";

describe("allOf", () => {
  it("returns the list unchanged, in the order given", () => {
    expect(allOf<Colour>()(["blue", "red", "green"])).toEqual(["blue", "red", "green"]);
  });

  it("rejects a list that misses a member or names one the union lacks", () => {
    // @ts-expect-error "blue" is missing
    const missing = allOf<Colour>()(["red", "green"]);
    // @ts-expect-error "pink" is not a Colour
    const unknown = allOf<Colour>()(["red", "green", "blue", "pink"]);
    expect([missing, unknown]).toHaveLength(2);
  });
});

describe("isMember", () => {
  it("is true only for members of the list, never for inherited property names", () => {
    const colours: readonly Colour[] = ["red", "green", "blue"];
    expect(isMember(colours, "green")).toBe(true);
    expect(isMember(colours, "pink")).toBe(false);
    expect(isMember(colours, "constructor")).toBe(false);
  });
});
