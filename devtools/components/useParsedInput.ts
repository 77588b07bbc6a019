import { useMemo } from "react";
import { parseJson } from "../../core/index.ts";

export type ParsedInput =
  | { readonly kind: "empty" }
  | { readonly kind: "ok"; readonly value: unknown; readonly bytes: number }
  | { readonly kind: "error"; readonly message: string; readonly line: number; readonly column: number };

const encoder = new TextEncoder();

export function parseInput(text: string): ParsedInput {
  if (text.trim() === "") return { kind: "empty" };
  const result = parseJson(text);
  if (result.ok) return { kind: "ok", value: result.value, bytes: encoder.encode(text).length };
  return { kind: "error", message: `Invalid JSON: ${result.issue.message}`, line: result.issue.line, column: result.issue.column };
}

export const useParsedInput = (text: string) => useMemo(() => parseInput(text), [text]);
