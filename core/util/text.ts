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

/** Texts are compared this many UTF-16 units at a time (each an engine-level comparison of two slices). */
const PREFIX_CHUNK = 4096;

/** Length of the longest common prefix of `a` and `b`, in UTF-16 units (it may end inside a surrogate pair). */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + PREFIX_CHUNK <= n && a.slice(i, i + PREFIX_CHUNK) === b.slice(i, i + PREFIX_CHUNK)) i += PREFIX_CHUNK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** A whitespace character other than a plain space, or two whitespace characters in a row. */
const UNFOLDED = /[^\S ]|\s\s/;

/**
 * `s.replace(/\s+/g, " ")`: every run of whitespace as one space. Most previews have none to fold,
 * and then `s` itself comes back (a test allocates nothing; a replace builds a new string).
 */
export function foldWhitespace(s: string): string {
  return UNFOLDED.test(s) ? s.replace(/\s+/g, " ") : s;
}
