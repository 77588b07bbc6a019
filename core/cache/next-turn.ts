/**
 * `simulateNextTurn(request, { reply, nextInput })`: assembles turn N and turn N+1 (history +
 * this turn's input + the reply, then `nextInput`) under both layouts and compares each pair.
 * Under `cache_aware` the next turn only appends; under `legacy` the attachments and tool
 * results that follow the input move, so the stable prefix ends at this turn's input — the
 * picture that shows why `cache_aware` exists. This turn's tool results are not repeated.
 */
import { assembleProviderInput } from "../assemble/assemble.ts";
import type { TokenEstimator } from "../budget/context-measure.ts";
import type { AssemblyRequest } from "../formats/assembly-request.ts";
import { prepareAssembly } from "../formats/assembly-options.ts";
import type { AgentInput } from "../input/types.ts";
import type { Message } from "../messages/types.ts";
import { compareRequests } from "./compare.ts";
import { inferCacheProvider } from "./provider.ts";
import { segmentRequest } from "./segments.ts";
import type { AssemblyLayout, CacheProvider, LayoutNextTurn, NextTurnSimulation } from "./types.ts";

export interface NextTurnOptions {
  /** The assistant's reply to this turn. */
  readonly reply: string | Message;
  /** The user's next input. */
  readonly nextInput: AgentInput;
  /** Default: inferred from `request.model`. */
  readonly provider?: CacheProvider;
  readonly tokenEstimator?: TokenEstimator;
}

const asMessages = (input: AgentInput): readonly Message[] =>
  typeof input === "string" ? [{ role: "user", content: [{ type: "text", text: input }] }] : Array.isArray(input) ? (input as readonly Message[]) : [input as Message];

async function layoutPair(request: AssemblyRequest, layout: AssemblyLayout, options: NextTurnOptions, provider: CacheProvider): Promise<LayoutNextTurn> {
  const prepared = prepareAssembly(request, options.tokenEstimator ? { layout, tokenEstimator: options.tokenEstimator } : { layout });
  const first = await assembleProviderInput(prepared.options);
  const reply: Message = typeof options.reply === "string" ? { role: "assistant", content: [{ type: "text", text: options.reply }] } : options.reply;
  const { toolResults: _done, ...rest } = prepared.options;
  const second = await assembleProviderInput({
    ...rest,
    history: [...(prepared.options.history ?? []), ...asMessages(prepared.options.input), reply],
    input: options.nextInput,
  });
  const seg = (r: typeof first) => segmentRequest(r, options.tokenEstimator ? { provider, tokenEstimator: options.tokenEstimator } : { provider });
  const a = seg(first);
  const b = seg(second);
  const comparison = compareRequests(a, b, options.tokenEstimator ? { provider, tokenEstimator: options.tokenEstimator } : { provider });
  return {
    layout,
    turn: comparison.previous,
    nextTurn: comparison.next,
    comparison,
    stablePrefixRatio: comparison.next.bytes === 0 ? 0 : Math.round((comparison.commonPrefix.bytes / comparison.next.bytes) * 10_000) / 10_000,
  };
}

export async function simulateNextTurn(request: AssemblyRequest, options: NextTurnOptions): Promise<NextTurnSimulation> {
  const provider = options.provider ?? inferCacheProvider("strata", request.model.provider, request.model.model);
  const legacy = await layoutPair(request, "legacy", options, provider);
  const cacheAware = await layoutPair(request, "cache_aware", options, provider);
  return { provider, legacy, cache_aware: cacheAware };
}
