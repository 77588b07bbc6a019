/**
 * `segmentRequest`: a request as a flat list of segments in the provider's prompt order,
 * each with its path, UTF-8 byte offset and length, estimated tokens and SHA-256.
 *
 * Segment text is the JSON of one piece of the normalized request with Strata's fields in a
 * fixed key order (caller JSON — tool schemas, arguments, results, provider fields — keeps its
 * own order, as providers see it). Cache markers and message `metadata` are left out: neither
 * changes the prompt a provider caches. The serialized request is the segments' concatenation.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { ProviderRequest } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { leadingSystemCount } from "../formats/system-placement.ts";
import { checkedTokenEstimator, estimateLengthTokens, estimateTextTokens } from "../tokens/estimate.ts";
import { escapedExtra } from "../util/json-size.ts";
import { utf8Length } from "../util/utf8.ts";
import {
  blockJson,
  blockJsonBytes,
  GEMINI_CHOICE,
  isPlainText,
  plainTextBytes,
  plainTextChars,
  plainTextJson,
  serialize,
  toolJson,
} from "./segment-json.ts";
import { type HashMemo, type Kept, keptWrites, plainSegment, SegmentRecord } from "./segment-record.ts";
import type { CacheProvider, Segment, SegmentKind, SegmentRegion, TokenEstimator } from "./types.ts";

export interface SegmentOptions {
  readonly provider: CacheProvider;
  /**
   * Counts tokens per segment; default `ceil(UTF-16 length / 4)`. Same contract as the context
   * budget's (`checkedTokenEstimator`): each segment's count is rounded up to a whole token, and a
   * non-function or a result that is not a finite number ≥ 0 throws `TokenEstimatorError`.
   */
  readonly tokenEstimator?: TokenEstimator;
}

/** A segmented request: the segments plus their texts (same index). */
export interface SegmentedRequest {
  readonly provider: CacheProvider;
  readonly model: string;
  readonly order: readonly SegmentRegion[];
  readonly orderNote: string;
  readonly segments: readonly Segment[];
  readonly texts: readonly string[];
  readonly totalBytes: number;
  readonly totalTokens: number;
  /** Anthropic top-level `cache_control` (automatic caching). */
  readonly automaticCaching: boolean;
  /**
   * Indexes of the segments whose cache marker asks for a 1-hour lifetime (`ttl: "1h"`), including
   * the last block when automatic caching asks for one.
   */
  readonly ttl1h: readonly number[];
}

/** Prompt order per provider, and why. */
export const PROMPT_ORDER: Readonly<
  Record<CacheProvider, { readonly order: readonly SegmentRegion[]; readonly note: string }>
> = {
  anthropic: {
    order: ["tools", "system", "messages"],
    note:
      "Anthropic documents the order tools → system → messages; a change invalidates its level and every later one. " +
      "tool_choice sits at the start of the messages level (changing it keeps tools and system cached). The leading system messages form `system`; a later one stays in place as a user turn, as toAnthropic writes it.",
  },
  openai: {
    order: ["tools", "messages"],
    note:
      "OpenAI caches the exact prompt prefix, tools and images included, but does not document where tool definitions sit. " +
      "Strata assumes tools → tool_choice → messages in request order (tools rendered ahead of the conversation, as in OpenAI's harmony format), so any tool change counts as a full miss: the conservative reading.",
  },
  gemini: {
    order: ["tools", "system", "messages"],
    note:
      "Gemini does not document the prompt order of its implicit cache. Strata assumes tools → toolConfig → systemInstruction → contents, " +
      "the conservative order in which a tool change invalidates everything (as Anthropic documents for its own).",
  },
};

/** An object or an array: caller JSON whose key order may differ without a change in meaning. */
const isJsonContainer = (v: unknown) => v !== null && typeof v === "object";

/** Holds caller JSON objects (schemas, arguments, results, provider fields): key order may vary. */
const blockCallerJson = (b: ContentBlock) =>
  b.providerFields !== undefined ||
  (b.type === "tool_call" && isJsonContainer(b.arguments)) ||
  (b.type === "tool_result" && isJsonContainer(b.result)) ||
  (b.type === "opaque" && isJsonContainer(b.value));

/**
 * What a segmentation keeps of its segments' texts (see `Kept`):
 * - `false`: the JSON of each;
 * - `true`: a plain text block's own text instead of its JSON, for a count made beforehand (its
 *   estimate reads nothing, so it is given the kept text);
 * - `"estimate json"`: as `true`, for an estimator that reads its text (it is given the JSON
 *   written for it, which is not kept);
 * - `"sources"`: as `true`, and no text at all for the other blocks: their JSON is written again
 *   from the block when read. For an analysis that keeps the request anyway (inspect): a tool
 *   call's or result's JSON is as large as the block, read only for the few segments it shows or
 *   tells apart.
 */
export type TextKeeping = boolean | "estimate json" | "sources";

/**
 * Segments of one request, made as its pieces are written in prompt order (no list of pieces in
 * between). `twin`, the other turn of a comparison, lends the hashes and the very text string of
 * each segment whose text it repeats at the same index.
 */
const PRESIZED_FROM = 65_536;

/**
 * Below `PRESIZED_FROM`, segments are appended to lists of at most this many, joined once at the
 * end: a list grown by push past ~16,000 entries reallocates itself in V8's large-object space, a
 * fresh mapping each time (a 19,000-segment turn made ~950 KB of such copies per list pair).
 */
const CHUNK = 8192;

class Segmenter {
  /**
   * Sized up front (`expected`) and filled by index, then cut to `count`: a list grown by `push`
   * to 200,000 segments (a 100,000-message request) reallocates itself a dozen times, each copy a
   * fresh large object that V8 maps page by page — about 3× the final list, twice per turn.
   * Smaller requests fill lists of at most `CHUNK`, each sized up front too (see `#chunkSize`), and
   * join them at the end (see `done`): one 20,000-slot list would be allocated in old space, where
   * it keeps young segments alive past scavenges; a chunk (64 KB) is an ordinary young object.
   */
  segments: SegmentRecord[];
  texts: string[];
  /** The full chunks so far (lists of `CHUNK`), when not sized up front; `segments` and `texts` are the last. */
  readonly #chunks: { readonly segments: SegmentRecord[]; readonly texts: string[] }[] | undefined;
  /** Index of the first segment of the current chunk. */
  #base = 0;
  /** How many segments the request was expected to have (see the constructor). */
  readonly #expected: number;
  /** Figures `#copied` read for a message it then did not copy: `add` takes them first, in turn. */
  readonly #ahead: number[] = [];
  #aheadAt = 0;
  /** Segments added so far. */
  count = 0;
  readonly ttl1h: number[] = [];
  readonly #memo: HashMemo = new Map();
  readonly #headers = new Map<string, string>();
  offset = 0;
  tokens = 0;
  lastBlock = -1;
  /** `estimate` reads the texts it is given (else it gives a count made beforehand, see `TextKeeping`). */
  readonly #readsText: boolean;

  constructor(
    readonly estimate: TokenEstimator,
    readonly twin: SegmentedRequest | undefined,
    /** How many leading messages (and with them all tools) are known to write the twin's (-1: none). */
    readonly known: number,
    /** What the segments keep of their texts (see `TextKeeping`). */
    readonly keepPlainText: TextKeeping,
    /** How many segments the request will have (more or fewer only cost a reallocation or a trim). */
    expected: number,
  ) {
    this.#readsText = keepPlainText === false || keepPlainText === "estimate json";
    this.#expected = expected;
    const presized = expected > PRESIZED_FROM;
    const size = presized ? expected : this.#chunkSize(0);
    this.segments = new Array<SegmentRecord>(size);
    this.texts = new Array<string>(size);
    this.#chunks = presized ? undefined : [];
  }

  /**
   * The length of a chunk that starts at segment `index`: `CHUNK`, or what `expected` leaves. Sized
   * up front, as the presized lists are: filled by appending, a list of 8,192 reallocates itself
   * about fifteen times, ~3× its final size in copies (2.3 of the 30 MB an inspect of 5 MB made).
   */
  #chunkSize(index: number): number {
    return Math.min(CHUNK, Math.max(0, this.#expected - index));
  }

  /** The lists cut to the segments added (chunks joined: one copy each, at its final size). */
  done(): void {
    // Cut first: a list sized for more segments than came ends in holes.
    this.segments.length = this.count - this.#base;
    this.texts.length = this.count - this.#base;
    const chunks = this.#chunks;
    if (chunks === undefined || chunks.length === 0) return;
    this.segments = ([] as SegmentRecord[]).concat(...chunks.map((c) => c.segments), this.segments);
    this.texts = ([] as string[]).concat(...chunks.map((c) => c.texts), this.texts);
  }

  /**
   * True when a block that keeps no text (`kept` "source") is measured from its block instead of
   * written: with no twin, its JSON would be written for its size alone (`add` then takes "").
   */
  #measuresSource(kept: Kept): boolean {
    return kept === "source" && this.twin === undefined;
  }

  /** Index `index`'s slot in the current lists (a new chunk when the last is full). */
  #slot(index: number): number {
    const slot = index - this.#base;
    if (slot < CHUNK || this.#chunks === undefined) return slot;
    this.#chunks.push({ segments: this.segments, texts: this.texts });
    const size = this.#chunkSize(index);
    this.segments = new Array<SegmentRecord>(size);
    this.texts = new Array<string>(size);
    this.#base = index;
    return 0;
  }

  /**
   * The twin's segment at the next index when `source` certainly writes its text (then this
   * segment takes its text, size, tokens and hashes without being serialized at all): a tool or
   * a piece of message `message` the caller already found equal to the twin's (then the twin may
   * be plain segments, as a session keeps them), or one that `writesSame` finds so.
   */
  reusable(kind: SegmentKind, source: unknown, message = -1): Segment | undefined {
    const twin = this.twin?.segments[this.count];
    if (twin === undefined) return undefined;
    if (
      this.known >= 0 &&
      twin.kind === kind &&
      (kind === "tool" || (message < this.known && twin.messageIndex === message))
    )
      return twin;
    return twin instanceof SegmentRecord && twin.writesSame(kind, source) ? twin : undefined;
  }

  add(
    kind: SegmentKind,
    region: SegmentRegion,
    text: string,
    role: Message["role"] | null,
    messageIndex: number | null,
    blockType: ContentBlock["type"] | null,
    item: number,
    callerJson: boolean,
    cache: { readonly ttl?: string } | undefined,
    source: unknown,
    reuse?: Segment,
    /**
     * What the segment keeps (`keepPlainText` allows more than JSON): for `"text"`, `text` is a
     * plain text block's own text; else its JSON (for `"source"` measured here, then not kept;
     * without a twin to compare it with, "": the block is measured from `source`, not written).
     */
    kept: Kept = "json",
  ): void {
    const index = this.count;
    const twin = this.twin;
    const plainText = kept === "text";
    // The other turn of a comparison mostly repeats this one: comparing is far cheaper than measuring.
    const same = reuse ?? (twin === undefined ? undefined : this.#sameAsTwin(twin, index, text, plainText));
    // A repeated segment keeps the twin's very text, and so the twin's way of keeping it.
    const own = same === undefined ? (kept === "source" ? "" : text) : twin!.texts[index]!;
    const ownKept = same instanceof SegmentRecord ? same.kept : same === undefined ? kept : "json";
    const ownPlain = ownKept === "text";
    // A new plain text's escapes, counted once for its size and (on its JSON) its estimate.
    const extra = same === undefined && plainText ? escapedExtra(text) : undefined;
    const byteLength =
      same !== undefined
        ? same.byteLength
        : plainText
          ? plainTextBytes(text, extra)
          : this.#measuresSource(kept)
            ? blockJsonBytes(source as ContentBlock, messageIndex!, item)
            : utf8Length(text);
    // An estimator that reads its text is given the segment's JSON, however it is kept.
    const tokens =
      this.#aheadAt < this.#ahead.length
        ? this.#ahead[this.#aheadAt++]!
        : !this.#readsText
          ? this.estimate(own)
          : ownPlain
            ? this.#estimateJson(own, extra)
            : this.estimate(ownKept === "source" ? ((same as SegmentRecord | undefined)?.json ?? text) : own);
    // A repeated segment that reads the same in this turn (the same place, size and tokens) is the
    // twin's record itself: a long conversation's next turn makes no new record for its history.
    const record =
      same instanceof SegmentRecord &&
      same.matches(
        index,
        kind,
        region,
        role,
        messageIndex,
        blockType,
        this.offset,
        tokens,
        cache !== undefined,
        item,
        callerJson,
      )
        ? same
        : new SegmentRecord(
            index,
            kind,
            region,
            role,
            messageIndex,
            blockType,
            this.offset,
            byteLength,
            tokens,
            cache !== undefined,
            own,
            item,
            callerJson,
            same,
            this.#memo,
            source,
            ownKept,
          );
    this.#keep(record, own, kind, cache);
  }

  /**
   * Keeps `record` as the next segment (index `count`) with its kept `text`: its place in `ttl1h`
   * (`cache`) and as the last block, and the running size and tokens. `add` and `#copied` both
   * keep their segments here.
   */
  #keep(record: SegmentRecord, text: string, kind: SegmentKind, cache: { readonly ttl?: string } | undefined): void {
    const index = this.count++;
    const slot = this.#slot(index);
    this.segments[slot] = record;
    this.texts[slot] = text;
    if (cache?.ttl === "1h") this.ttl1h.push(index);
    if (kind === "tool" || kind === "block") this.lastBlock = index;
    this.offset += record.byteLength;
    this.tokens += record.tokens;
  }

  /**
   * The estimate of a plain text block's JSON, kept as its text: the default estimator reads only
   * its length, so that is counted without writing the JSON (100,000 short strings per turn).
   */
  #estimateJson(text: string, extra: number | undefined): number {
    return this.estimate === estimateTextTokens
      ? estimateLengthTokens(plainTextChars(text, extra))
      : this.estimate(plainTextJson(text));
  }

  /** The twin's segment at `index` when it writes what `text` (own text when `plainText`, else JSON) writes. */
  #sameAsTwin(twin: SegmentedRequest, index: number, text: string, plainText: boolean): Segment | undefined {
    const kept = twin.texts[index];
    if (kept === undefined) return undefined;
    const segment = twin.segments[index]!;
    return keptWrites(segment, kept, text, plainText) ? segment : undefined;
  }

  /**
   * A message header's text. Without a name or provider fields it is the same for every message
   * of a role: written once per role, every such header is then the very same string.
   */
  header(m: Message, i: number): string {
    if (m.name !== undefined || m.providerFields !== undefined || typeof m.role !== "string")
      return serialize({ role: m.role, name: m.name, providerFields: m.providerFields }, "message", i, -1);
    let text = this.#headers.get(m.role);
    if (text === undefined) {
      text = serialize({ role: m.role }, "message", i, -1);
      this.#headers.set(m.role, text);
    }
    return text;
  }

  /**
   * True when message `i` was taken whole from the twin: a message known to write the twin's
   * (`known`: the count found it equal, so its role, block types and flags are the twin's) whose
   * segments sit in the twin at the very place, size and tokens they take here, so each is the
   * twin's record itself (what `add` would find one by one, see `matches`). Only for a
   * count made beforehand (`estimate` reads the count's figures in turn and never the text, see
   * `TextKeeping`). The figures read for a message that is not copied wait in `#ahead`.
   */
  #copied(m: Message, i: number, region: SegmentRegion): boolean {
    const twin = this.twin;
    if (twin === undefined || i >= this.known || this.#readsText) return false;
    const segments = twin.segments;
    const texts = twin.texts;
    const first = this.count;
    const n = 1 + m.content.length;
    if (first + n > segments.length) return false;
    // Each segment at the same place and size, then its figure (the twin's first or last segment
    // holds the count's framing, so a figure may differ).
    let offset = this.offset;
    for (let k = 0; k < n; k++) {
      const s = segments[first + k]!;
      if (
        !(s instanceof SegmentRecord) ||
        s.index !== first + k ||
        s.messageIndex !== i ||
        s.byteOffset !== offset ||
        s.kind !== (k === 0 ? "message" : "block") ||
        s.region !== region
      )
        return this.#readAhead(segments, first, k, undefined);
      const tokens = this.estimate(texts[first + k]!);
      if (tokens !== s.tokens) return this.#readAhead(segments, first, k, tokens);
      offset += s.byteLength;
    }
    for (let k = 0; k < n; k++)
      this.#keep(
        segments[first + k] as SegmentRecord,
        texts[first + k]!,
        k === 0 ? "message" : "block",
        k === 0 ? undefined : m.content[k - 1]!.cache,
      );
    return true;
  }

  /**
   * Keeps for `add` the figures `#copied` read before it gave up at segment `first + k`: those of
   * the segments before it (each the twin's, as compared) and `last`, that segment's own, if read.
   */
  #readAhead(segments: readonly Segment[], first: number, k: number, last: number | undefined): false {
    const ahead = this.#ahead;
    ahead.length = 0;
    this.#aheadAt = 0;
    for (let j = 0; j < k; j++) ahead.push(segments[first + j]!.tokens);
    if (last !== undefined) ahead.push(last);
    return false;
  }

  message(m: Message, i: number, region: SegmentRegion): void {
    if (this.#copied(m, i, region)) return;
    const head = this.reusable("message", m, i);
    const header = head ? "" : this.header(m, i);
    this.add("message", region, header, m.role, i, null, -1, m.providerFields !== undefined, undefined, m, head);
    const content = m.content;
    for (let j = 0; j < content.length; j++) {
      const b = content[j]!;
      const reuse = this.reusable("block", b, i);
      // The commonest block, a plain text, is kept as its own text when it may be, and any other
      // block's JSON is written to be measured only, when it may be (`TextKeeping`).
      const plain = reuse === undefined && this.keepPlainText && isPlainText(b);
      const kept = plain ? "text" : this.keepPlainText === "sources" ? "source" : "json";
      const text = reuse || this.#measuresSource(kept) ? "" : plain ? (b as { text: string }).text : blockJson(b, i, j);
      this.add("block", region, text, m.role, i, b.type, j, blockCallerJson(b), b.cache, b, reuse, kept);
    }
  }
}

/** Where `provider`'s tool choice sits in the request's provider options. */
const choiceKeyOf = (provider: CacheProvider) => (provider === "gemini" ? "toolConfig" : "tool_choice");

/** How many segments `segmentInto` adds for `request`: one per tool, the tool choice, a header per message and one per block. */
function segmentCount(request: ProviderRequest | NormalizedRequest, provider: CacheProvider): number {
  const messages = request.messages;
  let count = request.tools.length + messages.length;
  if ((request.providerOptions ?? {})[choiceKeyOf(provider)] !== undefined) count++;
  for (let i = 0; i < messages.length; i++) count += messages[i]!.content.length;
  return count;
}

/** The request's segments in `provider`'s prompt order. */
function segmentInto(out: Segmenter, request: ProviderRequest | NormalizedRequest, provider: CacheProvider): void {
  const tools = request.tools;
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    const callerJson = isJsonContainer(t.inputSchema) || t.providerFields !== undefined;
    const reuse = out.reusable("tool", t);
    out.add("tool", "tools", reuse ? "" : toolJson(t, i), null, null, null, i, callerJson, t.cache, t, reuse);
  }
  const opts = request.providerOptions ?? {};
  const choiceKey = choiceKeyOf(provider);
  const choice: JsonValue | undefined = opts[choiceKey];
  const addChoice = (region: SegmentRegion) =>
    out.add(
      "tool_choice",
      region,
      serialize({ [choiceKey]: choice }, "tool_choice", null, -1),
      null,
      null,
      null,
      provider === "gemini" ? GEMINI_CHOICE : -1,
      isJsonContainer(choice),
      undefined,
      choice,
    );
  const messages = request.messages;
  if (provider === "openai") {
    if (choice !== undefined) addChoice("tools");
    let leading = true;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      leading &&= m.role === "system";
      out.message(m, i, leading ? "system" : "messages");
    }
    return;
  }
  if (provider === "gemini" && choice !== undefined) addChoice("tools");
  // Only the leading system messages fill the system slot; a later one stays where it is, as the
  // converters write it (a marked user turn), so loading a skill appends.
  const leading = leadingSystemCount(messages);
  for (let i = 0; i < leading; i++) out.message(messages[i]!, i, "system");
  if (provider === "anthropic" && choice !== undefined) addChoice("messages");
  for (let i = leading; i < messages.length; i++) out.message(messages[i]!, i, "messages");
}

/** `provider` as a `CacheProvider`, or `InvalidInputError` naming `field`. */
export function checkProvider(provider: unknown, field = "provider"): CacheProvider {
  if (typeof provider !== "string" || !Object.hasOwn(PROMPT_ORDER, provider)) {
    throw new InvalidInputError(
      field,
      `expected "openai", "anthropic" or "gemini", got ${JSON.stringify(provider) ?? String(provider)}`,
    );
  }
  return provider as CacheProvider;
}

/** The options object of a cache-analysis call, or `InvalidInputError`. */
export function checkOptions<T extends object>(options: T | undefined, field = "options"): T {
  if (options === null || typeof options !== "object")
    throw new InvalidInputError(field, 'must be an object with a provider ("openai", "anthropic" or "gemini").');
  return options;
}

/**
 * Segments `request` in `options.provider`'s prompt order. Linear in the request size. The request
 * gets the shared message-shape check (`InvalidInputError` naming e.g. `messages[3].content[1].type`).
 */
export function segmentRequest(
  request: ProviderRequest | NormalizedRequest,
  options: SegmentOptions,
): SegmentedRequest {
  const provider = checkProvider(checkOptions(options).provider);
  const estimate = checkedTokenEstimator(options.tokenEstimator, "tokenEstimator");
  assertProviderRequest(request);
  return segmentWith(request, provider, estimate);
}

/**
 * `segmentRequest` without the checks, for requests an earlier stage built or checked (parsed,
 * assembled) and an estimator already wrapped by `checkedTokenEstimator`. `twin`, the other turn
 * of a comparison, lends the hashes of segments whose texts it repeats at the same index. The
 * segments are plain objects, hashed now (see `segmentLazily` for segments hashed when read).
 */
export function segmentWith(
  request: ProviderRequest | NormalizedRequest,
  provider: CacheProvider,
  estimate: TokenEstimator,
  twin?: SegmentedRequest,
): SegmentedRequest {
  const seg = segmentLazily(request, provider, estimate, twin);
  return { ...seg, segments: seg.segments.map(plainSegment) };
}

/**
 * `segmentWith` whose segments are `SegmentRecord`s: each is hashed only when its `sha256` or
 * `canonicalSha256` is read, so segments that are only compared (on their texts) are never hashed.
 * For the engine's own analyses; what leaves it is copied with `plainSegment`.
 */
export function segmentLazily(
  request: ProviderRequest | NormalizedRequest,
  provider: CacheProvider,
  estimate: TokenEstimator,
  twin?: SegmentedRequest,
  known = -1,
  keepPlainText: TextKeeping = false,
): SegmentedRequest {
  // A twin segmented for another provider writes its tool choice under another key: not a twin.
  const same = twin?.provider === provider;
  const out = new Segmenter(
    estimate,
    same ? twin : undefined,
    same ? known : -1,
    keepPlainText,
    segmentCount(request, provider),
  );
  segmentInto(out, request, provider);
  out.done();
  const { segments, texts, ttl1h, lastBlock } = out;
  const automatic = provider === "anthropic" ? (request.providerOptions ?? {}).cache_control : undefined;
  const automaticTtl1h =
    automatic !== null && typeof automatic === "object" && (automatic as { ttl?: unknown }).ttl === "1h";
  return {
    provider,
    model: request.model.model,
    order: PROMPT_ORDER[provider].order,
    orderNote: PROMPT_ORDER[provider].note,
    segments,
    texts,
    totalBytes: out.offset,
    totalTokens: out.tokens,
    automaticCaching: automatic !== undefined,
    ttl1h: automaticTtl1h && lastBlock >= 0 && !ttl1h.includes(lastBlock) ? [...ttl1h, lastBlock] : ttl1h,
  };
}

/** The serialized request Strata hashes and measures: the segment texts in prompt order. */
export function serializeRequest(request: ProviderRequest | NormalizedRequest, options: SegmentOptions): string {
  return segmentRequest(request, options).texts.join("");
}
