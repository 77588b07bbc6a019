/**
 * `simulateNextTurn(request, { reply, nextInput })`: assembles turn N and turn N+1 (history +
 * this turn's input + the reply, then `nextInput`) under both layouts and compares each pair.
 * Under `cache_aware` the next turn only appends; under `legacy` the attachments and tool
 * results that follow the input move, so the stable prefix ends at this turn's input — the
 * picture that shows why `cache_aware` exists. This turn's tool results are not repeated.
 * Token figures are `countRequestTokens`' per segment (exact with an OpenAI `tokenizer`), or the
 * caller's `tokenEstimator`.
 */
import { assembleProviderInput } from "../assembly/assemble.ts";
import { checkedTokenEstimator, type TokenEstimator } from "../tokens/estimate.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { AssemblyRequest } from "../request/assembly-request.ts";
import { type AssemblyTemplateRenderer, prepareAssemblyWith } from "../request/prepare-with.ts";
import type { AgentInput } from "../assembly/types.ts";
import type { Message } from "../messages/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import { isObject } from "../util/plain-object.ts";
import { compareTurns, toTurn } from "../cache/compare.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { checkProvider } from "../cache/segments.ts";
import { countedMeasure, estimatorMeasure, type Measure } from "../cache/counted.ts";
import { completeCountKit, lazyCountKit } from "../tokens/count-lazy.ts";
import type { Tokenizer } from "../tokens/types.ts";
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
  /** Counts each segment instead of `countRequestTokens` (and is the assembly's context-budget estimator). */
  readonly tokenEstimator?: TokenEstimator;
  /** `createOpenAITokenizer(model)`: exact OpenAI counts. */
  readonly tokenizer?: Tokenizer;
  /** Model whose billing is counted; default the request's. */
  readonly model?: string;
}

async function layoutPair(
  request: AssemblyRequest,
  layout: InputAssemblyLayout,
  options: NextTurnOptions,
  provider: CacheProvider,
  measure: Measure,
  ready: (request: ProviderRequest) => Promise<void>,
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
  // Both requests were assembled here: segment them without a second shape check (the second with
  // the first as twin, so the prefix they share is hashed once).
  await ready(first);
  await ready(second);
  const firstSeg = measure.segment(first);
  const a = toTurn(firstSeg, provider, measure.partial);
  const b = toTurn(measure.segment(second, firstSeg), provider, measure.partial);
  const comparison = compareTurns(a, b, { provider }, measure.partial);
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
  // countRequestTokens per segment, as simulateCache and inspect count, unless an estimator is given.
  const kit = lazyCountKit();
  const measure = options.tokenEstimator
    ? estimatorMeasure(provider, estimate)
    : countedMeasure(provider, estimate, kit, {
        ...(options.model ? { model: options.model } : {}),
        ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}),
      });
  const ready = (r: ProviderRequest) =>
    options.tokenEstimator ? Promise.resolve() : completeCountKit(kit, r, options.tokenizer !== undefined);
  const legacy = await layoutPair(request, "legacy", options, provider, measure, ready, render);
  const cacheAware = await layoutPair(request, "cache_aware", options, provider, measure, ready, render);
  return { provider, legacy, cache_aware: cacheAware };
}
