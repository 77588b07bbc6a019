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
import type { ProviderRequest, ToolDefinition } from "../messages/request.ts";
import type { ContentBlock, JsonValue, Message } from "../messages/types.ts";
import { assertProviderRequest } from "../messages/validate.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { leadingSystemCount } from "../formats/system-placement.ts";
import { checkedTokenEstimator } from "../tokens/estimate.ts";
import { canonicalJson } from "../util/canonical.ts";
import { hashText } from "../util/hash.ts";
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

/**
 * `JSON.stringify(value)`, or a typed error naming `path` when caller JSON makes it throw (a cycle,
 * a BigInt, nesting deeper than the engine's stack). The error is the one `canonicalJson` gives
 * for the same value, so it is the same in every runtime whatever each engine's stack depth.
 */
function serialize(value: object, path: string): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    canonicalJson(value, { path });
    throw new InvalidInputError(
      path,
      `cannot be serialized as JSON (${e instanceof Error ? e.message : String(e)}): send plain JSON data.`,
      { cause: e },
    );
  }
}

const toolJson = (t: ToolDefinition, path: string) =>
  serialize(
    { name: t.name, description: t.description, inputSchema: t.inputSchema, providerFields: t.providerFields },
    path,
  );

function blockJson(b: ContentBlock, path: string): string {
  const pf = b.providerFields;
  switch (b.type) {
    case "text":
      return serialize({ type: b.type, text: b.text, providerFields: pf }, path);
    case "thinking":
      return serialize(
        { type: b.type, text: b.text, signature: b.signature, redacted: b.redacted, providerFields: pf },
        path,
      );
    case "tool_call":
      return serialize({ type: b.type, id: b.id, name: b.name, arguments: b.arguments, providerFields: pf }, path);
    case "tool_result":
      return serialize(
        {
          type: b.type,
          toolCallId: b.toolCallId,
          name: b.name,
          result: b.result,
          isError: b.isError,
          providerFields: pf,
        },
        path,
      );
    case "document":
      return serialize(
        {
          type: b.type,
          name: b.name,
          mimeType: b.mimeType,
          text: b.text,
          data: b.data,
          url: b.url,
          providerFields: pf,
        },
        path,
      );
    case "file":
      return serialize(
        { type: b.type, name: b.name, mimeType: b.mimeType, data: b.data, url: b.url, providerFields: pf },
        path,
      );
    case "opaque":
      // The block as received, in its own key order: its bytes are what the provider reads.
      return serialize(
        { type: b.type, format: b.format, wireType: b.wireType, value: b.value, providerFields: pf },
        path,
      );
    default:
      return serialize({ type: b.type, mimeType: b.mimeType, data: b.data, url: b.url, providerFields: pf }, path);
  }
}

/** An object or an array: caller JSON whose key order may differ without a change in meaning. */
const isJsonContainer = (v: unknown) => v !== null && typeof v === "object";

const headerJson = (m: Message, path: string) =>
  serialize({ role: m.role, name: m.name, providerFields: m.providerFields }, path);

interface Piece {
  /** Holds caller JSON objects (schemas, arguments, results, provider fields): key order may vary. */
  readonly callerJson: boolean;
  readonly path: string;
  readonly kind: SegmentKind;
  readonly region: SegmentRegion;
  readonly text: string;
  readonly role: Message["role"] | null;
  readonly messageIndex: number | null;
  readonly blockType: ContentBlock["type"] | null;
  readonly breakpoint: boolean;
  /** The marker asks for a 1-hour lifetime. */
  readonly ttl1h?: boolean;
}

function messagePieces(m: Message, i: number, region: SegmentRegion, out: Piece[]): void {
  out.push({
    callerJson: m.providerFields !== undefined,
    path: `messages[${i}]`,
    kind: "message",
    region,
    text: headerJson(m, `messages[${i}]`),
    role: m.role,
    messageIndex: i,
    blockType: null,
    breakpoint: false,
  });
  m.content.forEach((b, j) =>
    out.push({
      callerJson:
        b.providerFields !== undefined ||
        (b.type === "tool_call" && isJsonContainer(b.arguments)) ||
        (b.type === "tool_result" && isJsonContainer(b.result)) ||
        (b.type === "opaque" && isJsonContainer(b.value)),
      path: `messages[${i}].content[${j}]`,
      kind: "block",
      region,
      text: blockJson(b, `messages[${i}].content[${j}]`),
      role: m.role,
      messageIndex: i,
      blockType: b.type,
      breakpoint: b.cache !== undefined,
      ttl1h: b.cache?.ttl === "1h",
    }),
  );
}

/** The request's pieces in prompt order (no hashing yet). */
function pieces(request: ProviderRequest | NormalizedRequest, provider: CacheProvider): Piece[] {
  const out: Piece[] = [];
  request.tools.forEach((t, i) =>
    out.push({
      callerJson: isJsonContainer(t.inputSchema) || t.providerFields !== undefined,
      path: `tools[${i}]`,
      kind: "tool",
      region: "tools",
      text: toolJson(t, `tools[${i}]`),
      role: null,
      messageIndex: null,
      blockType: null,
      breakpoint: t.cache !== undefined,
      ttl1h: t.cache?.ttl === "1h",
    }),
  );
  const opts = request.providerOptions ?? {};
  const choiceKey = provider === "gemini" ? "toolConfig" : "tool_choice";
  const choice: JsonValue | undefined = opts[choiceKey];
  const choicePiece = (region: SegmentRegion): Piece => ({
    callerJson: isJsonContainer(choice),
    path: `providerOptions.${choiceKey}`,
    kind: "tool_choice",
    region,
    text: serialize({ [choiceKey]: choice }, "providerOptions"),
    role: null,
    messageIndex: null,
    blockType: null,
    breakpoint: false,
  });
  if (provider === "openai") {
    if (choice !== undefined) out.push(choicePiece("tools"));
    let leading = true;
    request.messages.forEach((m, i) => {
      leading &&= m.role === "system";
      messagePieces(m, i, leading ? "system" : "messages", out);
    });
    return out;
  }
  if (provider === "gemini" && choice !== undefined) out.push(choicePiece("tools"));
  // Only the leading system messages fill the system slot; a later one stays where it is, as the
  // converters write it (a marked user turn), so loading a skill appends.
  const leading = leadingSystemCount(request.messages);
  for (let i = 0; i < leading; i++) messagePieces(request.messages[i]!, i, "system", out);
  if (provider === "anthropic" && choice !== undefined) out.push(choicePiece("messages"));
  for (let i = leading; i < request.messages.length; i++) messagePieces(request.messages[i]!, i, "messages", out);
  return out;
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
 * of a comparison, lends the hashes of segments whose texts it repeats at the same index.
 */
export function segmentWith(
  request: ProviderRequest | NormalizedRequest,
  provider: CacheProvider,
  estimate: TokenEstimator,
  twin?: SegmentedRequest,
): SegmentedRequest {
  const list = pieces(request, provider);
  const segments: Segment[] = [];
  const texts: string[] = [];
  // Short texts repeat (message headers such as {"role":"user"}): hash each distinct one once.
  const memo = new Map<string, { readonly bytes: number; readonly sha256: string }>();
  const measure = (text: string) => {
    const hit = text.length <= 256 ? memo.get(text) : undefined;
    if (hit) return hit;
    const m = hashText(text);
    if (text.length <= 256) memo.set(text, m);
    return m;
  };
  let offset = 0;
  let tokens = 0;
  const ttl1h: number[] = [];
  let lastBlock = -1;
  for (let index = 0; index < list.length; index++) {
    const p = list[index]!;
    // The other turn of a comparison mostly repeats this one: a segment whose text equals the
    // twin's at the same index has its byte length and hash already (comparing is far cheaper than hashing).
    const same = twin !== undefined && twin.texts[index] === p.text ? twin.segments[index] : undefined;
    const { bytes: byteLength, sha256 } =
      same === undefined ? measure(p.text) : { bytes: same.byteLength, sha256: same.sha256 };
    const t = estimate(p.text);
    // Strata writes its own fields in a fixed order, so only caller JSON can differ in key order alone.
    let canonicalSha256 = sha256;
    // The twin's segment with this very text has its canonical hash already (and passed the checks).
    if (p.callerJson && same !== undefined) canonicalSha256 = same.canonicalSha256;
    else if (p.callerJson) {
      const canonical = canonicalJson(JSON.parse(p.text), {
        path: p.kind === "tool_choice" ? "providerOptions" : p.path,
      });
      if (canonical !== p.text) canonicalSha256 = measure(canonical).sha256;
    }
    segments.push({
      index,
      path: p.path,
      kind: p.kind,
      region: p.region,
      role: p.role,
      messageIndex: p.messageIndex,
      blockType: p.blockType,
      byteOffset: offset,
      byteLength,
      tokens: t,
      sha256,
      canonicalSha256,
      cacheBreakpoint: p.breakpoint,
    });
    texts.push(p.text);
    if (p.ttl1h) ttl1h.push(index);
    if (p.kind === "tool" || p.kind === "block") lastBlock = index;
    offset += byteLength;
    tokens += t;
  }
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
    totalBytes: offset,
    totalTokens: tokens,
    automaticCaching: automatic !== undefined,
    ttl1h: automaticTtl1h && lastBlock >= 0 && !ttl1h.includes(lastBlock) ? [...ttl1h, lastBlock] : ttl1h,
  };
}

/** The serialized request Strata hashes and measures: the segment texts in prompt order. */
export function serializeRequest(request: ProviderRequest | NormalizedRequest, options: SegmentOptions): string {
  return segmentRequest(request, options).texts.join("");
}
