/**
 * Segments whose fingerprints are made only when read. A segment's SHA-256 is output (a report's
 * first segments, a fingerprint bundle) or compared with a bundle's, but most segments of a large
 * request are only compared with the other turn's, and that is done on their texts
 * (`commonSegments`). So a `SegmentRecord` keeps its text (or what writes it, see `Kept`) and
 * hashes it on the first read of `sha256` or `canonicalSha256` — once: later reads return the same
 * string. Its path is written from its indexes on read, too.
 *
 * Records are class instances (their getters live on the prototype): spreading one or serializing
 * it would lose those fields, so anything that leaves the engine goes through `plainSegment`.
 */
import { canonicalJson, writeCanonicalJsonUtf8 } from "../util/canonical.ts";
import { stringifiesAsIs } from "../util/json-size.ts";
import { hashFramed, hashJsonString, hashWritten, sha256Hex } from "../util/hash.ts";
import { sameJson } from "../util/same-json.ts";
import {
  CONTENT_BLOCK_TYPES,
  type ContentBlock,
  type ContentBlockType,
  type Message,
  ROLES,
  type Role,
} from "../messages/types.ts";
import { blockJson, blockJsonSha256, plainTextJson, segmentPath, TEXT_BLOCK_HEAD } from "./segment-json.ts";
import type { ReportSegment, Segment, SegmentKind, SegmentRegion } from "./types.ts";

/** Shared by the records of one segmentation: short texts repeat (message headers), hash each once. */
export type HashMemo = Map<string, string>;

const MEMO_CHARS = 256;

function sha(text: string, memo: HashMemo): string {
  if (text.length > MEMO_CHARS) return sha256Hex(text);
  let hit = memo.get(text);
  if (hit === undefined) {
    hit = sha256Hex(text);
    memo.set(text, hit);
  }
  return hit;
}

const KINDS: readonly SegmentKind[] = ["tool", "tool_choice", "message", "block"];
const REGIONS: readonly SegmentRegion[] = ["tools", "system", "messages"];

/**
 * The text whose plain text block `json` is (`plainTextJson(text) === json`), or undefined when
 * `json` is anything else (a header, a tool, a block with more fields): JSON kept as JSON, read
 * back into the key its text kept as text would have.
 */
export function plainTextOf(json: string): string | undefined {
  if (!json.startsWith(TEXT_HEAD_QUOTE) || !json.endsWith('"}')) return undefined;
  let text: unknown;
  try {
    text = JSON.parse(json.slice(TEXT_BLOCK_HEAD.length, -1));
  } catch {
    return undefined;
  }
  return typeof text === "string" && plainTextJson(text) === json ? text : undefined;
}

/** The start of a plain text block's JSON up to its text's opening quote. */
const TEXT_HEAD_QUOTE = `${TEXT_BLOCK_HEAD}"`;

/**
 * The SHA-256 of `plainTextJson(text)`, hashed without writing that JSON: a text with nothing to
 * escape (most prose) is its own JSON string between quotes; any other is escaped as its bytes are
 * written (`hashJsonString`), with the fixed frame added as bytes.
 */
function plainTextSha(text: string): string {
  return stringifiesAsIs(text) ? hashFramed(TEXT_HEAD_QUOTE, text, '"}') : hashJsonString(TEXT_BLOCK_HEAD, text, "}");
}

/**
 * What a record keeps of its text: its JSON (`"json"`); a plain text block's own text (`"text"`,
 * see `plainTextJson`); or nothing (`"source"`): the JSON of a block other than a plain text is
 * written again from the block when read (`SegmentRecord.json`). Most of a long request's text is
 * plain text and tool calls and results: keeping the JSON of those doubled the memory a
 * segmentation keeps, and it is read only to hash or show a few segments or to tell apart
 * segments that differ.
 */
export type Kept = "json" | "text" | "source";

const BREAKPOINT = 16;
const CALLER_JSON = 32;
const PLAIN_TEXT = 64;
/** The role, block type or item is not one `packFlags` can code: the record keeps them in `Found.wide`. */
const WIDE = 128;
/** The record keeps no text: its JSON is written from its source (`Kept`). */
const FROM_SOURCE = 1 << 15;
/** How a record keeps its text, as flags. */
const KEPT_FLAGS: Readonly<Record<Kept, number>> = { json: 0, text: PLAIN_TEXT, source: FROM_SOURCE };
/** Codes of a record's role and block type: the index in these lists (0 for null). */
const ROLE_CODES: readonly (Role | null)[] = [null, ...ROLES];
const BLOCK_CODES: readonly (ContentBlockType | null)[] = [null, ...CONTENT_BLOCK_TYPES];
const ROLE_SHIFT = 8; // 3 bits
const BLOCK_SHIFT = 11; // 4 bits
// item + 1 in the 14 bits left below 2^30: the flags stay a small integer in every engine (31-bit
// ones, with pointer compression, included), not a boxed number.
const ITEM_SHIFT = 16;
const ITEM_LIMIT = 0x3fff;

/**
 * Kind, region, the two flags, how the text is kept, the role, the block type and `item` of a
 * record in one small integer (see `SegmentRecord`), or the first five and `WIDE` when the others
 * do not fit (a role or block type outside Strata's lists, an item past 16,382).
 */
function packFlags(
  kind: SegmentKind,
  region: SegmentRegion,
  cacheBreakpoint: boolean,
  callerJson: boolean,
  kept: Kept,
  role: Role | null,
  blockType: ContentBlockType | null,
  item: number,
): number {
  const flags =
    KINDS.indexOf(kind) |
    (REGIONS.indexOf(region) << 2) |
    (cacheBreakpoint ? BREAKPOINT : 0) |
    (callerJson ? CALLER_JSON : 0) |
    KEPT_FLAGS[kept];
  const r = ROLE_CODES.indexOf(role);
  const b = BLOCK_CODES.indexOf(blockType);
  const i = item + 1;
  return r >= 0 && b >= 0 && i >= 0 && i <= ITEM_LIMIT && Number.isInteger(i)
    ? flags | (r << ROLE_SHIFT) | (b << BLOCK_SHIFT) | (i << ITEM_SHIFT)
    : flags | WIDE;
}

/**
 * True when the text kept for segment `s` is a plain text block's own text rather than its JSON
 * (see `SegmentRecord`); plain segments (a session's, a caller's) always keep JSON.
 */
export const keepsPlainText = (s: Segment): boolean => s instanceof SegmentRecord && s.plainText;

/** True when segment `s` keeps no text: its JSON is written from its block when read (see `Kept`). */
export const keptAsSource = (s: Segment): s is SegmentRecord => s instanceof SegmentRecord && s.kept === "source";

/** The JSON of a kept text: `text` itself, or the JSON of the plain text block it is the text of. */
const keptJson = (text: string, plainText: boolean): string => (plainText ? plainTextJson(text) : text);

/** The JSON text of segment `s`, kept as `text` (see `Kept`). */
export const segmentJson = (s: Segment, text: string): string =>
  keptAsSource(s) ? s.json : keptJson(text, keepsPlainText(s));

/**
 * True when two kept texts (each with how it is kept, see `keepsPlainText`) write the same JSON.
 * Kept alike, they are compared as kept: equal plain texts are equal JSON. Kept otherwise (a
 * session's or a caller's JSON against a kept text), their JSON is compared.
 */
const sameKeptText = (a: string, aPlain: boolean, b: string, bPlain: boolean): boolean =>
  aPlain === bPlain ? a === b : keptJson(a, aPlain) === keptJson(b, bPlain);

/**
 * True when segment `s`, kept as `kept`, writes the JSON that `text` writes: JSON, or a plain text
 * block's own text when `plain`. A segment that keeps no text writes its JSON for this.
 */
export const keptWrites = (s: Segment, kept: string, text: string, plain: boolean): boolean =>
  keptAsSource(s) ? s.json === keptJson(text, plain) : sameKeptText(kept, keepsPlainText(s), text, plain);

/**
 * True when segments `a` and `b`, kept as `aText` and `bText`, write the same JSON. One record
 * (a segment a turn took from its twin) writes what it writes: compared without writing it.
 */
export function sameSegmentText(a: Segment, aText: string, b: Segment, bText: string): boolean {
  if (!keptAsSource(a)) return keptWrites(b, bText, aText, keepsPlainText(a));
  return a === b || a.json === segmentJson(b, bText);
}

/** The role, block type and item of a `WIDE` record. */
interface Wide {
  readonly role: Role | null;
  readonly blockType: ContentBlockType | null;
  readonly item: number;
}

/** The canonical hash of segment `s`'s JSON `json` (parsed: `value`), written as text first. */
function canonicalFromText(s: Segment, json: string, value: unknown, h: HashMemo): string {
  const canonical = canonicalJson(value, { path: s.kind === "tool_choice" ? "providerOptions" : s.path });
  return canonical === json ? s.sha256 : sha(canonical, h);
}

/**
 * What a record writes when first read (one object, made only for the few records read so, and
 * for a `WIDE` one), with where its hashes come from (see `SegmentRecord.#found`).
 */
class Found {
  path?: string;
  sha256?: string;
  canonical?: string;

  constructor(
    /** The twin (its hashes are the record's) or, without one, the memo of its segmentation. */
    readonly hashes: Segment | HashMemo,
    readonly wide?: Wide,
  ) {}
}

/**
 * One segment. `item` is the tool index (`tool`), the block index (`block`), `GEMINI_CHOICE` for
 * Gemini's `toolConfig` (`tool_choice`) or -1; `twin` is the
 * other turn's segment with this very text, whose hashes this one shares. `callerJson` says the
 * text holds caller JSON objects, whose key order may differ without a change in meaning.
 *
 * A large request holds hundreds of thousands of records, so each is kept small (every field is
 * a pointer-sized slot): kind, region, the flags, how the text is kept, the role, the block type
 * and `item` share one small integer; the twin or the hash memo (a record with a twin never
 * hashes) and what is made on read share one field (see `#found`). (No private instance methods
 * either: they would add a brand to each.)
 *
 * `kept`: what the record keeps of its text (see `Kept`): a plain text block's own text or nothing
 * is kept instead of the JSON, which `json` writes for hashing and for the few segments a report
 * shows. Two segments that keep texts alike are equal exactly when their kept texts are;
 * `segmentJson` gives any segment's JSON and `sameSegmentText` compares any two.
 */
export class SegmentRecord implements Segment {
  /**
   * Where the hashes come from — the twin (its hashes are this record's) or, without one, the memo
   * of this segmentation — until something is read that the record keeps (its path, hashes) or it
   * is `WIDE`: then a `Found` holding that, and where the hashes come from. One field for both: a
   * record is ~100 bytes, and 8 fewer made a 200,000-message comparison 3–5% faster (minimum times).
   */
  #found: Found | Segment | HashMemo;
  readonly #flags: number;
  readonly #text: string;
  readonly #source: unknown;

  constructor(
    readonly index: number,
    kind: SegmentKind,
    region: SegmentRegion,
    role: Role | null,
    readonly messageIndex: number | null,
    blockType: ContentBlockType | null,
    readonly byteOffset: number,
    readonly byteLength: number,
    readonly tokens: number,
    cacheBreakpoint: boolean,
    text: string,
    item: number,
    callerJson: boolean,
    twin: Segment | undefined,
    memo: HashMemo | undefined,
    source: unknown,
    kept: Kept,
  ) {
    const flags = packFlags(kind, region, cacheBreakpoint, callerJson, kept, role, blockType, item);
    this.#flags = flags;
    this.#source = source;
    this.#text = text;
    const hashes = twin ?? memo ?? new Map();
    this.#found = (flags & WIDE) !== 0 ? new Found(hashes, { role, blockType, item }) : hashes;
  }

  get kind(): SegmentKind {
    return KINDS[this.#flags & 3]!;
  }

  get region(): SegmentRegion {
    return REGIONS[(this.#flags >> 2) & 3]!;
  }

  get role(): Role | null {
    const flags = this.#flags;
    return (flags & WIDE) !== 0 ? (this.#found as Found).wide!.role : ROLE_CODES[(flags >> ROLE_SHIFT) & 7]!;
  }

  get blockType(): ContentBlockType | null {
    const flags = this.#flags;
    return (flags & WIDE) !== 0 ? (this.#found as Found).wide!.blockType : BLOCK_CODES[(flags >> BLOCK_SHIFT) & 15]!;
  }

  /**
   * `r`'s tool or block index, `GEMINI_CHOICE` or -1 (see the class comment). Static: a private
   * instance method or accessor would brand every record with one more field.
   */
  static #item(r: SegmentRecord): number {
    const flags = r.#flags;
    return (flags & WIDE) !== 0 ? (r.#found as Found).wide!.item : (flags >>> ITEM_SHIFT) - 1;
  }

  /** The tool index (`tool`), block index (`block`), `GEMINI_CHOICE` (`tool_choice`) or -1 (see the class comment). */
  get item(): number {
    return SegmentRecord.#item(this);
  }

  /** `r`'s `Found`, made on first need (static, like `#item`). */
  static #made(r: SegmentRecord): Found {
    const found = r.#found;
    return found instanceof Found ? found : (r.#found = new Found(found));
  }

  get cacheBreakpoint(): boolean {
    return (this.#flags & BREAKPOINT) !== 0;
  }

  /** The kept text is a plain text block's own text (see the class comment). */
  get plainText(): boolean {
    return (this.#flags & PLAIN_TEXT) !== 0;
  }

  /** What the record keeps of its text (see `Kept`). */
  get kept(): Kept {
    const flags = this.#flags;
    return (flags & PLAIN_TEXT) !== 0 ? "text" : (flags & FROM_SOURCE) !== 0 ? "source" : "json";
  }

  /**
   * The segment's JSON text: the kept JSON, or written from the kept text or from the block (see
   * `Kept`) — then a new string on each read, so that it is not kept.
   */
  get json(): string {
    const flags = this.#flags;
    if ((flags & FROM_SOURCE) !== 0)
      return blockJson(this.#source as ContentBlock, this.messageIndex!, SegmentRecord.#item(this));
    return (flags & PLAIN_TEXT) !== 0 ? plainTextJson(this.#text) : this.#text;
  }

  get path(): string {
    const found = SegmentRecord.#made(this);
    found.path ??= segmentPath(this.kind, this.messageIndex, SegmentRecord.#item(this));
    return found.path;
  }

  get sha256(): string {
    const found = SegmentRecord.#made(this);
    if (found.sha256 === undefined) {
      const h = found.hashes;
      const plain = (this.#flags & PLAIN_TEXT) !== 0;
      // A long plain text (no memo for it) is hashed as its JSON without that JSON being written,
      // and so is a block kept as its source (`blockJsonSha256`) when it is plain JSON data.
      found.sha256 = !(h instanceof Map)
        ? h.sha256
        : plain && this.#text.length > MEMO_CHARS
          ? plainTextSha(this.#text)
          : (SegmentRecord.#sourceSha(this, false) ?? sha(this.json, h));
    }
    return found.sha256;
  }

  /** Strata writes its own fields in a fixed order, so only caller JSON can differ in key order alone. */
  get canonicalSha256(): string {
    const found = SegmentRecord.#made(this);
    if (found.canonical === undefined) {
      const h = found.hashes;
      if (!(h instanceof Map)) found.canonical = h.canonicalSha256;
      else if ((this.#flags & CALLER_JSON) === 0) found.canonical = this.sha256;
      else {
        const direct = SegmentRecord.#sourceSha(this, true);
        if (direct !== undefined) found.canonical = direct;
        else {
          const json = this.json;
          // The same JSON gives the plain hash: written once for both (a report reads both).
          if (found.sha256 === undefined && (this.#flags & PLAIN_TEXT) === 0) found.sha256 = sha(json, h);
          const value: unknown = JSON.parse(json);
          // Most often written as bytes straight into the hash (no string per key and value); any
          // value that cannot be is written as text, which also throws what it throws.
          found.canonical =
            hashWritten((out) => writeCanonicalJsonUtf8(value, out, 0)) ?? canonicalFromText(this, json, value, h);
        }
      }
    }
    return found.canonical;
  }

  /**
   * For `r`, a block kept as its source: the SHA-256 of its JSON or canonical JSON, written as bytes
   * (see `blockJsonSha256`); undefined for any other record or block (hash its text). Static, like `#item`.
   */
  static #sourceSha(r: SegmentRecord, canonical: boolean): string | undefined {
    return (r.#flags & FROM_SOURCE) !== 0 ? blockJsonSha256(r.#source as ContentBlock, canonical) : undefined;
  }

  /**
   * True when a record made with these arguments (and this record as its twin) would read exactly
   * as this one: the same place, size, tokens, kind, region, role, flags and item. Its text is this
   * record's, kept alike (the caller checked), so it may stand for itself in the other turn, hashes
   * included.
   */
  matches(
    index: number,
    kind: SegmentKind,
    region: SegmentRegion,
    role: Role | null,
    messageIndex: number | null,
    blockType: ContentBlockType | null,
    byteOffset: number,
    tokens: number,
    cacheBreakpoint: boolean,
    item: number,
    callerJson: boolean,
  ): boolean {
    if (
      this.index !== index ||
      this.byteOffset !== byteOffset ||
      this.tokens !== tokens ||
      this.messageIndex !== messageIndex
    )
      return false;
    const flags = packFlags(kind, region, cacheBreakpoint, callerJson, "json", role, blockType, item);
    if ((this.#flags & ~(PLAIN_TEXT | FROM_SOURCE)) !== flags) return false;
    return (
      (flags & WIDE) === 0 || (this.role === role && this.blockType === blockType && SegmentRecord.#item(this) === item)
    );
  }

  /** The same segment further down a longer request: `by` segments, `bytes` bytes and `messages` messages later. */
  shifted(by: number, bytes: number, messages: number): SegmentRecord {
    return new SegmentRecord(
      this.index + by,
      this.kind,
      this.region,
      this.role,
      this.messageIndex === null ? null : this.messageIndex + messages,
      this.blockType,
      this.byteOffset + bytes,
      this.byteLength,
      this.tokens,
      this.cacheBreakpoint,
      this.#text,
      SegmentRecord.#item(this),
      (this.#flags & CALLER_JSON) !== 0,
      this,
      undefined,
      this.#source,
      this.kept,
    );
  }

  /**
   * True when `source` — a message (for its header), block, tool or tool choice, as this segment
   * was written from — certainly serializes to this segment's text (see `sameJson`).
   */
  writesSame(kind: SegmentKind, source: unknown): boolean {
    if (kind !== this.kind) return false;
    if (kind !== "message") return sameJson(source, this.#source);
    const a = source as Message;
    const b = this.#source as Message;
    return a.role === b.role && a.name === b.name && sameJson(a.providerFields, b.providerFields);
  }
}

/**
 * A report's segment: `plainSegment` with its preview, made as one literal (adding `preview` to a
 * plain segment afterwards gave each of them a second store for that one field).
 */
export const reportSegment = (s: Segment, preview: string): ReportSegment => {
  // First: a caller-JSON record writes its JSON once for both hashes when this one is made first.
  const canonicalSha256 = s.canonicalSha256;
  return {
    index: s.index,
    path: s.path,
    kind: s.kind,
    region: s.region,
    role: s.role,
    messageIndex: s.messageIndex,
    blockType: s.blockType,
    byteOffset: s.byteOffset,
    byteLength: s.byteLength,
    tokens: s.tokens,
    sha256: s.sha256,
    canonicalSha256,
    cacheBreakpoint: s.cacheBreakpoint,
    preview,
  };
};

/** A segment as plain JSON, its keys in their documented order (hashes made now if not yet). */
export const plainSegment = (s: Segment): Segment => {
  const canonicalSha256 = s.canonicalSha256; // first, as in `reportSegment`
  return {
    index: s.index,
    path: s.path,
    kind: s.kind,
    region: s.region,
    role: s.role,
    messageIndex: s.messageIndex,
    blockType: s.blockType,
    byteOffset: s.byteOffset,
    byteLength: s.byteLength,
    tokens: s.tokens,
    sha256: s.sha256,
    canonicalSha256,
    cacheBreakpoint: s.cacheBreakpoint,
  };
};
