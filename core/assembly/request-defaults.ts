import type { ProviderRequest } from "../messages/index.ts";
import { definedFields } from "../util/plain-object.ts";

export interface ProviderRequestDefaults {
  readonly sessionId?: string;
  /** Defaults to `sessionId`, so one session keeps one provider cache key. */
  readonly cacheKey?: string;
}

/**
 * Stamps `sessionId` and `cacheKey` onto a request that lacks them (never overwrites).
 * `cacheKey` falls back to the session id. Returns a new request; the input is not changed.
 */
export function applyDefaultProviderRequestOptions(
  request: ProviderRequest,
  defaults: ProviderRequestDefaults,
): ProviderRequest {
  const sessionId = request.sessionId ?? defaults.sessionId;
  const cacheKey = request.cacheKey ?? defaults.cacheKey ?? sessionId;
  if (sessionId === request.sessionId && cacheKey === request.cacheKey) return request;
  return {
    ...request,
    ...definedFields({ sessionId, cacheKey }),
  };
}
