/** Small text helpers shared by the section builders. Pure and locale-free. */
import { safeSlice } from "../util/text.ts";

/** Collapses every run of whitespace (newlines included) to one space and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts `text` to at most `max` code units, ending in "…"; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  return `${safeSlice(text, 0, max - 1)}…`;
}

/** A heading line, then one "- item" line per item, then optional closing lines. "" when there are no items. */
export function bulletSection(heading: string, items: readonly string[], closing: readonly string[] = []): string {
  if (items.length === 0) return "";
  return [heading, ...items.map((item) => `- ${item}`), ...closing].join("\n");
}

/** `n` with a noun, singular for 1: `plural(3, "attempt")` → "3 attempts". */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
