import type { ProviderRequest } from "../messages/request.ts";

/** Request formats `parseRequest` detects, in the order it tries them. */
export const REQUEST_FORMATS = ["strata", "openai-chat", "openai-responses", "anthropic", "gemini"] as const;
export type RequestFormat = (typeof REQUEST_FORMATS)[number];

/** Wire formats the converters write (every format except Strata's own `AssemblyRequest`). */
export const WIRE_FORMATS = ["openai-chat", "openai-responses", "anthropic", "gemini"] as const;
export type WireFormat = (typeof WIRE_FORMATS)[number];

/**
 * A `ProviderRequest` as plain JSON: everything but the `signal`. This is what
 * `parseRequest` returns for wire formats and what an `InspectionReport` carries.
 */
export type NormalizedRequest = Omit<ProviderRequest, "signal">;
