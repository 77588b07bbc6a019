/**
 * A long text in parts, each ending at a line's end: the worker sends a long request's pretty
 * JSON this way, one part per message. Sent whole, an 18.5 MB chat's 20.6 M characters (two
 * bytes each, with any non-ASCII character) held the page for 130–190 ms while it was read; the
 * parts are read a few milliseconds at a time, are never joined for showing (`textLines` finds the
 * lines of each), and are joined only for a copy. As UTF-8 bytes (a transfer, free for the page)
 * the worker's `TextEncoder` took ~240 ms more for the same text: more than the page saved.
 */
import { utf8Length } from "../../core/cache/index.ts";
export class TextParts {
  /** Characters in all the parts. */
  readonly length: number;

  constructor(
    readonly parts: readonly string[],
    /**
     * Their UTF-8 size when the maker measured it (the worker does, part by part, off the main
     * thread: counting 40 MB of pretty JSON took the page ~25 ms); else counted when asked for.
     */
    readonly bytes?: number,
  ) {
    let n = 0;
    for (const p of parts) n += p.length;
    this.length = n;
  }

  /** The whole text, joined now (for a copy; not kept, it would double what the page holds). */
  text(): string {
    return this.parts.join("");
  }
}

/** The UTF-8 size of `text` (each part measured, none joined): what a copy or download of it weighs. */
export const textBytes = (text: string | TextParts): number =>
  typeof text === "string" ? utf8Length(text) : (text.bytes ?? text.parts.reduce((n, part) => n + utf8Length(part), 0));

/** `text` as one string (parts joined). */
export const plainText = (text: string | TextParts): string => (typeof text === "string" ? text : text.text());

/**
 * `text` in parts of about `size` characters, each cut just after a newline (a line longer than
 * `size` stays whole in its part), so no line spans two parts.
 */
export function splitAtLines(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = start + size;
    if (end >= text.length) end = text.length;
    else {
      const before = text.lastIndexOf("\n", end - 1);
      const after = before >= start ? before : text.indexOf("\n", end);
      end = after === -1 ? text.length : after + 1;
    }
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}
