/**
 * UTF-8 byte length of a JavaScript string, counted without encoding it. The one
 * implementation behind byte budgets (`utf8ByteLength`), cache segment offsets (`utf8Length`)
 * and the template size limit. Lone surrogates count 3 bytes (U+FFFD), exactly as WHATWG
 * `TextEncoder` writes them in every runtime.
 */

/**
 * The UTF-8 byte length of `text`; always equals `new TextEncoder().encode(text).length`.
 * With a `cap`, counting stops as soon as the count passes it (the result is then some value
 * `> cap`), so a size check on a huge string costs only what the cap allows.
 */
export function utf8Length(text: string, cap = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n && bytes <= cap; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
