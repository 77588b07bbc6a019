/**
 * The one glob dialect, for tool names and model ids: `*` matches any run of characters
 * (including none), `?` exactly one UTF-16 code unit, `[abc]` one of the listed characters,
 * everything else itself (case-sensitive, whole text; callers that want case-insensitive
 * matching lower-case both sides). A `[` without a closing `]` is itself. No regular expressions
 * are built from patterns, and matching is O(pattern × text) in the worst case, never exponential.
 */
export function matchGlob(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const pc = pattern.charCodeAt(p);
    const next = p < pattern.length && pc !== 42 /* * */ ? matchOne(pattern, p, text.charCodeAt(t)) : -1;
    if (p < pattern.length && pc === 42) {
      starP = p++;
      starT = t;
    } else if (next >= 0) {
      p = next;
      t++;
    } else if (starP !== -1) {
      p = starP + 1;
      t = ++starT;
    } else return false;
  }
  while (p < pattern.length && pattern.charCodeAt(p) === 42) p++;
  return p === pattern.length;
}

/** Where the pattern continues if the element at `p` matches the character `c`, else -1. */
function matchOne(pattern: string, p: number, c: number): number {
  const pc = pattern.charCodeAt(p);
  if (pc === 63 /* ? */) return p + 1;
  if (pc === 91 /* [ */) {
    const end = pattern.indexOf("]", p + 2);
    if (end > p) {
      for (let i = p + 1; i < end; i++) if (pattern.charCodeAt(i) === c) return end + 1;
      return -1;
    }
  }
  return pc === c ? p + 1 : -1;
}
