/**
 * Hash routes: `#/view/<id>` plus optional query parameters after `?`:
 * `theme=light|dark`, `s=<share state>` (whole input, compressed),
 * `bundle=<fingerprint bundle>` (hash-only share, no prompt text) and
 * `session=<session fingerprints>` (a hash-only session, no prompt text).
 * Nothing here touches the DOM, so it is unit-tested directly.
 */

export const VIEW_IDS = [
  "overview",
  "layout",
  "tiers",
  "dropped",
  "cache",
  "budget",
  "templates",
  "history",
  "raw",
  "session",
] as const;
export type ViewId = (typeof VIEW_IDS)[number];

/** The views of one request's report, in nav order (Alt+1…9); the Session view (Alt+0) stands apart. */
export const REQUEST_VIEW_IDS = VIEW_IDS.filter((v): v is Exclude<ViewId, "session"> => v !== "session");
export type RequestViewId = (typeof REQUEST_VIEW_IDS)[number];

export const VIEW_LABELS: Readonly<Record<ViewId, string>> = {
  overview: "Overview",
  layout: "Layout order",
  tiers: "Tier gating",
  dropped: "Dropped",
  cache: "Cache prefix",
  budget: "Budget",
  templates: "Templates",
  history: "History",
  raw: "Raw",
  session: "Session",
};

export const THEMES = ["light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export interface Route {
  readonly view: ViewId;
  /** Present only when the URL names the view; an unknown name is reported, not guessed. */
  readonly unknownView?: string;
  readonly theme?: Theme;
  /** Compressed share state (`share/state.ts`). */
  readonly share?: string;
  /** Compressed fingerprint bundle (hash-only share). */
  readonly bundle?: string;
  /** Compressed session fingerprints (hash-only session share). */
  readonly session?: string;
}

export const isViewId = (value: string): value is ViewId => (VIEW_IDS as readonly string[]).includes(value);

export function parseHash(hash: string): Route {
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  const q = body.indexOf("?");
  const path = q === -1 ? body : body.slice(0, q);
  const params = new URLSearchParams(q === -1 ? "" : body.slice(q + 1));
  const match = /^\/view\/([^/?]*)\/?$/.exec(path);
  const name = match?.[1] ? decodeURIComponent(match[1]) : "";
  let route: Route = { view: isViewId(name) ? name : "overview" };
  if (name !== "" && !isViewId(name)) route = { ...route, unknownView: name };
  const theme = params.get("theme");
  if (theme === "light" || theme === "dark") route = { ...route, theme };
  const share = params.get("s");
  if (share) route = { ...route, share };
  const bundle = params.get("bundle");
  if (bundle) route = { ...route, bundle };
  const session = params.get("session");
  if (session) route = { ...route, session };
  return route;
}

/** `#/view/cache?theme=dark`. Parameters are written in a fixed order so URLs are stable. */
export function formatHash(route: Pick<Route, "view" | "theme" | "share" | "bundle" | "session">): string {
  const params: string[] = [];
  if (route.theme) params.push(`theme=${route.theme}`);
  // base64url needs no escaping
  if (route.share) params.push(`s=${route.share}`);
  if (route.bundle) params.push(`bundle=${route.bundle}`);
  if (route.session) params.push(`session=${route.session}`);
  return `#/view/${route.view}${params.length > 0 ? `?${params.join("&")}` : ""}`;
}
