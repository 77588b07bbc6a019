/**
 * Segments whose fingerprints are made only when read. A segment's SHA-256 is output (a report's
 * first segments, a fingerprint bundle) or compared with a bundle's, but most segments of a large
 * request are only compared with the other turn's, and that is done on their texts
 * (`commonSegments`). So a `SegmentRecord` keeps its text and hashes it on the first read of
 * `sha256` or `canonicalSha256` — once: later reads return the same string. Its path is written
 * from its indexes on read, too.
 *
 * Records are class instances (their getters live on the prototype): spreading one or serializing
 * it would lose those fields, so anything that leaves the engine goes through `plainSegment`.
 */
import { canonicalJson } from "../util/canonical.ts";
import { hashText } from "../util/hash.ts";
import { isPlainObject } from "../util/plain-object.ts";
import type { ContentBlockType, Message, Role } from "../messages/types.ts";
import type { Segment, SegmentKind, SegmentRegion } from "./types.ts";

/** Shared by the records of one segmentation: short texts repeat (message headers), hash each once. */
export type HashMemo = Map<string, string>;

const MEMO_CHARS = 256;

/** `item` of a `tool_choice` segment that is Gemini's `toolConfig`. */
export const GEMINI_CHOICE = 1;

function sha(text: string, memo: HashMemo): string {
  if (text.length > MEMO_CHARS) return hashText(text).sha256;
  let hit = memo.get(text);
  if (hit === undefined) {
    hit = hashText(text).sha256;
    memo.set(text, hit);
  }
  return hit;
}

/** The path of a segment (see `SegmentRecord` for `item`). */
export function segmentPath(kind: SegmentKind, messageIndex: number | null, item: number): string {
  switch (kind) {
    case "tool":
      return `tools[${item}]`;
    case "tool_choice":
      return `providerOptions.${item === GEMINI_CHOICE ? "toolConfig" : "tool_choice"}`;
    case "message":
      return `messages[${messageIndex}]`;
    default:
      return `messages[${messageIndex}].content[${item}]`;
  }
}

const KINDS: readonly SegmentKind[] = ["tool", "tool_choice", "message", "block"];
const REGIONS: readonly SegmentRegion[] = ["tools", "system", "messages"];
const BREAKPOINT = 16;
const CALLER_JSON = 32;

/** Kind, region and the two flags of a record in one small integer (see `SegmentRecord`). */
const packFlags = (kind: SegmentKind, region: SegmentRegion, cacheBreakpoint: boolean, callerJson: boolean): number =>
  KINDS.indexOf(kind) |
  (REGIONS.indexOf(region) << 2) |
  (cacheBreakpoint ? BREAKPOINT : 0) |
  (callerJson ? CALLER_JSON : 0);

/** What a record writes when first read (one object, made only for the few records read so). */
interface Found {
  path?: string;
  sha256?: string;
  canonical?: string;
}

/**
 * One segment. `item` is the tool index (`tool`), the block index (`block`), `GEMINI_CHOICE` for
 * Gemini's `toolConfig` (`tool_choice`) or -1; `twin` is the
 * other turn's segment with this very text, whose hashes this one shares. `callerJson` says the
 * text holds caller JSON objects, whose key order may differ without a change in meaning.
 *
 * A large request holds hundreds of thousands of records, so each is kept small: kind, region and
 * the two flags share one small integer, the twin and the hash memo one field (a record with a
 * twin never hashes), and what is made on read one object.
 */
export class SegmentRecord implements Segment {
  #found: Found | undefined;
  readonly #flags: number;
  readonly #text: string;
  readonly #item: number;
  /** The twin (its hashes are this record's) or, without one, the memo of this segmentation. */
  readonly #hashes: Segment | HashMemo;
  readonly #source: unknown;

  constructor(
    readonly index: number,
    kind: SegmentKind,
    region: SegmentRegion,
    readonly role: Role | null,
    readonly messageIndex: number | null,
    readonly blockType: ContentBlockType | null,
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
  ) {
    this.#flags = packFlags(kind, region, cacheBreakpoint, callerJson);
    this.#source = source;
    this.#text = text;
    this.#item = item;
    this.#hashes = twin ?? memo ?? new Map();
  }

  get kind(): SegmentKind {
    return KINDS[this.#flags & 3]!;
  }

  get region(): SegmentRegion {
    return REGIONS[(this.#flags >> 2) & 3]!;
  }

  get cacheBreakpoint(): boolean {
    return (this.#flags & BREAKPOINT) !== 0;
  }

  get path(): string {
    const found = (this.#found ??= {});
    found.path ??= segmentPath(this.kind, this.messageIndex, this.#item);
    return found.path;
  }

  get sha256(): string {
    const found = (this.#found ??= {});
    if (found.sha256 === undefined) {
      const h = this.#hashes;
      found.sha256 = h instanceof Map ? sha(this.#text, h) : h.sha256;
    }
    return found.sha256;
  }

  /** Strata writes its own fields in a fixed order, so only caller JSON can differ in key order alone. */
  get canonicalSha256(): string {
    const found = (this.#found ??= {});
    if (found.canonical === undefined) {
      const h = this.#hashes;
      if (!(h instanceof Map)) found.canonical = h.canonicalSha256;
      else if ((this.#flags & CALLER_JSON) === 0) found.canonical = this.sha256;
      else {
        const canonical = canonicalJson(JSON.parse(this.#text), {
          path: this.kind === "tool_choice" ? "providerOptions" : this.path,
        });
        found.canonical = canonical === this.#text ? this.sha256 : sha(canonical, h);
      }
    }
    return found.canonical;
  }

  /**
   * True when a record made with these arguments (and this record as its twin) would read exactly
   * as this one: the same place, size, tokens, kind, region, role, flags and item. Its text is this
   * record's (the caller checked), so it may stand for itself in the other turn, hashes included.
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
    return (
      this.index === index &&
      this.byteOffset === byteOffset &&
      this.tokens === tokens &&
      this.role === role &&
      this.messageIndex === messageIndex &&
      this.blockType === blockType &&
      this.#item === item &&
      this.#flags === packFlags(kind, region, cacheBreakpoint, callerJson)
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
      this.#item,
      (this.#flags & CALLER_JSON) !== 0,
      this,
      undefined,
      this.#source,
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

/** A segment as plain JSON, its keys in their documented order (hashes made now if not yet). */
export const plainSegment = (s: Segment): Segment => ({
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
  canonicalSha256: s.canonicalSha256,
  cacheBreakpoint: s.cacheBreakpoint,
});

/** Deepest nesting `sameJson` follows before it gives up (and the caller serializes instead). */
const SAME_DEPTH = 64;

/**
 * True only when `a` and `b` certainly serialize to the same JSON: equal primitives, or plain
 * arrays and objects with the same keys in the same order holding such values. False whenever in
 * doubt (functions, BigInts, NaN, class instances, a `toJSON` key, deep nesting): the caller then
 * serializes. Comparing is far cheaper than serializing, and allocates nothing but key lists.
 */
export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (typeof a !== "object" || a === null)
    return a === b && typeof a !== "function" && typeof a !== "bigint" && typeof a !== "symbol";
  if (typeof b !== "object" || b === null || depth >= SAME_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || k === "toJSON") return false;
    if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}
