import { InvalidInputError } from "../util/errors.ts";
import { throwIfAborted, untilAborted } from "./abort.ts";
import { isObject } from "../util/plain-object.ts";
import type { Message } from "../messages/index.ts";
import type { ContextBlock, ContextProvider } from "./types.ts";
import { assertContextBlocks } from "./prompt-validate.ts";
import { middlewareContextOf } from "./middleware.ts";
import type { MiddlewareContext, MiddlewareRegistry } from "./types.ts";

export interface ResolveContextOptions extends MiddlewareContext {
  readonly messages: readonly Message[];
  readonly providers?: readonly ContextProvider[];
  readonly middleware?: MiddlewareRegistry;
}

/**
 * Resolves providers one after another, in the order given (their blocks keep that order),
 * then runs the `context` middleware once over all blocks.
 */
export async function resolveContextProviders(options: ResolveContextOptions): Promise<readonly ContextBlock[]> {
  const { providers = [], middleware, signal } = options;
  const ids = middlewareContextOf(options);
  if (!Array.isArray(providers))
    throw new InvalidInputError("contextProviders", "must be an array of { name, resolve(context) }.");
  const blocks: ContextBlock[] = [];
  for (let i = 0; i < providers.length; i++) {
    const provider: unknown = providers[i];
    if (!isObject(provider) || typeof provider["resolve"] !== "function") {
      throw new InvalidInputError(`contextProviders[${i}]`, "must be a context provider { name, resolve(context) }.");
    }
    throwIfAborted(signal);
    const resolved: unknown = await untilAborted(
      (provider as unknown as ContextProvider).resolve({ messages: options.messages, ...ids }),
      signal,
    );
    assertContextBlocks(resolved, `contextProviders[${i}].resolve()`);
    for (const block of resolved) blocks.push(block);
  }
  if (middleware === undefined) return blocks;
  const out = await middleware.run("context", blocks, ids);
  assertContextBlocks(out, "middleware.context");
  return out;
}
