/**
 * The calibrated estimate: each segment's feature vector (character classes of what the provider
 * reads, plus structural counts) dotted with the provider's fitted coefficients, plus the media
 * rules' cost of images and documents. Linear in the request size.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { ContentBlock, JsonValue } from "../messages/types.ts";
import { anthropicToolPreamble } from "./anthropic-tools.ts";
import { geminiBillsThoughtSignatures } from "./model-info.ts";
import { addText, bump, emptyFeatures, type FeatureVector, FEATURE_COUNT, jsonText } from "./features.ts";
import type { MediaCost, MediaCoster } from "./media.ts";
import type { MediaProvider } from "./media-rules.ts";
import {
  requestResolution,
  requestsReasoning,
  resolutionOf,
  responseSchemas,
  resultParts,
  serverTool,
} from "./segment-content.ts";
import type { SegmentWalk } from "./segment-order.ts";
import type { TokenNote } from "./types.ts";

export interface SegmentFeatures {
  readonly features: FeatureVector;
  readonly media: readonly MediaCost[];
}

export interface RequestFeatures {
  /** Request-level features (fixed framing, tool preamble, response schemas): the leading tokens. */
  readonly leading: FeatureVector;
  readonly segments: readonly SegmentFeatures[];
  readonly notes: readonly TokenNote[];
}

export interface FeatureContext {
  readonly provider: MediaProvider;
  readonly model: string;
  /** Prices a media block (`mediaCoster(provider, model)`, media.ts). */
  readonly media: MediaCoster;
}

/**
 * Index of the first message of the current tool loop: the messages after the last user message
 * that holds more than tool results. Providers keep reasoning sent back only there: Anthropic
 * strips thinking blocks of earlier turns (extended thinking docs), and on the calibration corpus
 * Gemini 3 bills returned thought signatures only there (about 0.2 tokens per character).
 */
export function currentLoopStart(request: NormalizedRequest): number {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i]!;
    if (m.role === "user" && m.content.some((b) => b.type !== "tool_result")) return i + 1;
  }
  return 0;
}

/** Length of the opaque reasoning state a block carries back (signature, thought signature, encrypted content). */
function signatureLength(b: ContentBlock): number {
  let n = b.type === "thinking" && b.signature !== undefined ? b.signature.length : 0;
  const g = b.providerFields?.gemini?.thoughtSignature;
  if (typeof g === "string") n += g.length;
  const item = b.providerFields?.["openai-responses"]?.item;
  if (item !== null && typeof item === "object" && !Array.isArray(item)) {
    const enc = (item as { encrypted_content?: JsonValue }).encrypted_content;
    if (typeof enc === "string" && b.type === "thinking" && b.signature !== enc) n += enc.length;
  }
  return n;
}

/** True when a Gemini function response carries `parts` of its own (inline or file media the model sees). */
function geminiResponseParts(b: ContentBlock): boolean {
  const fr = b.providerFields?.gemini?.functionResponse;
  if (fr === null || typeof fr !== "object" || Array.isArray(fr)) return false;
  const parts = (fr as { parts?: JsonValue }).parts;
  return Array.isArray(parts) && parts.length > 0;
}

type AddText = (v: FeatureVector, text: string, channel?: "text" | "tool") => void;

function blockFeatures(
  add: AddText,
  b: ContentBlock,
  walk: SegmentWalk,
  index: number,
  ctx: FeatureContext,
  v: FeatureVector,
  media: MediaCost[],
  notes: TokenNote[],
  resolution: ReturnType<typeof resolutionOf>,
  inLoop: boolean,
  signatures: boolean,
): void {
  bump(v, "blocks");
  // Reasoning sent back counts only within the current tool loop (see `currentLoopStart`).
  const signature = inLoop && signatures ? signatureLength(b) : 0;
  if (signature > 0) bump(v, "signatureChars", signature);
  switch (b.type) {
    case "text":
      add(v, b.text);
      return;
    case "thinking":
      bump(v, "thinking");
      // Gemini reads a part marked `thought` that is sent back as ordinary text, in any turn (on
      // the calibration corpus, Gemini 2.5 and 3 bill such parts at the rate of their text).
      if (ctx.provider === "gemini") add(v, b.text);
      else if (inLoop) bump(v, "thinkingChars", b.text.length);
      return;
    case "tool_call":
      bump(v, "toolCalls");
      add(v, b.name);
      add(v, jsonText(b.arguments));
      return;
    case "tool_result": {
      bump(v, "toolResults");
      if (geminiResponseParts(b))
        notes.push({
          code: "media_not_counted",
          path: walk.path(index),
          message:
            "Media inside a Gemini functionResponse (its `parts`) is billed by the provider but not counted here.",
        });
      // Most results are one string: read as it is, with no list made for it.
      if (typeof b.result === "string") {
        add(v, b.result);
        return;
      }
      const parts = resultParts(b.result);
      for (const t of parts.texts) add(v, t);
      for (const m of parts.media) {
        bump(v, "media");
        addMedia(add, v, media, notes, walk, index, ctx.media(m, resolution));
      }
      return;
    }
    case "opaque":
      // Unmodelled wire content: its JSON is what the provider reads (an estimate, as for tool results).
      add(v, jsonText(b.value));
      return;
    default:
      bump(v, "media");
      addMedia(add, v, media, notes, walk, index, ctx.media(b, resolution));
  }
}

/** Adds a priced media block: to the segment's list, its text (a document's) and its note. */
function addMedia(
  add: AddText,
  v: FeatureVector,
  media: MediaCost[],
  notes: TokenNote[],
  walk: SegmentWalk,
  index: number,
  m: MediaCost,
): void {
  media.push(m);
  if (m.text !== null) add(v, m.text);
  if (m.note !== null)
    notes.push({
      code: m.tokens === 0 ? "media_not_counted" : "media_size_unknown",
      path: walk.path(index),
      message: m.note,
    });
}

/** What a segment with no images or documents costs in media: one shared empty list. */
export const NO_MEDIA: readonly MediaCost[] = Object.freeze([]);

/**
 * Called with each segment's features in turn: `features` is a scratch vector the walk zeroes
 * after the call (copy it to keep it), `media` the segment's own list.
 */
export type SegmentFeatureVisitor = (index: number, features: FeatureVector, media: readonly MediaCost[]) => void;

/** What a walk over the segments found besides their features. */
export interface VisitedFeatures {
  readonly notes: TokenNote[];
  /** The current tool loop's first message (`currentLoopStart`). */
  readonly loopStart: number;
  /**
   * True when a block visited in the current tool loop carries reasoning (a thinking block, a
   * signature): its features would differ outside the loop (see `currentLoopStart`).
   */
  readonly loopSensitive: boolean;
}

/** True when `b`'s features depend on whether it sits in the current tool loop. */
const loopDependent = (b: ContentBlock) => b.type === "thinking" || signatureLength(b) > 0;

/** Request-level features (fixed framing, tool preamble, response schemas): the leading tokens. */
export function leadingFeatures(request: NormalizedRequest, ctx: FeatureContext): FeatureVector {
  const options = request.providerOptions ?? {};
  const leading = emptyFeatures();
  bump(leading, "requests");
  if (request.tools.length > 0) {
    bump(leading, "toolsPresent");
    if (ctx.provider === "anthropic" || ctx.provider === "bedrock")
      bump(leading, "toolPreamble", anthropicToolPreamble(ctx.model, options.tool_choice));
  }
  if (requestsReasoning(request)) bump(leading, "reasoning");
  for (const schema of responseSchemas(request)) {
    bump(leading, "schemas");
    bump(leading, "schemaChars", schema.length);
  }
  return leading;
}

/**
 * Each segment's features, in `walk` order, handed to `visit` (see `SegmentFeatureVisitor`): one
 * scratch vector for the whole walk, so a request of any size allocates no vector per segment.
 * Returns the notes, the loop start and whether that loop holds reasoning (`VisitedFeatures`).
 * `observe` sees every text that is measured (calibration counts the same texts with a real
 * tokenizer).
 */
export function visitSegmentFeatures(
  request: NormalizedRequest,
  walk: SegmentWalk,
  ctx: FeatureContext,
  visit: SegmentFeatureVisitor,
  observe?: (text: string) => void,
): VisitedFeatures {
  const add: AddText =
    observe === undefined
      ? addText
      : (v, text, channel) => {
          addText(v, text, channel);
          observe(text);
        };
  const notes: TokenNote[] = [];
  const resolution = resolutionOf(requestResolution(request));
  const loopStart = currentLoopStart(request);
  const signatures = ctx.provider !== "gemini" || geminiBillsThoughtSignatures(ctx.model);
  const options = request.providerOptions ?? {};
  const { tools, messages } = request;
  const v = emptyFeatures();
  const media: MediaCost[] = [];
  let loopSensitive = false;
  for (let index = 0; index < walk.length; index++) {
    switch (walk.kind(index)) {
      case "tool": {
        const t = tools[walk.index(index)]!;
        bump(v, "tools");
        add(v, t.name, "tool");
        // A description is prose the model reads as such; the schema is re-rendered by each provider.
        if (t.description !== undefined) add(v, t.description);
        const server = serverTool(t);
        // Wire fields kept verbatim (a Gemini `parameters_json_schema`, `strict`, …) are sent too.
        if (server === null && t.providerFields !== undefined) add(v, jsonText(t.providerFields as JsonValue), "tool");
        if (server !== null) {
          add(v, jsonText(server), "tool");
          notes.push({
            code: "server_tool",
            path: walk.path(index),
            message:
              "A tool the provider runs itself: its instructions and results are added on the provider's side and are not counted.",
          });
        } else add(v, jsonText(t.inputSchema), "tool");
        break;
      }
      case "tool_choice":
        add(v, jsonText(options[walk.choiceKey]));
        break;
      case "message": {
        const m = messages[walk.index(index)]!;
        bump(v, "messages");
        if (m.name !== undefined) {
          bump(v, "names");
          add(v, m.name);
        }
        break;
      }
      case "block": {
        const i = walk.index(index);
        const block = messages[i]!.content[walk.block(index)]!;
        if (!loopSensitive && i >= loopStart) loopSensitive = loopDependent(block);
        blockFeatures(add, block, walk, index, ctx, v, media, notes, resolution, i >= loopStart, signatures);
        break;
      }
    }
    visit(index, v, media.length === 0 ? NO_MEDIA : media.slice());
    v.fill(0);
    media.length = 0;
  }
  return { notes, loopStart, loopSensitive };
}

/**
 * The feature vectors of `walk`'s segments (one per segment) and of the request itself, as calibration fits
 * on them (`countRequestTokens` dots them as it walks instead: `visitSegmentFeatures`).
 */
export function requestFeatures(
  request: NormalizedRequest,
  walk: SegmentWalk,
  ctx: FeatureContext,
  observe?: (text: string) => void,
): RequestFeatures {
  const leading = leadingFeatures(request, ctx);
  const segments: SegmentFeatures[] = [];
  const { notes } = visitSegmentFeatures(
    request,
    walk,
    ctx,
    (_, features, media) => segments.push({ features: new Float64Array(features), media }),
    observe,
  );
  return { leading, segments, notes };
}

/** Sum of the request's feature vectors (leading plus every segment): what calibration fits on. */
export function totalFeatures(f: RequestFeatures): FeatureVector {
  const total = new Float64Array(f.leading);
  for (const s of f.segments) for (let i = 0; i < FEATURE_COUNT; i++) total[i] = total[i]! + s.features[i]!;
  return total;
}
