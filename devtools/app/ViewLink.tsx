import type { ReactNode } from "react";
import { formatHash, type ViewId } from "../routing/routes.ts";
import { navigate } from "./useRouting.ts";

/** A link to a view: a real `href` (open in new tab, copy link) and an in-page switch on plain click. */
export function ViewLink({
  view,
  children,
  className,
  testId,
  label,
}: {
  readonly view: ViewId;
  readonly children: ReactNode;
  readonly className?: string;
  readonly testId?: string;
  readonly label?: string;
}) {
  return (
    <a
      href={formatHash({ view })}
      className={className}
      data-testid={testId}
      aria-label={label}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(view);
      }}
    >
      {children}
    </a>
  );
}
