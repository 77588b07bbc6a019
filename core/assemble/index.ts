export { assembleProviderInput, explainProviderInput } from "./assemble.ts";
export { resolveContextProviders } from "./context.ts";
export type { ResolveContextOptions } from "./context.ts";
export { MIDDLEWARE_HOOKS, createMiddlewareRegistry } from "./middleware.ts";
export type {
  Middleware,
  MiddlewareContext,
  MiddlewareHook,
  MiddlewarePayloads,
  MiddlewareRegistry,
} from "./middleware.ts";
export { applyDefaultProviderRequestOptions } from "./request-defaults.ts";
export type { ProviderRequestDefaults } from "./request-defaults.ts";
export type { AssemblyTrace, AssemblyTraceRow, ExplainedProviderInput } from "./trace.ts";
export type { AssembleProviderInputOptions } from "./types.ts";
