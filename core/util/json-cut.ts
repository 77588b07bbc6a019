/**
 * The JSON value of a text that is another JSON text with the last elements of one top-level
 * array cut off, found by comparing the two texts instead of parsing the shorter one.
 *
 * A conversation's previous request is, nearly always, the next request written by the same
 * client without the newest messages: the same bytes up to the end of an earlier message, then
 * the same bytes from the array's closing bracket on. Parsing that text again builds a second tree
 * as large as the first (for 5 MB, about 8 MB of objects that the garbage collector copies before
 * they are thrown away), only to find it equal to a part of the first. Comparing the texts and
 * walking the longer one's structure (its strings skipped with `indexOf`) costs a fraction of that.
 */

import { commonPrefixLength } from "./text.ts";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isJsonSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Index of the quote that closes the string opened at `start` in valid JSON `text`, or -1. */
function stringEnd(text: string, start: number): number {
  let j = start;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    // A quote after an odd run of backslashes is escaped: look for the next one.
    let b = j - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((j - 1 - b) % 2 === 0) return j;
  }
}

/** What the walk of the longer text found about the top-level array cut at `cut`. */
interface CutArray {
  /** Index (in `keys`) of the top-level key the array is the value of. */
  readonly key: number;
  /** Elements before the comma at `cut`: the ones the shorter text keeps. */
  readonly kept: number;
  /** Elements in the array. */
  elements: number;
  /** Just past the last element's last character. */
  lastEnd: number;
  /** Index of the array's closing bracket (-1 until met). */
  close: number;
}

/**
 * Walks valid JSON `text` (a top-level object) once: the top-level keys in text order, and the
 * top-level array that holds the comma at index `cut` (at its own level), if one does.
 */
function walk(text: string, cut: number): { keys: string[]; array: CutArray | undefined } | undefined {
  const keys: string[] = [];
  let array: CutArray | undefined;
  /** The top-level array being walked, and its commas so far. */
  let open = -1;
  let commas = 0;
  let depth = 0;
  let expectKey = false;
  let lastValueEnd = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (depth === 1 && expectKey) {
        keys.push(JSON.parse(text.slice(i, end + 1)) as string);
        expectKey = false;
      }
      i = end;
      lastValueEnd = end + 1;
      continue;
    }
    if (isJsonSpace(c)) continue;
    switch (c) {
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        depth++;
        if (depth === 1) {
          if (c !== OPEN_OBJECT) return undefined;
          expectKey = true;
        } else if (depth === 2 && c === OPEN_ARRAY) {
          open = i;
          commas = 0;
        }
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth === 2 && open >= 0) {
          // The array's last element ends at the last character before the bracket that is not blank.
          const empty = lastValueEnd <= open;
          if (array !== undefined && array.close < 0) {
            array.elements = empty ? 0 : commas + 1;
            array.lastEnd = lastValueEnd;
            array.close = i;
          }
          open = -1;
        }
        depth--;
        lastValueEnd = i + 1;
        break;
      case COMMA:
        if (depth === 1) expectKey = true;
        else if (depth === 2 && open >= 0) {
          if (i === cut) array = { key: keys.length - 1, kept: commas + 1, elements: 0, lastEnd: -1, close: -1 };
          commas++;
        }
        break;
      default:
        // A character of a number, true, false or null (or a colon, which never ends an array's
        // last element): the value ends after it.
        lastValueEnd = i + 1;
    }
  }
  return depth === 0 ? { keys, array } : undefined;
}

/**
 * The value `JSON.parse(shorter)` gives — equal JSON, the same keys in the same order — when
 * `shorter` is `longer` with the last elements of one array of its top-level object cut off (the
 * comma before them up to the array's last character, and any blanks there); `longerValue` is
 * `JSON.parse(longer)`. The result shares every value with `longerValue`: the top-level object is
 * a copy, the cut array `slice`d. `undefined` whenever that cannot be shown (other edits, a text
 * that is not an object, duplicate or reordered keys, a byte-order mark): then parse `shorter`.
 *
 * Linear in `longer.length`; allocates the top-level keys and nothing per element.
 */
export function cutArrayValue(shorter: string, longer: string, longerValue: unknown): unknown {
  if (longerValue === null || typeof longerValue !== "object" || Array.isArray(longerValue)) return undefined;
  const removed = longer.length - shorter.length;
  if (removed <= 0 || longer.charCodeAt(0) === 0xfeff || shorter.charCodeAt(0) === 0xfeff) return undefined;
  // The texts part at the comma before the first element cut, and meet again after the last one.
  const cut = commonPrefixLength(shorter, longer);
  if (longer.charCodeAt(cut) !== COMMA) return undefined;
  if (longer.slice(cut + removed) !== shorter.slice(cut)) return undefined;
  const found = walk(longer, cut);
  const array = found?.array;
  if (found === undefined || array === undefined || array.close < 0) return undefined;
  // The cut takes whole elements: from that comma past the last element, up to the bracket at most.
  const resume = cut + removed;
  if (resume < array.lastEnd || resume > array.close) return undefined;
  // The keys JSON.parse kept, in its order, are the text's: no duplicates, no integer-like reordering.
  const keys = Object.keys(longerValue);
  if (keys.length !== found.keys.length || keys.some((k, i) => k !== found.keys[i])) return undefined;
  const name = found.keys[array.key]!;
  const list = (longerValue as Record<string, unknown>)[name];
  if (!Array.isArray(list) || list.length !== array.elements || array.kept >= array.elements) return undefined;
  return { ...longerValue, [name]: list.slice(0, array.kept) };
}
