import { type KeyboardEvent, useRef } from "react";
import { formatHash, REQUEST_VIEW_IDS, VIEW_LABELS, type ViewId } from "../routing/routes.ts";
import { useUi } from "../store/settings.ts";
import { navigate } from "./useRouting.ts";

/**
 * The nine views of the request's report as links (`#/view/<id>`): Tab reaches them, Enter opens
 * one, ←/→/Home/End move between them, and Alt+1…9 jumps from anywhere (see App). The Session view
 * (a recorded conversation, not the request) follows apart, on Alt+0.
 */
export function ViewNav() {
  const view = useUi((s) => s.view);
  const refs = useRef<(HTMLAnchorElement | null)[]>([]);
  const go = (id: ViewId, focus: boolean) => {
    navigate(id);
    if (focus) refs.current[REQUEST_VIEW_IDS.indexOf(id as (typeof REQUEST_VIEW_IDS)[number])]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = REQUEST_VIEW_IDS.indexOf(view as (typeof REQUEST_VIEW_IDS)[number]);
    if (at === -1) return;
    const to =
      event.key === "ArrowRight"
        ? (at + 1) % REQUEST_VIEW_IDS.length
        : event.key === "ArrowLeft"
          ? (at - 1 + REQUEST_VIEW_IDS.length) % REQUEST_VIEW_IDS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? REQUEST_VIEW_IDS.length - 1
              : -1;
    if (to === -1) return;
    event.preventDefault();
    go(REQUEST_VIEW_IDS[to]!, true);
  };
  return (
    <nav className="view-nav" aria-label="Views" data-testid="view-nav" onKeyDown={onKeyDown}>
      {REQUEST_VIEW_IDS.map((id, i) => (
        <a
          key={id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          href={formatHash({ view: id })}
          data-testid={`nav-${id}`}
          aria-current={view === id ? "page" : undefined}
          aria-keyshortcuts={`Alt+${i + 1}`}
          title={`${VIEW_LABELS[id]} (Alt+${i + 1})`}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // new tab etc.
            e.preventDefault();
            go(id, false);
          }}
        >
          {VIEW_LABELS[id]}
        </a>
      ))}
      <a
        href={formatHash({ view: "session" })}
        className="nav-session"
        data-testid="nav-session"
        aria-current={view === "session" ? "page" : undefined}
        aria-keyshortcuts="Alt+0"
        title={`${VIEW_LABELS.session}: a recorded conversation (HAR, JSONL) turn by turn (Alt+0)`}
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          navigate("session");
        }}
      >
        {VIEW_LABELS.session}
      </a>
    </nav>
  );
}
