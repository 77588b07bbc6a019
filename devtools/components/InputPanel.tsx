import { type ClipboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useFileDrop } from "./useFileDrop.ts";
import { readPasteAsync } from "./clipboard.ts";
import { markPasteRead, markPasteStart } from "../perf/marks.ts";
import { navigate } from "../app/useRouting.ts";
import { useLoadSample, useSampleIndex } from "../queries/samples.ts";
import { isSessionFileName, loadSessionFile } from "../views/Session/actions.ts";
import { type Slot, useInput } from "../store/input.ts";
import { fmtBytes, fmtInt } from "./format.ts";
import { LargeInput, useLargeSyntaxError } from "./LargeInput.tsx";
import { slotTestId } from "./slotTestId.ts";
import { LARGE_INPUT, useParsedInput, useUtf8Length } from "./useParsedInput.ts";

interface Props {
  readonly slot?: Slot;
  readonly title: string;
  /** Extra controls in the toolbar (e.g. "simulate previous turn"). */
  readonly actions?: ReactNode;
  /** Below the status line: shape errors from the inspection. */
  readonly footer?: ReactNode;
}

/**
 * The caret's distance from the top of a textarea's content at `offset`: a hidden copy of the
 * textarea (same width, font, padding and wrapping) holds the text before it, and its height is
 * the answer — soft-wrapped lines included, which a line count would miss.
 */
export function caretTop(el: HTMLTextAreaElement, offset: number): number {
  const style = getComputedStyle(el);
  const mirror = document.createElement("div");
  const copy = ["fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "tabSize"] as const;
  for (const p of copy) mirror.style[p] = style[p];
  // The textarea's content box: its client width (no scrollbar, no border) less its padding.
  mirror.style.boxSizing = "border-box";
  mirror.style.width = `${el.clientWidth}px`;
  mirror.style.paddingLeft = style.paddingLeft;
  mirror.style.paddingRight = style.paddingRight;
  mirror.style.paddingTop = style.paddingTop;
  mirror.style.position = "absolute";
  mirror.style.visibility = "hidden";
  mirror.style.whiteSpace = "pre-wrap";
  mirror.style.overflowWrap = "break-word";
  mirror.textContent = `${el.value.slice(0, offset)}\u200b`;
  document.body.append(mirror);
  const top = mirror.scrollHeight;
  mirror.remove();
  return top;
}

/** Puts pasted text at the editor's selection, in its undo history, as the browser's own paste would. */
function insertIntoEditor(el: HTMLTextAreaElement, text: string): void {
  el.focus();
  // execCommand is deprecated, yet still the only edit that joins the textarea's undo history.
  if (document.execCommand("insertText", false, text)) return;
  el.setRangeText(text, el.selectionStart, el.selectionEnd, "end");
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Paste, drop, open a file or pick a bundled sample. The first sample loads on start into the current slot. */
export function InputPanel({ slot = "current", title, actions, footer }: Props) {
  const text = useInput((s) => s[slot]);
  const source = useInput((s) => (slot === "current" ? s.source : s.previousSource));
  const autoload = useInput((s) => s.autoloadSample);
  const setText = useInput((s) => s.setText);
  const samples = useSampleIndex();
  const loadSample = useLoadSample();
  const fileInput = useRef<HTMLInputElement>(null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const parsed = useParsedInput(text);
  const largeBytes = useUtf8Length(text, parsed.kind === "large");
  const t = (id: string) => slotTestId(slot, id);
  // "Edit here anyway" holds for the text it was clicked on; a new large input shows the summary again.
  const [editLarge, setEditLarge] = useState<string | null>(null);
  const showLarge = parsed.kind === "large" && editLarge !== text;
  const largeSyntax = useLargeSyntaxError(slot, parsed.kind === "large");
  // A large paste replaces the whole input without passing through the textarea. Where the page may
  // read the clipboard itself, it does so off the main thread (see clipboard.ts); a short text
  // read that way goes into the editor as a paste would.
  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    markPasteStart();
    const target = event.currentTarget;
    const reading = readPasteAsync(event);
    if (reading) {
      event.preventDefault();
      reading.then(
        (pasted) => {
          markPasteRead();
          if (pasted.length <= LARGE_INPUT && target instanceof HTMLTextAreaElement && target.isConnected)
            insertIntoEditor(target, pasted);
          // In a task of its own: the one that brought the text spent long enough making the string.
          else setTimeout(() => setText(slot, pasted, "pasted"), 0);
        },
        (error: unknown) => console.warn("Strata: the clipboard could not be read.", error),
      );
      return;
    }
    const pasted = event.clipboardData.getData("text");
    markPasteRead();
    if (pasted.length <= LARGE_INPUT) return;
    event.preventDefault();
    setText(slot, pasted, "pasted");
  };
  // The picker shows the sample the text came from, as long as it is unchanged.
  const shownSample = samples.data?.find((s) => source === `sample: ${s.title}`)?.id ?? "";

  // The first bundled sample on start, so the page is never empty. It never overwrites text the
  // user typed, dropped or opened from a link meanwhile (checked again when it arrives).
  const first = samples.data?.[0];
  useEffect(() => {
    if (slot !== "current" || !autoload || !first || useInput.getState().current !== "") return;
    void loadSample(first, samples.data ?? [], { onlyIfEmpty: true });
  }, [slot, autoload, first, samples.data, loadSample]);

  const readFile = async (file: File) => {
    // A recorded session belongs to the Session view, which reads it in the worker, entry by entry.
    if (isSessionFileName(file.name)) {
      navigate("session");
      await loadSessionFile(file, file.name);
      return;
    }
    setText(slot, await file.text(), `file: ${file.name}`);
  };
  const { dragging, dropProps } = useFileDrop((file) => void readFile(file));
  const goTo = (line: number, column: number) => {
    const el = editor.current;
    if (!el) return;
    let offset = 0;
    for (let l = 1; l < line; l++) {
      const nl = text.indexOf("\n", offset);
      if (nl === -1) break;
      offset = nl + 1;
    }
    offset = Math.min(text.length, offset + column - 1);
    el.focus();
    el.setSelectionRange(offset, Math.min(text.length, offset + 1));
    // Moving the caret does not scroll a textarea: bring the line to the middle of the editor.
    el.scrollTop = Math.max(0, caretTop(el, offset) - el.clientHeight / 2);
  };

  return (
    <section
      className={`input-panel${dragging ? " dragging" : ""}`}
      data-testid={`input-panel-${slot}`}
      data-slot={slot}
      aria-label={title}
      {...dropProps}
    >
      <div className="input-head">
        <h2>{title}</h2>
        <span className="source" data-testid={t("input-source")} title={source}>
          {source}
        </span>
      </div>
      <div className="input-toolbar">
        <label>
          <span className="sr-only">Sample for {title}</span>
          <select
            data-testid={t("sample-picker")}
            value={shownSample}
            onChange={(e) => {
              const entry = samples.data?.find((s) => s.id === e.target.value);
              if (entry) void loadSample(entry, samples.data ?? [], { slot });
            }}
          >
            <option value="">Sample…</option>
            {samples.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <button type="button" data-testid={t("open-file")} onClick={() => fileInput.current?.click()}>
          Open file…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid={t("file-input")}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void readFile(file);
            e.target.value = "";
          }}
        />
        {text !== "" ? (
          <button type="button" data-testid={t("clear-input")} onClick={() => setText(slot, "", "")}>
            Clear
          </button>
        ) : null}
      </div>
      {actions ? <div className="input-actions">{actions}</div> : null}
      {samples.error ? <span className="error">Samples unavailable: {String(samples.error.message)}</span> : null}
      {showLarge ? <LargeInput slot={slot} text={text} onEdit={() => setEditLarge(text)} onPaste={onPaste} /> : null}
      <textarea
        className={showLarge ? "over-large" : undefined}
        onPaste={onPaste}
        ref={editor}
        data-testid={t("request-editor")}
        aria-label={`${title} JSON`}
        aria-invalid={parsed.kind === "error"}
        spellCheck={false}
        // Also keeps Chrome from copying a 5 MB value into session history on every hash change.
        autoComplete="off"
        value={showLarge ? "" : text}
        placeholder={
          showLarge
            ? "The large input is not loaded into this editor. Typing or pasting here replaces it."
            : slot === "current"
              ? "Paste a request (Strata, OpenAI, Anthropic or Gemini JSON), drop a file, or pick a sample."
              : "Optional: the previous turn's request, or a fingerprint bundle, to compare cache prefixes."
        }
        onChange={(e) => setText(slot, e.target.value)}
      />
      <div className="input-status" data-testid={t("input-status")} aria-live="polite">
        {parsed.kind === "empty" ? (slot === "current" ? "No input yet." : "Empty: nothing to compare with.") : null}
        {parsed.kind === "ok" ? `Valid JSON · ${fmtInt(parsed.bytes)} bytes` : null}
        {parsed.kind === "large"
          ? `${largeBytes === null ? "Counting bytes…" : fmtBytes(largeBytes)} · checked by the inspector`
          : null}
        {largeSyntax ? (
          <span
            className="error"
            data-testid={t("json-error")}
            data-line={largeSyntax.line}
            data-column={largeSyntax.column}
          >
            Invalid JSON: {largeSyntax.message}
          </span>
        ) : null}
        {parsed.kind === "error" ? (
          <span className="error" data-testid={t("json-error")} data-line={parsed.line} data-column={parsed.column}>
            {parsed.message}{" "}
            <button
              type="button"
              className="link"
              data-testid={t("json-error-goto")}
              onClick={() => goTo(parsed.line, parsed.column)}
            >
              Go to line {parsed.line}
            </button>
          </span>
        ) : null}
      </div>
      {footer}
    </section>
  );
}
