import { InvalidInputError } from "../errors.ts";
import { throwIfAborted, untilAborted } from "../input/abort.ts";
import type { JsonValue, Message } from "../messages/index.ts";
import type { ContextBlock, PromptBuildRequest } from "../prompt/types.ts";

/** The assembly hooks, in the order `assembleProviderInput` runs them. */
export const MIDDLEWARE_HOOKS = ["input_assembly", "context", "prompt_build"] as const;
export type MiddlewareHook = (typeof MIDDLEWARE_HOOKS)[number];

/** What each hook receives and must return. */
export interface MiddlewarePayloads {
  readonly input_assembly: readonly Message[];
  readonly context: readonly ContextBlock[];
  readonly prompt_build: PromptBuildRequest;
}

export interface MiddlewareContext {
  readonly sessionId?: string;
  readonly runId?: string;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
}

/** The run's ids and signal taken from `options`; absent ones are left out (never `undefined`). */
export function middlewareContextOf(options: MiddlewareContext): MiddlewareContext {
  return {
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    ...(options.runId === undefined ? {} : { runId: options.runId }),
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

export type Middleware<H extends MiddlewareHook> = (
  payload: MiddlewarePayloads[H],
  context: MiddlewareContext,
) => MiddlewarePayloads[H] | Promise<MiddlewarePayloads[H]>;

/**
 * An ordered list of functions per hook. Not global: it runs only for calls that are given it.
 * Each function receives the previous one's result; `run` returns the last result.
 */
export interface MiddlewareRegistry {
  use<H extends MiddlewareHook>(hook: H, fn: Middleware<H>): MiddlewareRegistry;
  run<H extends MiddlewareHook>(
    hook: H,
    payload: MiddlewarePayloads[H],
    context?: MiddlewareContext,
  ): Promise<MiddlewarePayloads[H]>;
  /** How many functions are registered for `hook`. */
  count(hook: MiddlewareHook): number;
}

export function createMiddlewareRegistry(): MiddlewareRegistry {
  const chains: { [H in MiddlewareHook]: Middleware<H>[] } = { input_assembly: [], context: [], prompt_build: [] };
  const registry: MiddlewareRegistry = {
    use(hook, fn) {
      assertHook(hook);
      if (typeof fn !== "function")
        throw new InvalidInputError(`middleware.${hook}`, `use("${hook}", fn) needs a function, got ${typeof fn}.`);
      (chains[hook] as Middleware<typeof hook>[]).push(fn);
      return registry;
    },
    async run(hook, payload, context = {}) {
      assertHook(hook);
      let value = payload;
      const chain = chains[hook] as Middleware<typeof hook>[];
      for (let i = 0; i < chain.length; i++) {
        throwIfAborted(context.signal);
        value = await untilAborted(chain[i]!(value, context), context.signal);
        assertPayload(hook, value, `middleware.${hook}[${i}]`);
      }
      return value;
    },
    count(hook) {
      assertHook(hook);
      return chains[hook].length;
    },
  };
  return registry;
}

function assertHook(hook: unknown): asserts hook is MiddlewareHook {
  if (!(MIDDLEWARE_HOOKS as readonly unknown[]).includes(hook)) {
    throw new InvalidInputError(
      "hook",
      `must be "input_assembly", "context" or "prompt_build", got ${JSON.stringify(hook) ?? "undefined"}.`,
    );
  }
}

function assertPayload(hook: MiddlewareHook, value: unknown, field: string): void {
  const ok =
    hook === "prompt_build"
      ? typeof value === "object" && value !== null && Array.isArray((value as { messages?: unknown }).messages)
      : Array.isArray(value);
  if (!ok) {
    const expected =
      hook === "input_assembly"
        ? "an array of messages"
        : hook === "context"
          ? "an array of context blocks"
          : "a prompt build request { messages, … }";
    throw new InvalidInputError(field, `must return ${expected}; did it forget to return its input?`);
  }
}
