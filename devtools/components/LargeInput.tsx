import type { ClipboardEvent } from "react";
import { InspectFailure } from "../inspect/protocol.ts";
import { useInspection } from "../inspect/useInspection.ts";
import type { Slot } from "../store/input.ts";
import { slotTestId } from "./slotTestId.ts";

const PREVIEW_CHARS = 2000;

/**
 * Stands in for the textarea when the input is large: the size, the first lines as text, and a way
 * to edit anyway. It takes pastes too (focus it and paste), which replace the input.
 */
export function LargeInput({
  slot,
  text,
  onEdit,
  onPaste,
}: {
  readonly slot: Slot;
  readonly text: string;
  readonly onEdit: () => void;
  readonly onPaste: (e: ClipboardEvent<HTMLElement>) => void;
}) {
  const t = (id: string) => slotTestId(slot, id);
  return (
    <div
      className="large-input"
      data-testid={t("request-editor-large")}
      data-length={text.length}
      tabIndex={0}
      onPaste={onPaste}
      aria-label="Large input: paste here to replace it"
    >
      <p className="muted">
        Large input: shown as a preview so the page stays responsive. Every view still inspects all of it. Paste here to
        replace it.
      </p>
      <pre className="large-preview">
        {text.slice(0, PREVIEW_CHARS)}
        {text.length > PREVIEW_CHARS ? "\n…" : ""}
      </pre>
      <button
        type="button"
        data-testid={t("edit-large")}
        onClick={onEdit}
        title="A textarea holding megabytes takes the browser a second or more on every change"
      >
        Edit here anyway (slow)
      </button>
    </div>
  );
}

/** In large mode the page does not parse the JSON itself: a syntax error comes from the inspector (current slot only). */
export function useLargeSyntaxError(
  slot: Slot,
  large: boolean,
): { readonly message: string; readonly line: number; readonly column: number } | null {
  const { query } = useInspection({ enabled: large && slot === "current" });
  if (!large || slot !== "current" || !(query.error instanceof InspectFailure)) return null;
  const issue = query.error.detail.issues.find((i) => i.line !== undefined);
  if (query.error.detail.code !== "json_syntax" || !issue) return null;
  return { message: issue.message, line: issue.line!, column: issue.column ?? 1 };
}
