/** Small text helpers shared by the section builders. Pure and locale-free. */

/** Collapses every run of whitespace (newlines included) to one space and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts `text` to at most `max` code units, ending in "…"; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
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
