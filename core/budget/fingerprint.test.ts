import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.ts";
import { composeBudgetedPrompt } from "./composer.ts";
import { fingerprintPrompt } from "./fingerprint.ts";

describe("fingerprintPrompt", () => {
  it("is the SHA-256 hex of the UTF-8 bytes", () => {
    expect(fingerprintPrompt("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(fingerprintPrompt("héllo wörld — 你好 🙂")).toBe(
      "9ab32fbda83ae0d00671c0c326822a4567651083d02a53808761ed3490eae99f",
    );
  });

  it("is equal for equal compositions and differs when a section is dropped", () => {
    const candidates = [
      { id: "a", tier: "core", content: "Be accurate." },
      { id: "b", tier: "informational", content: "Background." },
    ] as const;
    const wide = composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 100 });
    const again = composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 100 });
    const tight = composeBudgetedPrompt(candidates, { depth: 0, totalBudget: 12 });
    expect(fingerprintPrompt(again.composed)).toBe(fingerprintPrompt(wide.composed));
    expect(fingerprintPrompt(tight.composed)).not.toBe(fingerprintPrompt(wide.composed));
  });

  it("rejects a non-string", () => {
    expect(() => fingerprintPrompt(42 as unknown as string)).toThrow(InvalidInputError);
  });
});
