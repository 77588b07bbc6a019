/**
 * `simulateNextTurn(request, { reply, nextInput })`: assembles turn N and turn N+1 (history +
 * this turn's input + the reply, then `nextInput`) under both layouts and compares each pair.
 * Under `cache_aware` the next turn only appends; under `legacy` the attachments and tool
 * results that follow the input move, so the stable prefix ends at this turn's input — the
 * picture that shows why `cache_aware` exists. This turn's tool results are not repeated.
 */
import { assembleProviderInput } from "../assembly/assemble.ts";
import { checkedTokenEstimator, type TokenEstimator } from "../tokens/estimate.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { AssemblyRequest } from "../request/assembly-request.ts";
import { type AssemblyTemplateRenderer, prepareAssemblyWith } from "../request/prepare-with.ts";
import type { AgentInput } from "../assembly/types.ts";
import type { Message } from "../messages/types.ts";
import { isObject } from "../util/plain-object.ts";
import { compareTurns, toTurn } from "../cache/compare.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { checkProvider, segmentLazily } from "../cache/segments.ts";
import { checkAgentInput, checkReply, nextAssemblyTurn } from "./turn-edit.ts";
import type { CacheProvider, LayoutNextTurn, NextTurnSimulation } from "../cache/types.ts";
import type { InputAssemblyLayout } from "../assembly/types.ts";

export interface NextTurnOptions {
  /** The assistant's reply to this turn. */
  readonly reply: string | Message;
  /** The user's next input. */
  readonly nextInput: AgentInput;
  /** Default: inferred from `request.model`. */
  readonly provider?: CacheProvider;
  readonly tokenEstimator?: TokenEstimator;
}

async function layoutPair(
  request: AssemblyRequest,
  layout: InputAssemblyLayout,
  options: NextTurnOptions,
  provider: CacheProvider,
  estimate: TokenEstimator,
  render: AssemblyTemplateRenderer | undefined,
): Promise<LayoutNextTurn> {
  const prepared = prepareAssemblyWith(
    request,
    options.tokenEstimator ? { layout, tokenEstimator: options.tokenEstimator } : { layout },
    render,
  );
  const first = await assembleProviderInput(prepared.options);
  // The same next-turn rule as simulateAdjacentTurn, applied to the prepared options (templates rendered).
  const second = await assembleProviderInput(nextAssemblyTurn(prepared.options, options.reply, options.nextInput));
  // Both requests were assembled here: segment them without a second shape check.
  const firstSeg = segmentLazily(first, provider, estimate);
  const a = toTurn(firstSeg, provider, estimate);
  const b = toTurn(segmentLazily(second, provider, estimate, firstSeg), provider, estimate);
  const comparison = compareTurns(a, b, { provider }, estimate);
  return {
    layout,
    turn: comparison.previous,
    nextTurn: comparison.next,
    comparison,
    stablePrefixRatio:
      comparison.next.bytes === 0
        ? 0
        : Math.round((comparison.commonPrefix.bytes / comparison.next.bytes) * 10_000) / 10_000,
  };
}

export function simulateNextTurn(request: AssemblyRequest, options: NextTurnOptions): Promise<NextTurnSimulation> {
  return simulateNextTurnWith(request, options, undefined);
}

/** `simulateNextTurn` with the template renderer given (`inspect` passes the one that rendered the request). */
export async function simulateNextTurnWith(
  request: AssemblyRequest,
  options: NextTurnOptions,
  renderer: AssemblyTemplateRenderer | undefined,
): Promise<NextTurnSimulation> {
  if (
    !isObject(request) ||
    !isObject(request.model) ||
    typeof request.model.provider !== "string" ||
    typeof request.model.model !== "string"
  ) {
    throw new InvalidInputError(
      isObject(request) ? "model" : "request",
      isObject(request)
        ? "must be { provider: string, model: string }."
        : "must be an AssemblyRequest object { model, input, … }.",
    );
  }
  if (!isObject(options))
    throw new InvalidInputError("options", "must be { reply, nextInput, provider?, tokenEstimator? }.");
  checkReply(options.reply);
  checkAgentInput(options.nextInput, "nextInput");
  if (options.provider !== undefined) checkProvider(options.provider);
  const estimate = checkedTokenEstimator(options.tokenEstimator, "tokenEstimator");
  const provider = options.provider ?? inferCacheProvider("strata", request.model.provider, request.model.model);
  // The Jinja engine is loaded only for a request that has a template.
  const render = request.template
    ? (renderer ?? (await import("./template-engine.ts")).renderAssemblyTemplate)
    : undefined;
  const legacy = await layoutPair(request, "legacy", options, provider, estimate, render);
  const cacheAware = await layoutPair(request, "cache_aware", options, provider, estimate, render);
  return { provider, legacy, cache_aware: cacheAware };
}
