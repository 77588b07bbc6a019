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

/**
 * One segment. `item` is the tool index (`tool`), the block index (`block`), `GEMINI_CHOICE` for
 * Gemini's `toolConfig` (`tool_choice`) or -1; `twin` is the
 * other turn's segment with this very text, whose hashes this one shares. `callerJson` says the
 * text holds caller JSON objects, whose key order may differ without a change in meaning.
 */
export class SegmentRecord implements Segment {
  #path: string | undefined;
  #sha256: string | undefined;
  #canonical: string | undefined;
  readonly #text: string;
  readonly #item: number;
  readonly #twin: Segment | undefined;
  readonly #callerJson: boolean;
  readonly #memo: HashMemo;
  readonly #source: unknown;

  constructor(
    readonly index: number,
    readonly kind: SegmentKind,
    readonly region: SegmentRegion,
    readonly role: Role | null,
    readonly messageIndex: number | null,
    readonly blockType: ContentBlockType | null,
    readonly byteOffset: number,
    readonly byteLength: number,
    readonly tokens: number,
    readonly cacheBreakpoint: boolean,
    text: string,
    item: number,
    callerJson: boolean,
    twin: Segment | undefined,
    memo: HashMemo,
    source: unknown,
  ) {
    this.#source = source;
    this.#text = text;
    this.#item = item;
    this.#callerJson = callerJson;
    this.#twin = twin;
    this.#memo = memo;
  }

  get path(): string {
    this.#path ??= segmentPath(this.kind, this.messageIndex, this.#item);
    return this.#path;
  }

  get sha256(): string {
    this.#sha256 ??= this.#twin ? this.#twin.sha256 : sha(this.#text, this.#memo);
    return this.#sha256;
  }

  /** Strata writes its own fields in a fixed order, so only caller JSON can differ in key order alone. */
  get canonicalSha256(): string {
    if (this.#canonical === undefined) {
      if (this.#twin) this.#canonical = this.#twin.canonicalSha256;
      else if (!this.#callerJson) this.#canonical = this.sha256;
      else {
        const canonical = canonicalJson(JSON.parse(this.#text), {
          path: this.kind === "tool_choice" ? "providerOptions" : this.path,
        });
        this.#canonical = canonical === this.#text ? this.sha256 : sha(canonical, this.#memo);
      }
    }
    return this.#canonical;
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
      this.#callerJson,
      this,
      this.#memo,
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
