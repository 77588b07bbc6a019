import { CACHE_RULES, type CacheProvider } from "../../core/cache/index.ts";

/**
 * Model ids offered in the picker, read off core's cache rule table (`claude-sonnet-4-5*` →
 * `claude-sonnet-4-5`), so the list never disagrees with the rules. Any id may be typed.
 */
export const MODEL_SUGGESTIONS: readonly { readonly provider: CacheProvider; readonly id: string }[] = (() => {
  const seen = new Set<string>();
  const out: { provider: CacheProvider; id: string }[] = [];
  for (const rule of CACHE_RULES) {
    const m = /^([a-z0-9.-]+)\*$/i.exec(rule.models);
    if (!m || seen.has(m[1]!)) continue;
    seen.add(m[1]!);
    out.push({ provider: rule.provider, id: m[1]! });
  }
  return out;
})();
