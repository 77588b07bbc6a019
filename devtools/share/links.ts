import type { FingerprintBundle } from "../../core/cache/index.ts";
import { formatHash } from "../routing/routes.ts";
import { useInput } from "../store/input.ts";
import { pickSettings, useUi } from "../store/settings.ts";
import type { SessionFingerprints } from "../../core/session/index.ts";
import { encodeBundle } from "./bundle.ts";
import { compressText, decompressText, ShareDecodeError } from "./codec.ts";
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
    ...(input.response !== "" ? { response: input.response } : {}),
    source: input.source.slice(0, 300),
    view: ui.view,
    settings: pickSettings(ui),
    tierBudget: ui.tierBudget,
    ...(Object.keys(ui.tierAssignments).length > 0 ? { tiers: ui.tierAssignments } : {}),
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

/** A session's hashes, sizes, times and usage only: the recipient sees its threads and busts, not its prompts. */
export async function buildSessionLink(fingerprints: SessionFingerprints): Promise<ShareLink> {
  const encoded = await compressText(JSON.stringify(fingerprints));
  const theme = useUi.getState().theme;
  return checked(base() + formatHash({ view: "session", theme, session: encoded }));
}

/** The hash-only session a link carries (checked by core where it is inspected). */
export async function decodeSessionLink(encoded: string): Promise<unknown> {
  const text = await decompressText(encoded);
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ShareDecodeError("The session link's data is not JSON.", { cause });
  }
}

/** Segment paths, sizes and hashes only: the recipient can compare their turn with yours without seeing your prompt. */
export async function buildBundleLink(bundle: FingerprintBundle): Promise<ShareLink> {
  const encoded = await encodeBundle(bundle);
  const theme = useUi.getState().theme;
  return checked(base() + formatHash({ view: "cache", theme, bundle: encoded }));
}
