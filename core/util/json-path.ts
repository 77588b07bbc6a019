/**
 * `jsonPathAt(text, offset)`: the JSON path of the value being read at `offset` in (possibly
 * broken) JSON text, e.g. `messages[3].content` for a truncated request. Linear, iterative.
 * Very deep paths are abbreviated: the first 12 segments, `…`, and the depth.
 */
import { formatPath, type PathSegment } from "./paths.ts";

const MAX_SHOWN = 12;

export function jsonPathAt(text: string, offset: number): string {
  // Stack entries: a number = array index; a string = current object key (null before a key is read).
  const stack: (number | string | null)[] = [];
  const end = Math.min(offset, text.length);
  let i = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: a key when we are in an object expecting a key.
      const start = i + 1;
      i++;
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
      if (top === null) {
        let key = text.slice(start, Math.min(i, text.length));
        try {
          key = JSON.parse(`"${key}"`) as string;
        } catch {
          // keep the raw text of a broken key
        }
        stack[stack.length - 1] = key;
      }
      i++;
      continue;
    }
    if (c === 91) stack.push(0);
    else if (c === 123) stack.push(null);
    else if (c === 93 || c === 125) stack.pop();
    else if (c === 44) {
      const top = stack[stack.length - 1];
      if (typeof top === "number") stack[stack.length - 1] = top + 1;
      else if (top !== undefined) stack[stack.length - 1] = null;
    }
    i++;
  }
  const segs = stack.filter((s): s is PathSegment => s !== null);
  if (segs.length <= MAX_SHOWN * 2) return formatPath(segs);
  return `${formatPath(segs.slice(0, MAX_SHOWN))}…(${segs.length} levels deep)`;
}
