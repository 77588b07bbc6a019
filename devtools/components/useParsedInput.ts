import { useEffect, useMemo, useState } from "react";
import { utf8Length } from "../../core/cache/index.ts";
import { parseJson } from "../../core/formats/index.ts";

/**
 * Above this many UTF-16 units the editor shows a summary instead of a textarea: browsers take
 * about a second to lay out 5 MB in a textarea, and the page's own JSON check would add more.
 * The inspector (in its worker) still reads and checks every byte.
 */
export const LARGE_INPUT = 256 * 1024;

export type ParsedInput =
  | { readonly kind: "empty" }
  | { readonly kind: "large" } // its size: useUtf8Length
  | { readonly kind: "ok"; readonly value: unknown; readonly bytes: number }
  | { readonly kind: "error"; readonly message: string; readonly line: number; readonly column: number };

/** UTF-16 units counted per task by `useUtf8Length`: a few milliseconds each. */
const COUNT_SLICE = 2 * 1024 * 1024;

/**
 * Runs `step` in a later task unless `signal` aborts first: of background priority where the browser
 * schedules by priority (`scheduler.postTask`), so that a count never comes between the parts of a
 * paste being posted to the inspect worker (it delayed an 18.5 MB job by 30–40 ms); else a timeout.
 */
function later(step: () => void, signal: AbortSignal): void {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.postTask === "function") {
    scheduler.postTask(step, { priority: "background", signal }).catch(() => {
      // aborted: the text changed or the panel went away
    });
    return;
  }
  const timer = setTimeout(step, 0);
  signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
}

/**
 * The UTF-8 length of a large text, counted in slices over several tasks after the text is shown
 * (counting 20 MB at once held the paste's task for 50–250 ms); null until counted.
 */
export function useUtf8Length(text: string, enabled: boolean): number | null {
  const [counted, setCounted] = useState<{ readonly text: string; readonly bytes: number } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    let start = 0;
    let bytes = 0;
    const step = () => {
      let end = Math.min(text.length, start + COUNT_SLICE);
      // Never between the two halves of a surrogate pair.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      bytes += utf8Length(text.slice(start, end));
      start = end;
      if (start < text.length) later(step, stop.signal);
      else setCounted({ text, bytes });
    };
    later(step, stop.signal);
    return () => stop.abort();
  }, [text, enabled]);
  return enabled && counted?.text === text ? counted.bytes : null;
}

export function parseInput(text: string): ParsedInput {
  if (!/\S/.test(text)) return { kind: "empty" };
  const result = parseJson(text);
  if (result.ok) return { kind: "ok", value: result.value, bytes: utf8Length(text) };
  return {
    kind: "error",
    message: `Invalid JSON: ${result.issue.message}`,
    line: result.issue.line,
    column: result.issue.column,
  };
}

/** For the status line: a full check below `LARGE_INPUT`, only the size above it. */
export function checkInput(text: string): ParsedInput {
  if (!/\S/.test(text)) return { kind: "empty" };
  if (text.length > LARGE_INPUT) return { kind: "large" };
  return parseInput(text);
}

export const useParsedInput = (text: string) => useMemo(() => checkInput(text), [text]);
