import { InvalidInputError } from "../util/errors.ts";
import { throwIfAborted, untilAborted } from "./abort.ts";
import {
  MIDDLEWARE_HOOKS,
  type Middleware,
  type MiddlewareContext,
  type MiddlewareHook,
  type MiddlewareRegistry,
} from "./types.ts";
import { definedFields } from "../util/plain-object.ts";

/** The run's ids and signal taken from `options`; absent ones are left out (never `undefined`). */
export function middlewareContextOf(options: MiddlewareContext): MiddlewareContext {
  return {
    ...definedFields({
      sessionId: options.sessionId,
      runId: options.runId,
      metadata: options.metadata,
      signal: options.signal,
    }),
  };
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
