import type { ProviderRequest } from "../messages/request.ts";

/** Provider wire formats: read by `parseWireRequest`, written by the `to*` converters. */
export const WIRE_FORMATS = ["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse"] as const;
export type WireFormat = (typeof WIRE_FORMATS)[number];

/**
 * A `ProviderRequest` as plain JSON: everything but the `signal`. This is what
 * `parseRequest` returns for wire formats and what an `InspectionReport` carries.
 */
export type NormalizedRequest = Omit<ProviderRequest, "signal">;
