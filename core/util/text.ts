/** UTF-16 string helpers that never cut a character in half. Pure and locale-free. */

/**
 * `s.slice(start, end)` (both clamped to the string) moved inward where a cut would split a
 * surrogate pair: a leading low surrogate or a trailing high surrogate is left out.
 */
export function safeSlice(s: string, start: number, end: number): string {
  let a = Math.max(0, start);
  let b = Math.min(s.length, end);
  const lo = s.charCodeAt(a);
  if (a > 0 && lo >= 0xdc00 && lo <= 0xdfff) a++;
  const hi = s.charCodeAt(b - 1);
  if (b < s.length && hi >= 0xd800 && hi <= 0xdbff) b--;
  return s.slice(a, Math.max(a, b));
}
