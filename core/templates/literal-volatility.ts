/**
 * `lintLiteralVolatility(texts)`: values in literal prompt text that look like they change between
 * requests — dates, times, ISO timestamps, epoch numbers, UUIDs and other random-looking ids,
 * counters ("turn 7"). The template lint (volatility.ts) reads what a template *reads*; this one
 * reads what a request *says*, for requests that arrive already rendered. A provider prompt cache
 * only matches an identical prefix, so such a value in the stable part of a prompt (tools, system)
 * makes everything after it miss whenever it changes.
 *
 * Stable ids are not flagged: tool and model names (`track_container`, `claude-sonnet-4-5`,
 * `gpt-4.1-mini`), version strings (`v2.3.1`, `2.5.0-beta.1`), prices, container or order numbers
 * (letters then digits). Linear in the text; at most `MAX_FINDINGS` findings.
 */
import { utf8Length } from "../util/utf8.ts";
import { safeSlice } from "../util/text.ts";

export const LITERAL_VOLATILITY_KINDS = [
  "iso_timestamp",
  "date",
  "time",
  "epoch",
  "uuid",
  "random_id",
  "counter",
] as const;
export type LiteralVolatilityKind = (typeof LITERAL_VOLATILITY_KINDS)[number];

export interface LiteralText {
  /** Where the text sits, e.g. `messages[0].content[0]` or `tools[2].description`. */
  readonly path: string;
  readonly text: string;
}

export interface LiteralVolatility {
  readonly kind: LiteralVolatilityKind;
  readonly path: string;
  /** UTF-8 byte offset of the value in the text at `path`. */
  readonly byteOffset: number;
  readonly value: string;
  /** Up to 30 characters either side of the value. */
  readonly excerpt: string;
  /** What the value does to the cache, in a sentence. */
  readonly message: string;
}

/** A report carries at most this many findings. */
export const MAX_FINDINGS = 200;

const NAMES: Readonly<Record<LiteralVolatilityKind, string>> = {
  iso_timestamp: "a timestamp",
  date: "a date",
  time: "a time of day",
  epoch: "an epoch number",
  uuid: "a UUID",
  random_id: "a random-looking id",
  counter: "a counter",
};
const CHANGES: Readonly<Record<LiteralVolatilityKind, string>> = {
  iso_timestamp: "it changes each turn",
  date: "it changes at least once a day",
  time: "it changes each turn",
  epoch: "it changes each turn",
  uuid: "it differs per request or session",
  random_id: "it differs per request or session",
  counter: "it grows each turn",
};

const MONTHS =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";

/**
 * One pass, alternatives in priority order (a timestamp before the date inside it). Each group is a
 * kind; lookarounds keep a value from being a piece of a longer token (a version, an id, a price).
 * A value may end a sentence: a full stop after it is the end unless a letter or digit follows.
 */
const PATTERN = new RegExp(
  [
    // ISO 8601 date-time: 2026-11-29T08:30:00Z, 2026-11-29 08:30:15+01:00
    String.raw`(?<iso_timestamp>(?<![\w.])\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:]|\.\w))`,
    String.raw`(?<uuid>(?<![\w-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\w-]))`,
    // 2026-11-29, 29/11/2026, 11/29/26, 3 Dec 2026, December 3, 2026
    String.raw`(?<date>(?<![\w.-])\d{4}-\d{2}-\d{2}(?![\w-]|\.\w)|(?<![\w./])\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})(?![\w/]|\.\w)|\b\d{1,2} ${MONTHS}\.? \d{4}\b|\b${MONTHS}\.? \d{1,2}(?:st|nd|rd|th)?, \d{4}\b)`,
    // 08:30, 8:30:15, 9:15 pm (not a ratio inside a longer number run such as 1:2:3 or 10:30:00:00)
    String.raw`(?<time>(?<![\w.:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s?[ap]\.?m\.?)?(?![\w:]))`,
    // Unix seconds 2001-2286 (10 digits) or milliseconds (13 digits) standing alone
    String.raw`(?<epoch>(?<![\w.,-])1\d{9}(?:\d{3})?(?![\w,]|\.\w))`,
    String.raw`(?<counter>\b(?:turn|attempt|iteration|round|request|retry)\s?(?:#|no\.\s?|number\s)?\d+\b)`,
    // a token of 12+ characters from [A-Za-z0-9_-]; checked by looksRandom
    String.raw`(?<random_id>(?<![\w-])[A-Za-z0-9][A-Za-z0-9_-]{11,}(?![\w-]))`,
  ].join("|"),
  "giu",
);

/**
 * A random-looking id: some `_`/`-` separated piece of 10+ characters mixes letters and digits
 * with 4+ switches between them (`8f3a9c2b1d`, `01HZX8K2M4`), or is 16+ hex digits with both.
 * Words, model names and container numbers (`MSKU9070323`: one switch) are not.
 */
function looksRandom(token: string): boolean {
  for (const piece of token.split(/[_-]/)) {
    if (piece.length < 10) continue;
    let letters = 0;
    let digits = 0;
    let switches = 0;
    let last = 0;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      const kind = c >= 48 && c <= 57 ? 1 : 2;
      if (kind === 1) digits++;
      else letters++;
      if (last !== 0 && kind !== last) switches++;
      last = kind;
    }
    if (letters >= 2 && digits >= 2 && switches >= 4) return true;
    if (piece.length >= 16 && digits > 0 && letters > 0 && /^[0-9a-f]+$/i.test(piece)) return true;
  }
  return false;
}

/** Every volatile-looking value in `texts`, in order; at most `MAX_FINDINGS`. */
export function lintLiteralVolatility(texts: readonly LiteralText[]): LiteralVolatility[] {
  const out: LiteralVolatility[] = [];
  for (const { path, text } of texts) {
    PATTERN.lastIndex = 0;
    for (const m of text.matchAll(PATTERN)) {
      const groups = m.groups!;
      const kind = LITERAL_VOLATILITY_KINDS.find((k) => groups[k] !== undefined)!;
      const value = m[0];
      if (kind === "random_id" && !looksRandom(value)) continue;
      const at = m.index;
      const byteOffset = utf8Length(text.slice(0, at));
      out.push({
        kind,
        path,
        byteOffset,
        value,
        excerpt: safeSlice(text, at - 30, at + value.length + 30).replace(/\s+/g, " "),
        message: `${NAMES[kind]} at ${path} byte ${byteOffset} — ${CHANGES[kind]}, so nothing after it can be read from cache.`,
      });
      if (out.length >= MAX_FINDINGS) return out;
    }
  }
  return out;
}

/**
 * With the previous turn's texts (by path): did each finding's value change? The k-th finding of
 * a kind at a path is compared with the k-th of that kind at the same path in the previous turn;
 * null when the previous turn has no text at that path.
 */
export function confirmLiteralChanges(
  findings: readonly LiteralVolatility[],
  previous: ReadonlyMap<string, string>,
): (boolean | null)[] {
  const before = new Map<string, string[]>();
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const text = previous.get(f.path);
    if (text === undefined) return null;
    let values = before.get(f.path);
    if (!values) {
      values = lintLiteralVolatility([{ path: f.path, text }]).map((p) => `${p.kind}\u0000${p.value}`);
      before.set(f.path, values);
    }
    const key = `${f.path}\u0000${f.kind}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    const sameKind = values.filter((v) => v.startsWith(`${f.kind}\u0000`));
    const old = sameKind[k];
    return old === undefined ? true : old !== `${f.kind}\u0000${f.value}`;
  });
}
