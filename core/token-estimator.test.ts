/**
 * One token-estimator contract (checkedTokenEstimator) for the context budget and the cache
 * analysis: the same error (a TypeError) with the same message, and the same rounding.
 */
import { describe, expect, it } from "vitest";
import { compareRequests } from "./cache/compare.ts";
import { toFingerprintBundle } from "./cache/fingerprints.ts";
import { segmentRequest } from "./cache/segments.ts";
import { simulateCache } from "./cache/simulate.ts";
import { ContextBudgetError } from "./assembly/errors.ts";
import { InvalidInputError, StrataError } from "./util/errors.ts";
import { RequestFormatError } from "./formats/errors.ts";
import { TokenEstimatorError } from "./tokens/errors.ts";
import type { NormalizedRequest } from "./formats/types.ts";
import type { SourcedMessage } from "./assembly/sources.ts";
import { applyContextBudget, resolveContextBudget } from "./assembly/context-budget.ts";
import { checkedTokenEstimator, estimateTextTokens } from "./tokens/estimate.ts";

const request: NormalizedRequest = {
  model: { provider: "openai", model: "gpt-4o" },
  tools: [],
  messages: [
    { role: "system", content: [{ type: "text", text: "You are terse." }] },
    { role: "user", content: [{ type: "text", text: "hello there" }] },
  ],
};
const items: SourcedMessage[] = request.messages.map((message, i) => ({
  message,
  source: i === 0 ? "instructions" : "input",
}));
const bundle = toFingerprintBundle(segmentRequest(request, { provider: "openai" }));

/** Each API with a given estimator, its option path in errors. */
const apis: [string, string, (estimator: unknown) => unknown][] = [
  [
    "the context budget",
    "contextBudget.tokenEstimator",
    (e) => applyContextBudget({ items, budget: { maxInputTokens: 1000, tokenEstimator: e as never } }),
  ],
  [
    "segmentRequest",
    "tokenEstimator",
    (e) => segmentRequest(request, { provider: "openai", tokenEstimator: e as never }),
  ],
  [
    "compareRequests",
    "tokenEstimator",
    (e) => compareRequests(request, request, { provider: "openai", tokenEstimator: e as never }),
  ],
  [
    "simulateCache",
    "tokenEstimator",
    (e) => simulateCache([request], { provider: "openai", tokenEstimator: e as never }),
  ],
];

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a throw");
}

describe("the token-estimator contract", () => {
  it.each(apis)("%s rejects a non-function with TokenEstimatorError, a TypeError", (_, field, call) => {
    const e = thrown(() => call("tiktoken"));
    expect(e).toBeInstanceOf(TokenEstimatorError);
    expect(e).toBeInstanceOf(TypeError);
    expect(e).toMatchObject({ code: "invalid_token_estimator", field, name: "TokenEstimatorError" });
    expect(e.message).toBe(`${field} must be a function (text: string) => number, got a string.`);
  });

  it.each(
    apis.flatMap(([name, field, call]) =>
      ([-1, Number.NaN, Number.POSITIVE_INFINITY, "3", undefined] as const).map(
        (v) => [name, String(v), field, call, v] as const,
      ),
    ),
  )("%s rejects a result of %s with the same message", (_, __, field, call, value) => {
    const e = thrown(() => call(() => value));
    expect(e).toBeInstanceOf(TokenEstimatorError);
    expect(e.message).toMatch(
      new RegExp(
        `^${field.replace(".", "\\.")} returned .+ for a \\d+-character text: it must return a finite, non-negative number\\.$`,
      ),
    );
  });

  it("checks the estimator at entry, even when a bundle needs no measuring", () => {
    expect(() => compareRequests(bundle, bundle, { provider: "openai", tokenEstimator: 3 as never })).toThrow(
      TokenEstimatorError,
    );
    expect(() => simulateCache([bundle], { provider: "openai", tokenEstimator: null as never })).toThrow(/got null\.$/);
  });

  it("is a TypeError, and a StrataError by brand, but none of the other families", () => {
    const e = new TokenEstimatorError("tokenEstimator", "x");
    expect(e).toBeInstanceOf(TypeError);
    expect(e).toBeInstanceOf(StrataError);
    expect(e).not.toBeInstanceOf(ContextBudgetError);
    expect(e).not.toBeInstanceOf(RequestFormatError);
    expect(new InvalidInputError("f", "m")).not.toBeInstanceOf(TypeError);
    expect(new TypeError("x")).not.toBeInstanceOf(StrataError);
  });
});

describe("the rounding rule: whole tokens per measured text, rounded up", () => {
  const thirds = (t: string) => t.length / 3;

  it("leaves the default estimate unchanged", () => {
    expect(checkedTokenEstimator(undefined, "tokenEstimator")).toBe(estimateTextTokens);
  });

  it("rounds a fractional estimate up per segment", () => {
    const seg = segmentRequest(request, { provider: "openai", tokenEstimator: thirds });
    seg.segments.forEach((s, i) => expect(s.tokens).toBe(Math.ceil(seg.texts[i]!.length / 3)));
    expect(seg.totalTokens).toBe(seg.segments.reduce((n, s) => n + s.tokens, 0));
  });

  it("rounds a fractional estimate up per message in the context budget (the default is already whole)", () => {
    const estimate = resolveContextBudget({ maxInputTokens: 10, tokenEstimator: thirds }).estimate;
    expect(estimate("abcd")).toBe(2);
    const result = applyContextBudget({
      items,
      budget: { maxInputTokens: 1000, reportOmissions: true, tokenEstimator: thirds },
    });
    expect(result.report.keptTokens).toBe(Math.ceil("You are terse.".length / 3) + Math.ceil("hello there".length / 3));
    expect(Number.isInteger(result.report.keptTokens)).toBe(true);
  });

  it("rounds the shared start of a partly matching segment up, never past the segment", () => {
    const next: NormalizedRequest = {
      ...request,
      messages: [request.messages[0]!, { role: "user", content: [{ type: "text", text: "hello world" }] }],
    };
    const r = compareRequests(request, next, { provider: "openai", tokenEstimator: thirds });
    expect(Number.isInteger(r.commonPrefix.tokens)).toBe(true);
    expect(r.commonPrefix.tokens).toBeLessThanOrEqual(r.next.tokens);
  });
});
