import { useEffect, useState } from "react";
import { markViewSwitch } from "../perf/marks.ts";
import { formatHash, parseHash, type Theme, type ViewId } from "../routing/routes.ts";
import { decodeBundle } from "../share/bundle.ts";
import { ShareDecodeError } from "../share/codec.ts";
import { decodeSessionLink } from "../share/links.ts";
import { decodeShareState } from "../share/state.ts";
import { useSession } from "../store/session.ts";
import { loadSessionFingerprints } from "../views/Session/actions.ts";
import { useInput } from "../store/input.ts";
import { useUi } from "../store/settings.ts";
import { PROVIDER_NAMES, withArticle } from "../components/names.ts";

/** Theme when the URL names none: the system preference (Playwright fixes it with `colorScheme`). */
function systemTheme(): Theme {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** Moves to a view: the URL is the source of truth, so back/forward and links work. */
export function navigate(view: ViewId): void {
  if (useUi.getState().view === view) return;
  markViewSwitch(view);
  const route = parseHash(location.hash);
  location.hash = formatHash({ view, ...(route.theme ? { theme: route.theme } : {}) });
}

/** Theme changes replace the URL (no history entry): `?theme=dark` reproduces a screenshot. */
export function setTheme(theme: Theme): void {
  useUi.getState().setTheme(theme);
  const route = parseHash(location.hash);
  history.replaceState(null, "", formatHash({ view: route.view, theme }));
}

export interface RoutingNotice {
  readonly kind: "error" | "info";
  readonly text: string;
}

async function applyShare(route: ReturnType<typeof parseHash>, setNotice: (n: RoutingNotice | null) => void) {
  const theme = route.theme;
  let failed = false;
  try {
    if (route.share) {
      const state = await decodeShareState(route.share);
      const input = useInput.getState();
      input.setText("previous", state.previous, state.previous === "" ? "" : "share link");
      input.setResponse(state.response ?? "", state.response ? "share link" : "");
      input.setText("current", state.current, state.source || "share link");
      useUi.getState().set({ ...state.settings, tierBudget: state.tierBudget, tierAssignments: state.tiers ?? {} });
      useUi.getState().setView(state.view);
      history.replaceState(null, "", formatHash({ view: state.view, ...(theme ? { theme } : {}) }));
      setNotice({ kind: "info", text: "Opened a share link: input and settings restored." });
    } else if (route.session) {
      const fingerprints = await decodeSessionLink(route.session);
      history.replaceState(null, "", formatHash({ view: "session", ...(theme ? { theme } : {}) }));
      useUi.getState().setView("session");
      await loadSessionFingerprints(fingerprints);
      const session = useSession.getState();
      if (session.status === "error")
        throw new ShareDecodeError(`The session link could not be opened: ${session.error}`);
      setNotice({
        kind: "info",
        text: `Opened a hash-only session: ${session.report?.input.turns ?? 0} turns in ${session.report?.threads.length ?? 0} thread(s), without prompt text.`,
      });
    } else if (route.bundle) {
      const bundle = await decodeBundle(route.bundle);
      useInput.getState().setText("previous", JSON.stringify(bundle, null, 2), "fingerprint bundle (no prompt text)");
      history.replaceState(null, "", formatHash({ view: route.view, ...(theme ? { theme } : {}) }));
      setNotice({
        kind: "info",
        text: `Opened a hash-only share: ${bundle.segments.length} segment fingerprints of ${withArticle(PROVIDER_NAMES[bundle.provider])} request are in the previous-turn slot. Paste your request to compare.`,
      });
    }
  } catch (error) {
    failed = true;
    const text =
      error instanceof ShareDecodeError ? error.message : `The share link could not be opened: ${String(error)}`;
    history.replaceState(null, "", formatHash({ view: route.view, ...(theme ? { theme } : {}) }));
    setNotice({ kind: "error", text });
  } finally {
    // After a bundle link the current slot stays empty for the recipient's own request.
    useInput.setState({ autoloadSample: failed || !route.bundle });
  }
}

/**
 * Keeps the stores in step with `location.hash` (`#/view/<id>?theme=…&s=…|bundle=…`) and the
 * document's theme attribute with the store. Returns a notice about share links or unknown views.
 */
export function useRouting(): RoutingNotice | null {
  const [notice, setNotice] = useState<RoutingNotice | null>(null);
  const theme = useUi((s) => s.theme);

  useEffect(() => {
    const apply = (initial: boolean) => {
      const route = parseHash(location.hash);
      const ui = useUi.getState();
      if (!initial && ui.view !== route.view) markViewSwitch(route.view); // back/forward, edited URL
      ui.setView(route.view);
      if (route.theme) ui.setTheme(route.theme);
      else if (initial) ui.setTheme(systemTheme());
      if (route.unknownView)
        setNotice({ kind: "error", text: `There is no view called "${route.unknownView}"; showing the overview.` });
      if (route.share || route.bundle || route.session) {
        // The first sample must not overwrite what the link brings (a full share), nor be compared
        // with a bundle the recipient did not ask for.
        useInput.setState({ autoloadSample: false });
        void applyShare(route, setNotice);
      }
    };
    apply(true);
    // In-page anchors (`#something`) are not routes: leave the view alone.
    const onHash = () => (location.hash === "" || location.hash.startsWith("#/") ? apply(false) : undefined);
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  useEffect(() => {
    document.documentElement.dataset["theme"] = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);

  return notice;
}
