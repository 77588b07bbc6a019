// @ts-check
// Plain-text tables and number formats for the terminal (no colors, no locale: the output is the
// same everywhere, and a CI log keeps it readable).

/** 1234567 → "1,234,567". */
export function int(n) {
  if (n === null || n === undefined) return "—";
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A signed difference: "+12", "-3", "0". */
export const signed = (n) => (n === null || n === undefined ? "—" : n > 0 ? `+${int(n)}` : int(n));

/** 0.4761 → "47.6%". */
export const pct = (ratio) => `${(ratio * 100).toFixed(1)}%`;

/** USD with enough digits for small per-turn amounts. */
export function usd(x) {
  if (x === null || x === undefined) return "—";
  return x >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`;
}

/**
 * Rows of cells → aligned lines. `align` holds "l" or "r" per column (default left); the first row
 * is the header, followed by a rule.
 * @param {readonly (readonly string[])[]} rows
 * @param {readonly ("l" | "r")[]} [align]
 * @param {string} [indent]
 */
export function table(rows, align = [], indent = "  ") {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const line = (row) =>
    indent +
    row
      .map((cell, i) => (align[i] === "r" ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  const [head, ...body] = rows;
  if (!head) return "";
  return [line(head), indent + widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Key/value lines: "  key   value". */
export function pairs(entries, indent = "  ") {
  const w = Math.max(...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${indent}${k.padEnd(w)}  ${v}`).join("\n");
}
