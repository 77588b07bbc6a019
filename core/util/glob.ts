/**
 * Tool-name globs: `*` matches any run of characters (including none), `?` exactly one UTF-16
 * code unit, everything else itself (case-sensitive, whole name). No regular expressions are
 * built from patterns, and matching is O(pattern × name) in the worst case, never exponential.
 */
export function matchGlob(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const pc = pattern.charCodeAt(p);
    if (p < pattern.length && pc === 42 /* * */) {
      starP = p++;
      starT = t;
    } else if (p < pattern.length && (pc === 63 /* ? */ || pc === text.charCodeAt(t))) {
      p++;
      t++;
    } else if (starP !== -1) {
      p = starP + 1;
      t = ++starT;
    } else return false;
  }
  while (p < pattern.length && pattern.charCodeAt(p) === 42) p++;
  return p === pattern.length;
}
