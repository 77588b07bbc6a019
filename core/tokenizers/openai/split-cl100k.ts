/**
 * cl100k_base's pre-tokenizer by hand, as split-o200k.ts is o200k_base's. Its split pattern
 * (gpt-tokenizer 4.0.0, encodingParams/constants.ts):
 *
 *   '(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])
 *   | [^\r\n\p{L}\p{N}]?\p{L}+
 *   | \p{N}{1,3}
 *   | ?[^\s\p{L}\p{N}]+[\r\n]*
 *   | \s+$
 *   | \s*[\r\n]
 *   | \s+(?!\S)
 *   | \s
 */
import {
  LETTER,
  NOT_PREFIX,
  NUMBER,
  PUNCT,
  flagsAt,
  lastNewlineIn,
  numberEnd,
  runEnd,
  spaceRunEnd,
  widthAt,
} from "./char-classes.ts";
import { contractionEnd } from "./split-o200k.ts";

/** End of the cl100k_base piece that starts at `i` (`i < text.length`). */
export function cl100kPieceEnd(text: string, i: number): number {
  let end = contractionEnd(text, i);
  if (end > i) return end;
  const f = flagsAt(text, i);
  // [^\r\n\p{L}\p{N}]?\p{L}+ : with the one code point first, then without
  if ((f & NOT_PREFIX) === 0) {
    const s = i + widthAt(text, i);
    end = runEnd(text, s, LETTER);
    if (end > s) return end;
  }
  if ((f & LETTER) !== 0) return runEnd(text, i, LETTER);
  if ((f & NUMBER) !== 0) {
    return numberEnd(text, i); // \p{N}{1,3}
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`: without the space the run would start on a space, which fails
  const s = text.charCodeAt(i) === 0x20 ? i + 1 : i;
  end = runEnd(text, s, PUNCT);
  if (end > s) {
    for (let c = text.charCodeAt(end); c === 0x0d || c === 0x0a; c = text.charCodeAt(++end));
    return end;
  }
  // Only `\s` is left.
  end = spaceRunEnd(text, i);
  if (end === text.length) return end; // \s+$
  const newline = lastNewlineIn(text, i, end);
  if (newline >= 0) return newline + 1; // \s*[\r\n] : back to the run's last newline
  // \s+(?!\S) : all but the run's last space; \s : one (never an empty piece)
  return end - i >= 2 ? end - 1 : i + 1;
}
