import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Header } from "./app/Header.tsx";
import { PreviousTurnActions } from "./app/PreviousTurnActions.tsx";
import { useRouting, navigate } from "./app/useRouting.ts";
import { ViewHost } from "./app/ViewHost.tsx";
import { ViewNav } from "./app/ViewNav.tsx";
import { InputPanel } from "./components/InputPanel.tsx";
import { useUi } from "./store/settings.ts";
import { watchClipboardPermission } from "./components/clipboard.ts";
import { installInputMarks, scheduleWarmUp, startInspectionsEarly } from "./inspect/useInspection.ts";
import { REQUEST_VIEW_IDS } from "./routing/routes.ts";

/** Alt+1…9 opens a view of the request, Alt+0 the Session view, from anywhere (the editor too). */
function useViewShortcuts() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const n = /^Digit([0-9])$/.exec(event.code)?.[1];
      const id = n === "0" ? "session" : n ? REQUEST_VIEW_IDS[Number(n) - 1] : undefined;
      if (!id) return;
      event.preventDefault();
      navigate(id);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
}

export function App() {
  const notice = useRouting();
  const view = useUi((s) => s.view);
  const client = useQueryClient();
  useEffect(() => installInputMarks(), []);
  useEffect(() => startInspectionsEarly(client), [client]);
  useEffect(() => scheduleWarmUp(), []);
  useEffect(() => watchClipboardPermission(), []);
  useViewShortcuts();
  return (
    <div className="app">
      <button
        type="button"
        className="skip-link"
        data-testid="skip-to-views"
        onClick={() => document.getElementById("strata-views")?.focus()}
      >
        Skip to the views
      </button>
      <Header />
      {notice ? (
        <div
          className={`notice notice-${notice.kind}`}
          role={notice.kind === "error" ? "alert" : "status"}
          data-testid="route-notice"
          data-kind={notice.kind}
        >
          {notice.text}
        </div>
      ) : null}
      <div className={view === "session" ? "workspace workspace-session" : "workspace"}>
        <aside className="inputs" aria-label="Input">
          <InputPanel slot="current" title="Request" />
          <InputPanel slot="previous" title="Previous turn" actions={<PreviousTurnActions />} />
        </aside>
        <main className="views" id="strata-views" tabIndex={-1}>
          <ViewNav />
          <ViewHost />
        </main>
      </div>
    </div>
  );
}
