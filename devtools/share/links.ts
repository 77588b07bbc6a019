import type { FingerprintBundle } from "../../core/cache/index.ts";
import { formatHash } from "../routing/routes.ts";
import { useInput } from "../store/input.ts";
import { pickSettings, useUi } from "../store/settings.ts";
import { encodeBundle } from "./bundle.ts";
import { encodeShareState, MAX_SHARE_URL_CHARS, type ShareState } from "./state.ts";

export type ShareLink = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

/** The page's address without its fragment. */
const base = () => `${location.origin}${location.pathname}${location.search}`;

export function currentShareState(): ShareState {
  const input = useInput.getState();
  const ui = useUi.getState();
  return {
    v: 1,
    current: input.current,
    previous: input.previous,
    source: input.source.slice(0, 300),
    view: ui.view,
    settings: pickSettings(ui),
    tierBudget: ui.tierBudget,
  };
}

function checked(url: string): ShareLink {
  return url.length > MAX_SHARE_URL_CHARS
    ? {
        ok: false,
        reason: `The link would be ${url.length} characters, more than browsers keep (${MAX_SHARE_URL_CHARS}). Share the file, or a hash-only link.`,
      }
    : { ok: true, url };
}

/** The whole input and settings in the URL fragment: nothing is sent anywhere, the fragment never reaches a server. */
export async function buildShareLink(): Promise<ShareLink> {
  const state = currentShareState();
  const s = await encodeShareState(state);
  const theme = useUi.getState().theme;
  return checked(base() + formatHash({ view: state.view, theme, share: s }));
}

/** Segment paths, sizes and hashes only: the recipient can compare their turn with yours without seeing your prompt. */
export async function buildBundleLink(bundle: FingerprintBundle): Promise<ShareLink> {
  const encoded = await encodeBundle(bundle);
  const theme = useUi.getState().theme;
  return checked(base() + formatHash({ view: "cache", theme, bundle: encoded }));
}
