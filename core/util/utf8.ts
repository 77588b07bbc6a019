/**
 * UTF-8 byte length of a JavaScript string. The one implementation behind byte budgets
 * (`utf8ByteLength`), cache segment offsets (`utf8Length`) and the template size limit.
 * Lone surrogates count 3 bytes (U+FFFD), exactly as WHATWG `TextEncoder` writes them in
 * every runtime. Outside Blink it is `TextEncoder` that counts: `encodeInto` a reused scratch
 * buffer runs in native code, about 3× faster than a `charCodeAt` loop in the eviction
 * benchmark, and allocates nothing per call. In Blink the loops here count (see `encodesInJs`),
 * and everywhere a text of at most `SHORT_TEXT` units: a native call's own cost (35–60 ns in
 * Node 20) is more than the loop's over 8–16 units (23–43 ns), and message headers and short chat
 * texts are measured by the hundred thousand.
 */

const CHUNK = 65_536;
/** Texts up to this many units are counted by `countUtf8` everywhere (see `utf8Length`). */
const SHORT_TEXT = 24;
let encoder: TextEncoder | undefined;
let scratch: Uint8Array | undefined;

/**
 * Whether to encode in JavaScript instead of with `TextEncoder`: in Blink (Chromium, its
 * workers, Edge, Opera…). There `encodeInto` first turns a string that has lived long enough
 * (most of a parsed request's texts) into an external string — a copy, kept in a table that every
 * later full garbage collection visits — so 100,000 such texts took 93–109 ms to encode and left
 * 20–24 ms of clean-up per collection (an 18.5 MB paste's worker spent 50–70 ms of one collection
 * on them), where the loops below took 92–153 ms for the same bytes and leave nothing behind.
 * Elsewhere (Node, Deno, Bun, workerd) `encodeInto` is about twice as fast as these loops. The
 * bytes are the same either way: each path is checked against `TextEncoder` in every runtime.
 */
export const encodesInJs: boolean =
  typeof navigator !== "undefined" && /Chrome\//.test(String((navigator as { userAgent?: unknown }).userAgent));

/**
 * The UTF-8 length of `text[start, end)` counted in JavaScript: a unit below U+0080 is one byte,
 * below U+0800 two, a surrogate pair four, anything else three (a lone surrogate is U+FFFD).
 */
export function countUtf8(text: string, start = 0, end = text.length): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c < 0xdc00 && c >= 0xd800 && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 4 bytes for its 2 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Writes the UTF-8 of `text` (of `text[from, to)` when given) into `out` from index `start` and
 * returns the byte count: what `TextEncoder.encodeInto` writes (a lone surrogate as U+FFFD) when
 * `out` holds the whole text, which 3 bytes per UTF-16 unit always do.
 */
export function writeUtf8(text: string, out: Uint8Array, start = 0, from = 0, to = text.length): number {
  let j = start;
  const n = to;
  for (let i = from; i < n; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[j++] = c;
      continue;
    }
    if (c < 0x800) {
      out[j++] = 0xc0 | (c >> 6);
      out[j++] = 0x80 | (c & 0x3f);
      continue;
    }
    if ((c & 0xf800) === 0xd800) {
      const d = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c < 0xdc00 && (d & 0xfc00) === 0xdc00) {
        const p = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[j++] = 0xf0 | (p >> 18);
        out[j++] = 0x80 | ((p >> 12) & 0x3f);
        out[j++] = 0x80 | ((p >> 6) & 0x3f);
        out[j++] = 0x80 | (p & 0x3f);
        i++;
        continue;
      }
      c = 0xfffd;
    }
    out[j++] = 0xe0 | (c >> 12);
    out[j++] = 0x80 | ((c >> 6) & 0x3f);
    out[j++] = 0x80 | (c & 0x3f);
  }
  return j - start;
}

/** Lowercase hex digits, as `JSON.stringify` writes a `\uXXXX` escape. */
const HEX = "0123456789abcdef";

/**
 * Writes the UTF-8 of `JSON.stringify(text)` — the quotes, the text with `"`, `\\`, control
 * characters and lone surrogates escaped as `JSON.stringify` escapes them — into `out` from index
 * `start`, and returns the byte count. `out` must have room for 6 bytes per UTF-16 unit and 2 (the
 * most an escape takes). Hashing a text's JSON this way writes no escaped copy of the text.
 */
export function writeJsonStringUtf8(text: string, out: Uint8Array, start = 0): number {
  let j = start;
  out[j++] = 0x22;
  const n = text.length;
  // Runs with nothing to escape are written by `writeUtf8`; a run ends at a character to escape.
  let run = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let escape: number; // the letter after the backslash, or 0x75 (u) for \uXXXX
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      escape =
        c === 0x22 || c === 0x5c
          ? c
          : c === 0x08
            ? 0x62
            : c === 0x09
              ? 0x74
              : c === 0x0a
                ? 0x6e
                : c === 0x0c
                  ? 0x66
                  : c === 0x0d
                    ? 0x72
                    : 0x75;
    } else if ((c & 0xf800) === 0xd800) {
      if (c < 0xdc00 && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        i++; // a pair: written with its run
        continue;
      }
      escape = 0x75; // a lone surrogate: JSON.stringify writes it as \uXXXX (lowercase)
    } else continue;
    j += writeUtf8(text, out, j, run, i);
    run = i + 1;
    out[j++] = 0x5c;
    out[j++] = escape;
    if (escape === 0x75) for (let shift = 12; shift >= 0; shift -= 4) out[j++] = HEX.charCodeAt((c >> shift) & 15);
  }
  j += writeUtf8(text, out, j, run, n);
  out[j++] = 0x22;
  return j - start;
}

/**
 * The UTF-8 byte length of `text`; always equals `new TextEncoder().encode(text).length`.
 * With a `cap`, counting stops as soon as the count passes it (the result is then some value
 * `> cap`), so a size check on a huge string costs only what the cap allows.
 */
export function utf8Length(text: string, cap = Number.POSITIVE_INFINITY): number {
  const n = text.length;
  if (n > cap) return n; // UTF-8 is never shorter than UTF-16 code units
  // A short text is counted here in every runtime: a native call costs more than its loop.
  if (n <= SHORT_TEXT) return countUtf8(text, 0, n);
  const count = encodesInJs ? countUtf8 : encodedLength;
  if (n <= CHUNK) return count(text, 0, n);
  let bytes = 0;
  for (let start = 0; start < n && bytes <= cap; ) {
    let end = Math.min(start + CHUNK, n);
    // Never split a surrogate pair across chunks: a split pair would count as two U+FFFD.
    if (end < n && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    bytes += count(text, start, end);
    start = end;
  }
  return bytes;
}

/** The UTF-8 length of `text[start, end)` (at most `CHUNK` units) as `TextEncoder` writes it into a reused buffer. */
function encodedLength(text: string, start: number, end: number): number {
  encoder ??= new TextEncoder();
  scratch ??= new Uint8Array(CHUNK * 3);
  return encoder.encodeInto(start === 0 && end === text.length ? text : text.slice(start, end), scratch).written;
}
