import { useMemo } from "react";
import { parseJson } from "../../core/formats/index.ts";

/**
 * Above this many UTF-16 units the editor shows a summary instead of a textarea: browsers take
 * about a second to lay out 5 MB in a textarea, and the page's own JSON check would add more.
 * The inspector (in its worker) still reads and checks every byte.
 */
export const LARGE_INPUT = 256 * 1024;

export type ParsedInput =
  | { readonly kind: "empty" }
  | { readonly kind: "large"; readonly bytes: number }
  | { readonly kind: "ok"; readonly value: unknown; readonly bytes: number }
  | { readonly kind: "error"; readonly message: string; readonly line: number; readonly column: number };

const encoder = new TextEncoder();

/** UTF-8 length without allocating the encoded bytes (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function parseInput(text: string): ParsedInput {
  if (!/\S/.test(text)) return { kind: "empty" };
  const result = parseJson(text);
  if (result.ok) return { kind: "ok", value: result.value, bytes: encoder.encode(text).length };
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
  if (text.length > LARGE_INPUT) return { kind: "large", bytes: utf8Length(text) };
  return parseInput(text);
}

export const useParsedInput = (text: string) => useMemo(() => checkInput(text), [text]);
