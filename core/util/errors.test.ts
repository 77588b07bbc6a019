import { describe, expect, it } from "vitest";
import { ContextBudgetError } from "../assembly/errors.ts";
import { TokenEstimatorError } from "../tokens/errors.ts";
import { InvalidInputError, StrataError, brandStrataError } from "./errors.ts";

describe("StrataError", () => {
  it("is the base of every family and keeps ordinary instanceof for the subclasses", () => {
    const input = new InvalidInputError("history[2]", "must be a message, got a string.");
    expect(input).toBeInstanceOf(StrataError);
    expect(input).toBeInstanceOf(InvalidInputError);
    expect(input).not.toBeInstanceOf(ContextBudgetError);
    expect(input).toMatchObject({ code: "invalid_input", field: "history[2]", name: "InvalidInputError" });
  });

  it("recognises TokenEstimatorError, which must also be a TypeError", () => {
    const e = new TokenEstimatorError("tokenEstimator", "tokenEstimator must be a function.");
    expect(e).toBeInstanceOf(TypeError);
    expect(e).toBeInstanceOf(StrataError);
    expect(e.code).toBe("invalid_token_estimator");
  });

  it("recognises an error from another copy of the package by its registered brand", () => {
    // A second install defines its own classes; what they share is the Symbol.for brand.
    class OtherCopyError extends Error {
      constructor() {
        super("from another copy");
        brandStrataError(this);
      }
    }
    expect(new OtherCopyError()).toBeInstanceOf(StrataError);
    expect(new Error("plain")).not.toBeInstanceOf(StrataError);
    expect({ code: "invalid_input" }).not.toBeInstanceOf(StrataError);
    expect(null).not.toBeInstanceOf(StrataError);
  });

  it("keeps the brand out of what a spread or JSON.stringify copies", () => {
    const e = new InvalidInputError("x", "bad.");
    expect(Object.getOwnPropertySymbols({ ...e })).toEqual([]);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ name: "InvalidInputError", code: "invalid_input", field: "x" });
  });
});
