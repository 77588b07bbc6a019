/**
 * `compareRequests(previous, next, { provider })`: the longest common prefix of two requests
 * in prompt order, and where and why they diverge. Either side may be a fingerprint bundle;
 * then the prefix is known to segment precision and there is no text excerpt.
 */
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { InvalidInputError } from "../util/errors.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import { commonPrefixLength, safeSlice } from "../util/text.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { ProviderRequest } from "../messages/request.ts";
import { checkFingerprintBundle } from "./fingerprint-check.ts";
import { isFingerprintBundle } from "./fingerprints.ts";
import { utf8Length } from "../util/utf8.ts";
import { keepsPlainText, keptAsSource, plainTextOf, sameSegmentText, segmentJson } from "./segment-record.ts";
import { checkOptions, checkProvider, type SegmentedRequest, segmentLazily } from "./segments.ts";
import type {
  CacheProvider,
  Divergence,
  DivergenceCause,
  DivergenceExcerpt,
  FingerprintBundle,
  PrefixComparison,
  PrefixSize,
  Segment,
  TokenEstimator,
} from "./types.ts";

/** Anything `compareRequests` and `simulateCache` take as one turn. */
export type RequestLike = ProviderRequest | NormalizedRequest | FingerprintBundle | SegmentedRequest;

export interface CompareOptions {
  readonly provider: CacheProvider;
  /** Same contract as `segmentRequest`'s (`checkedTokenEstimator`): whole tokens, `TokenEstimatorError` when bad. */
  readonly tokenEstimator?: TokenEstimator;
  /**
   * Template info for `next`: the volatile variables its system prompt template uses
   * (`lintTemplateVolatility`). A system-prompt divergence is then `volatile_template_value`.
   */
  readonly template?: { readonly volatileVariables: readonly string[] };
}

/** Segments plus texts, or a bundle's segments (texts null). */
export interface Turn {
  readonly model: string;
  readonly segments: readonly Segment[];
  readonly texts: readonly string[] | null;
  readonly total: PrefixSize;
  readonly automaticCaching: boolean;
  /** Segments whose marker writes a 1-hour entry (`SegmentedRequest.ttl1h`); unknown (none) for a bundle. */
  readonly ttl1h?: readonly number[];
}

/** The provider and the checked estimator of a cache-analysis call (options checked once, at entry). */
export function analysisOptions(options: {
  readonly provider: CacheProvider;
  readonly tokenEstimator?: TokenEstimator;
}): { provider: CacheProvider; estimate: TokenEstimator } {
  const provider = checkProvider(checkOptions(options).provider);
  return { provider, estimate: checkedTokenEstimator(options.tokenEstimator, "tokenEstimator") };
}

/** A bundle already checked (`checkFingerprintBundle`) → a turn. */
export function bundleTurn(x: FingerprintBundle, provider: CacheProvider, field: string): Turn {
  if (x.provider !== provider)
    throw new InvalidInputError(
      field,
      `this fingerprint bundle was made for ${x.provider}; compare it with provider "${x.provider}"`,
    );
  return { model: x.model, segments: x.segments, texts: null, total: x.total, automaticCaching: x.automaticCaching };
}

const isSegmented = (x: object): x is SegmentedRequest => "texts" in x && "segments" in x;

/**
 * One side of a comparison → a turn. Each kind gets its check once, here: a bundle the structural
 * bundle check, a request the message-shape check (fields prefixed with `field`, e.g.
 * `previous.messages[0].role`). `estimate` is already checked (`analysisOptions`).
 */
export function toTurn(x: RequestLike, provider: CacheProvider, estimate: TokenEstimator, field = "request"): Turn {
  if (x === null || typeof x !== "object") {
    throw new InvalidInputError(
      field,
      `must be a request, a segmented request (segmentRequest) or a fingerprint bundle, got ${x === null ? "null" : `a ${typeof x}`}.`,
    );
  }
  if (isFingerprintBundle(x)) return bundleTurn(checkFingerprintBundle(x, field), provider, field);
  let seg: SegmentedRequest;
  if (isSegmented(x)) {
    if (!Array.isArray(x.segments) || !Array.isArray(x.texts) || x.texts.length !== x.segments.length) {
      throw new InvalidInputError(
        field,
        "looks like a segmented request but its segments and texts are not matching arrays: pass segmentRequest's result unchanged.",
      );
    }
    seg = x;
  } else {
    assertProviderRequest(x, `${field}.`);
    // Lazy records: a comparison reads texts, and hashes only the few segments it reports on. A
    // plain text block keeps its own text: its JSON is written to be estimated, not kept.
    seg = segmentLazily(x, provider, estimate, undefined, -1, "estimate json");
  }
  if (seg.provider !== provider)
    throw new InvalidInputError(field, `this request was segmented for ${seg.provider}; segment it for "${provider}"`);
  const turn: Turn = {
    model: seg.model,
    segments: seg.segments,
    texts: seg.texts,
    total: { bytes: seg.totalBytes, segments: seg.segments.length, tokens: seg.totalTokens },
    automaticCaching: seg.automaticCaching,
  };
  return seg.ttl1h?.length ? { ...turn, ttl1h: seg.ttl1h } : turn;
}

/**
 * Number of leading segments two turns share. With both texts known they are compared (equal
 * texts are equal bytes: a segment's JSON holds no lone surrogate), so no segment is hashed for
 * it; against a bundle, by SHA-256.
 */
export function commonSegments(a: Turn, b: Turn): number {
  const n = Math.min(a.segments.length, b.segments.length);
  let k = 0;
  if (a.texts && b.texts) while (k < n && sameText(a, b, k)) k++;
  else while (k < n && a.segments[k]!.sha256 === b.segments[k]!.sha256) k++;
  return k;
}

/** Segment `i`'s JSON text (`segmentJson`: a plain text block may be kept as its own text). */
function textAt(t: Turn, i: number): string {
  const text = t.texts?.[i];
  return text === undefined ? "" : segmentJson(t.segments[i]!, text);
}

/** True when segment `k` of both turns (with texts) has the same JSON text (`sameSegmentText`). */
const sameText = (a: Turn, b: Turn, k: number): boolean =>
  sameSegmentText(a.segments[k]!, a.texts![k]!, b.segments[k]!, b.texts![k]!);

/**
 * A number for each segment of two turns, made when first asked for: equal texts get equal
 * numbers when both turns have texts, else equal SHA-256s do. Numbers, not strings: the
 * window-shift search reads every message of both turns and allocates nothing per segment.
 */
class SegmentIds {
  /** Numbers by JSON text, or by SHA-256 when a turn has no texts. */
  readonly #keys = new Map<string, number>();
  /**
   * Numbers of plain text blocks by their own text, so a block kept as its text is numbered
   * without writing its JSON; a block kept as JSON that is a plain text block's is read back into
   * this space (`plainTextOf`), so equal content gets one number however it is kept.
   */
  readonly #plain = new Map<string, number>();
  /** Some segment of either turn keeps its text as text: JSON-kept texts are then read back too. */
  readonly #readBack: boolean;
  #next = 0;
  readonly #a: Int32Array;
  readonly #b: Int32Array;
  readonly #texts: boolean;
  /** Above every number this gives (for `messageIds`' pair keys). */
  readonly bound: number;

  constructor(
    readonly a: Turn,
    readonly b: Turn,
  ) {
    this.#a = new Int32Array(a.segments.length).fill(-1);
    this.#b = new Int32Array(b.segments.length).fill(-1);
    this.#texts = a.texts !== null && b.texts !== null;
    this.#readBack = this.#texts && (a.segments.some(keepsPlainText) || b.segments.some(keepsPlainText));
    this.bound = a.segments.length + b.segments.length + 1;
  }

  of(t: Turn, i: number): number {
    const cache = t === this.a ? this.#a : this.#b;
    let v = cache[i]!;
    if (v < 0) {
      let keys = this.#keys;
      let key: string;
      if (!this.#texts) key = t.segments[i]!.sha256;
      else {
        const s = t.segments[i]!;
        const kept = t.texts![i];
        // A segment that keeps no text is numbered by its JSON, written for this.
        const text = kept !== undefined && keptAsSource(s) ? s.json : kept;
        key = text ?? "";
        const plain =
          text === undefined ? undefined : keepsPlainText(s) ? text : this.#readBack ? plainTextOf(text) : undefined;
        if (plain !== undefined) {
          keys = this.#plain;
          key = plain;
        }
      }
      const known = keys.get(key);
      v = known === undefined ? this.#next++ : known;
      if (known === undefined) keys.set(key, v);
      cache[i] = v;
    }
    return v;
  }
}

/** UTF-16 index of the first difference of two strings, never splitting a surrogate pair. */
function firstDiff(a: string, b: string): number {
  let i = commonPrefixLength(a, b);
  if (i > 0) {
    const c = a.charCodeAt(i - 1);
    if (c >= 0xd800 && c <= 0xdbff) i--;
  }
  return i;
}

export interface CommonPrefix extends PrefixSize {
  /** Index of the first differing segment (= `segments`). */
  readonly index: number;
  /** UTF-16 index of the first difference inside segment `index` (0 without texts). */
  readonly charIndex: number;
}

/**
 * The shared prefix of two turns: whole segments, plus the common start of the first differing one
 * when texts are known. `estimate` is a checked estimator (whole tokens, see `checkedTokenEstimator`).
 */
export function commonPrefix(a: Turn, b: Turn, estimate: TokenEstimator): CommonPrefix {
  const k = commonSegments(a, b);
  let bytes = 0;
  let tokens = 0;
  for (let i = 0; i < k; i++) {
    bytes += b.segments[i]!.byteLength;
    tokens += b.segments[i]!.tokens;
  }
  let charIndex = 0;
  if (a.texts && b.texts && k < a.segments.length && k < b.segments.length) {
    const ta = textAt(a, k);
    const tb = textAt(b, k);
    charIndex = firstDiff(ta, tb);
    if (charIndex > 0) {
      const shared = tb.slice(0, charIndex);
      bytes += utf8Length(shared);
      tokens += Math.min(estimate(shared), b.segments[k]!.tokens);
    }
  }
  return { index: k, segments: k, bytes, tokens, charIndex };
}

/**
 * The words a reader knows from the request: a block's own text, a call as `name(arguments)`, a
 * result's content, a tool's name, description and schema — not the JSON Strata wraps them in to
 * hash them (field names, `providerFields`). Headers show as nothing.
 */
function readable(text: string): string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return text;
  const o = v as Record<string, unknown>;
  const json = (x: unknown) => (typeof x === "string" ? x : (JSON.stringify(x) ?? ""));
  switch (o["type"]) {
    case "text":
    case "thinking":
      return String(o["text"] ?? "");
    case "tool_call":
      return `${String(o["name"])}(${json(o["arguments"])})`;
    case "tool_result":
      return json(o["result"]);
    case "opaque":
      return json(o["value"]);
    case "document":
    case "image":
    case "audio":
    case "file":
      return json(o["text"] ?? o["url"] ?? `[${String(o["type"])}]`);
    case undefined:
      if ("role" in o) return "";
      if ("name" in o && "inputSchema" in o)
        return `${String(o["name"])}: ${String(o["description"] ?? "")} ${json(o["inputSchema"] ?? {})}`;
      return text;
    default:
      return text;
  }
}

/**
 * Up to 60 characters of readable text from `from` in segment `k`; when that is empty (a message
 * header, or the end of the segment) the first readable text after it, so an appended message
 * shows its words.
 */
function readableFrom(t: Turn, k: number, from: number): string {
  const n = t.texts?.length ?? 0;
  let out = readable(textAt(t, k)).slice(from);
  for (let i = k + 1; i < n && out === ""; i++) out = readable(textAt(t, i));
  return safeSlice(out, 0, 60);
}

function excerptAt(a: Turn, b: Turn, k: number): DivergenceExcerpt | null {
  if (!a.texts || !b.texts) return null;
  const at = firstDiff(readable(textAt(a, k)), readable(textAt(b, k)));
  let before = readable(textAt(k < b.texts.length ? b : a, k)).slice(0, at);
  for (let i = k - 1; i >= 0 && before.length < 40; i--) {
    const t = readable(textAt(b, i));
    if (t !== "") before = before === "" ? t : `${t} ${before}`;
  }
  return {
    common: safeSlice(before, before.length - 40, before.length),
    previous: readableFrom(a, k, at),
    next: readableFrom(b, k, at),
  };
}

const TIMESTAMP = /\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|\b1\d{9}\b/;

/**
 * Per-message numbers of the non-system messages, in order: equal numbers for messages whose
 * segments (header + blocks) have equal numbers (`SegmentIds`). A message's number is the node a
 * trie of segment numbers, shared by both turns in `nodes`, reaches on its segments.
 */
function messageIds(t: Turn, ids: SegmentIds, nodes: Map<number, number>): Int32Array {
  const out = new Int32Array(t.segments.length);
  let n = 0;
  let current = -1;
  let node = 0;
  const segments = t.segments;
  const bound = ids.bound;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.messageIndex === null || s.role === "system") continue;
    if (s.messageIndex !== current) {
      if (current !== -1) out[n++] = node;
      current = s.messageIndex;
      node = 0;
    }
    // Below 2^53 for any request a runtime can hold: nodes and numbers are at most `bound` each.
    const pair = node * bound + ids.of(t, i);
    let next = nodes.get(pair);
    if (next === undefined) {
      next = nodes.size + 1;
      nodes.set(pair, next);
    }
    node = next;
  }
  if (current !== -1) out[n++] = node;
  return out.subarray(0, n);
}

/**
 * Messages dropped from the front of history `a` to get history `b` (message keys in order; 0 when
 * it is not a shift): the least `d ≥ 1` at which `a[d..]` and `b` agree for as long as both last.
 * Linear: the keys become small integers, and one Z-array over `b · sentinel · a` gives, for every
 * `d`, how far `a[d..]` agrees with `b` — no restart per candidate, whatever repeats in the history.
 */
export function windowShiftOf(ka: readonly string[], kb: readonly string[]): number {
  const ids = new Map<string, number>();
  const id = (key: string) => {
    let v = ids.get(key);
    if (v === undefined) {
      v = ids.size;
      ids.set(key, v);
    }
    return v;
  };
  return shiftOf(Int32Array.from(ka, id), Int32Array.from(kb, id));
}

/** `windowShiftOf` on message keys already made small integers (≥ 0). */
function shiftOf(ka: Int32Array, kb: Int32Array): number {
  // Same first message: the conversation start is intact, so this is an edit, not a shift.
  if (kb.length === 0 || ka.length < 2 || ka[0] === kb[0]) return 0;
  const nb = kb.length;
  const s = new Int32Array(nb + 1 + ka.length);
  s.set(kb, 0);
  s[nb] = -1;
  s.set(ka, nb + 1);
  const z = zArray(s);
  for (let d = 1; d < ka.length; d++) {
    if (z[nb + 1 + d]! >= Math.min(ka.length - d, nb)) return d;
  }
  return 0;
}

/** `z[i]`: length of the longest common prefix of `s` and `s[i..]` (`z[0]` left 0). O(n). */
function zArray(s: Int32Array): Int32Array {
  const n = s.length;
  const z = new Int32Array(n);
  let l = 0;
  let r = 0;
  for (let i = 1; i < n; i++) {
    let k = i < r ? Math.min(r - i, z[i - l]!) : 0;
    while (i + k < n && s[k] === s[i + k]) k++;
    z[i] = k;
    if (i + k > r) {
      l = i;
      r = i + k;
    }
  }
  return z;
}

function windowShift(ids: SegmentIds): number {
  const nodes = new Map<number, number>();
  return shiftOf(messageIds(ids.a, ids, nodes), messageIds(ids.b, ids, nodes));
}

/** Segment index in `b` where previous message `messageIndex` (all its segments) starts again after `from`, or -1. */
function movedMessage(ids: SegmentIds, messageIndex: number, from: number): number {
  const { a, b } = ids;
  const keys: number[] = [];
  for (let i = 0; i < a.segments.length; i++) if (a.segments[i]!.messageIndex === messageIndex) keys.push(ids.of(a, i));
  if (keys.length === 0) return -1;
  for (let i = from + 1; i + keys.length <= b.segments.length; i++) {
    if (ids.of(b, i) !== keys[0]) continue;
    let ok = true;
    for (let j = 1; j < keys.length && ok; j++) ok = ids.of(b, i + j) === keys[j];
    if (ok) return i;
  }
  return -1;
}

function classifyTools(a: Turn, b: Turn): { cause: DivergenceCause; detail: string } {
  const ta = a.segments.filter((s) => s.kind === "tool").map((s) => s.canonicalSha256);
  const tb = b.segments.filter((s) => s.kind === "tool").map((s) => s.canonicalSha256);
  const sameSet = ta.length === tb.length && [...ta].sort().join() === [...tb].sort().join();
  if (sameSet && ta.join() === tb.join()) {
    return {
      cause: "json_key_order_changed",
      detail:
        "The tools are the same but their JSON keys come in a different order: emit tool schemas with a stable key order.",
    };
  }
  if (sameSet) {
    return {
      cause: "tool_order_changed",
      detail:
        "The same tools are sent in a different order, so the prefix ends at the first tool: keep the tool list in a fixed order (e.g. sorted by name).",
    };
  }
  return {
    cause: "tools_changed",
    detail: `The tool definitions changed (${ta.length} → ${tb.length} tools): everything after the tools misses the cache. Keep the tool list fixed for a conversation.`,
  };
}

function classify(
  a: Turn,
  b: Turn,
  k: number,
  excerpt: DivergenceExcerpt | null,
  options: CompareOptions,
): { cause: DivergenceCause; detail: string } {
  const sa = a.segments[k];
  const sb = b.segments[k];
  if (!sa)
    return {
      cause: "appended",
      detail: `Next only adds ${b.segments.length - k} segment(s) after everything previous sent: the whole previous request is a reusable prefix.`,
    };
  if (!sb)
    return {
      cause: "truncated",
      detail: `Next is a prefix of previous (${a.segments.length - k} segment(s) removed from the end): what remains is still cacheable.`,
    };
  if (sa.region === "tools" || sb.region === "tools") {
    if (sa.kind === "tool_choice" || sb.kind === "tool_choice")
      return {
        cause: "tools_changed",
        detail: "The tool choice setting changed: the prompt after the tools misses the cache.",
      };
    return classifyTools(a, b);
  }
  if (sa.kind === "tool_choice" || sb.kind === "tool_choice")
    return { cause: "tools_changed", detail: "tool_choice changed: tools and system stay cached, the messages miss." };
  if (sa.canonicalSha256 === sb.canonicalSha256) {
    return {
      cause: "json_key_order_changed",
      detail: `${sb.path} has the same content with its JSON keys in a different order: serialize it with a stable key order.`,
    };
  }
  const ids = new SegmentIds(a, b);
  const shift = windowShift(ids);
  if (shift > 0) {
    return {
      cause: "history_window_shifted",
      detail: `The history window dropped ${shift} message(s) from the front, so every turn misses from there on. Evict history in larger chunks with slack (or summarize into a stable block) so the prefix survives several turns.`,
    };
  }
  if (sa.region === "system" || sb.region === "system") {
    const vars = options.template?.volatileVariables ?? [];
    if (vars.length > 0) {
      return {
        cause: "volatile_template_value",
        detail: `The system prompt template uses values that change every turn (${vars.join(", ")}): move them after the cached prefix, round them, or drop them.`,
      };
    }
    const around = (side: string) => excerpt!.common.slice(-20) + side.slice(0, 20);
    const looksVolatile =
      excerpt !== null && (TIMESTAMP.test(around(excerpt.previous)) || TIMESTAMP.test(around(excerpt.next)));
    return {
      cause: "system_changed",
      detail: `The system prompt changed at ${sb.path}; everything after it misses the cache.${looksVolatile ? " The changed text looks like a date or time: keep volatile values out of the system prompt, or put them after the cached prefix." : ""}`,
    };
  }
  // The previous message at this position reappears later in next: messages were inserted before it.
  const movedTo = sa.messageIndex === null ? -1 : movedMessage(ids, sa.messageIndex, k);
  if (movedTo >= 0) {
    return {
      cause: "message_edited",
      detail: `Messages were inserted before previous messages[${sa.messageIndex}], which now starts at segment ${movedTo}: everything from ${sb.path} on moved, so it misses the cache. Append new messages after everything the previous turn sent.`,
    };
  }
  return {
    cause: "message_edited",
    detail: `An earlier message changed at ${sb.path}; the conversation after it misses the cache.`,
  };
}

/** Compares two turns already turned into segments (`toTurn`), with a checked estimator. */
export function compareTurns(a: Turn, b: Turn, options: CompareOptions, estimate: TokenEstimator): PrefixComparison {
  const provider = options.provider;
  if (a.model !== b.model) {
    const zero = { bytes: 0, segments: 0, tokens: 0 };
    return {
      provider,
      identical: false,
      commonPrefix: zero,
      previous: a.total,
      next: b.total,
      divergence: {
        cause: "model_changed",
        bustsCache: true,
        path: "model",
        previousPath: "model",
        segmentIndex: 0,
        byteOffset: 0,
        excerpt: a.texts && b.texts ? { common: "", previous: a.model, next: b.model } : null,
        detail: `The model changed from "${a.model}" to "${b.model}": prompt caches are per model, so nothing is reused.`,
      },
    };
  }
  const p = commonPrefix(a, b, estimate);
  const identical = p.index === a.segments.length && p.index === b.segments.length;
  const prefix: PrefixSize = { bytes: p.bytes, segments: p.segments, tokens: p.tokens };
  if (identical)
    return { provider, identical, commonPrefix: prefix, previous: a.total, next: b.total, divergence: null };
  const k = p.index;
  const excerpt = excerptAt(a, b, k);
  const { cause, detail } = classify(a, b, k, excerpt, options);
  const sa = a.segments[k];
  const sb = b.segments[k];
  const divergence: Divergence = {
    cause,
    bustsCache: cause !== "appended" && cause !== "truncated",
    path: (sb ?? sa)!.path,
    previousPath: sa ? sa.path : null,
    segmentIndex: k,
    byteOffset: p.bytes,
    excerpt,
    detail,
  };
  return { provider, identical, commonPrefix: prefix, previous: a.total, next: b.total, divergence };
}

function checkTemplate(template: unknown): void {
  if (template === undefined) return;
  const vars = (template as { volatileVariables?: unknown } | null)?.volatileVariables;
  if (!Array.isArray(vars) || !vars.every((v) => typeof v === "string")) {
    throw new InvalidInputError(
      "template.volatileVariables",
      "must be an array of variable names (lintTemplateVolatility's variables).",
    );
  }
}

/**
 * The longest common prefix of `previous` and `next` and the classified cause of their first
 * divergence. Each side is checked once on entry: a fingerprint bundle structurally
 * (`RequestFormatError` naming the first bad field), a request by the message-shape check.
 */
export function compareRequests(previous: RequestLike, next: RequestLike, options: CompareOptions): PrefixComparison {
  const { provider, estimate } = analysisOptions(options);
  checkTemplate(options.template);
  const a = toTurn(previous, provider, estimate, "previous");
  const b = toTurn(next, provider, estimate, "next");
  return compareTurns(a, b, options, estimate);
}
