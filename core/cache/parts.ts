/**
 * `requestParts(request, seg)`: the parts of a wire request (OpenAI Chat / Responses, Anthropic,
 * Gemini, or any normalized request) in Strata's part kinds, each with its path and its size.
 * The rules, in order (the first that applies wins):
 *
 * | rule | what                                                                        | kind            |
 * | ---- | --------------------------------------------------------------------------- | --------------- |
 * | 1    | each tool definition, and the tool choice                                   | `tools`         |
 * | 2    | a message holding a block of a type Strata does not know                    | `unknown`       |
 * | 3    | a system message whose text starts `Summary:` (Strata's summary shape)      | `summary`       |
 * | 4    | the leading system messages (system, developer, `instructions`, `systemInstruction`) | `instructions` |
 * | 5    | any later system message                                                    | `context`       |
 * | 6    | a user message whose text starts `Attachment <name>:` or `Resource <uri>:`  | `attachment`    |
 * | 7    | before the current turn: an assistant message with tool calls / a tool message / anything else | `tool_call` / `tool_result` / `history` |
 * | 8    | the current turn (after the last assistant message): tool results           | `tool_result`   |
 * | 9    | the current turn: a user message's images, audio, files and documents ahead of its first text | `attachment` |
 * | 10   | the current turn: the rest of a user message (from its first text on)       | `input`         |
 *
 * Each part also carries its provenance label in the assembly trace's vocabulary (`source`), so
 * layouts and the context budget treat it exactly as they treat an assembled message: history
 * parts are `history:<i>`, this turn's tool results `toolResult:<id>`, `unknown` is never moved
 * or evicted. Sizes come from the request's segments (`partMeasures`), the one place that counts.
 */
import { CONTENT_BLOCK_TYPES, type ContentBlock, type Message } from "../messages/types.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { foldWhitespace, safeSlice } from "../util/text.ts";
import { contentPath, messagePath } from "../util/paths.ts";
import type { SegmentedRequest } from "./segments.ts";
import type { PartKind, RequestPart } from "./types.ts";

/** Block types whose meaning Strata knows; an `opaque` block (kept verbatim) is not one of them. */
const KNOWN_BLOCKS: ReadonlySet<string> = new Set(CONTENT_BLOCK_TYPES.filter((t) => t !== "opaque"));
const MEDIA: ReadonlySet<string> = new Set(["image", "audio", "file", "document"]);
/** Strata's own message shapes (assembly/input-shapes.ts): recognizable in a request it assembled. */
const SUMMARY = /^Summary:\n/;
const ATTACHMENT = /^(Attachment|Resource) [^\n]*:\n/;

/** A part while it is made: its tokens and bytes are added up from the segments afterwards. */
type Draft = { -readonly [K in keyof RequestPart]: RequestPart[K] };

const firstText = (m: Message): string => {
  for (const b of m.content) if (b.type === "text") return b.text;
  return "";
};

/** A JSON value as a short preview: a large object or array is named, not serialized whole. */
function short(v: unknown): string {
  if (v !== null && typeof v === "object" && Object.keys(v).length > 20)
    return Array.isArray(v) ? `[${v.length} items]` : `{${Object.keys(v).slice(0, 8).join(", ")}, …}`;
  return safeSlice(JSON.stringify(v) ?? "", 0, 60);
}

/** A block's text as previews cut it: a long text is cut before it joins a longer string (see `blockPreview`). */
const BLOCK_PREVIEW = 120;

/**
 * What a block shows in a preview; `previewOf` keeps its first `BLOCK_PREVIEW` units. A tool
 * call's arguments or a result's text are cut to that many before they are joined to the name or
 * the arrow: the joined string is then cut the same, without a copy of a long text made to cut it.
 */
function blockPreview(b: ContentBlock): string {
  switch (b.type) {
    case "text":
    case "thinking":
      return b.text;
    case "tool_call":
      return `${b.name}(${typeof b.arguments === "string" ? b.arguments.slice(0, BLOCK_PREVIEW) : short(b.arguments)})`;
    case "tool_result":
      return `→ ${typeof b.result === "string" ? b.result.slice(0, BLOCK_PREVIEW) : short(b.result)}`;
    case "opaque":
      return `[${String(b.wireType ?? "opaque")}] ${short(b.value)}`;
    default:
      return KNOWN_BLOCKS.has(b.type) ? `[${b.type}${b.mimeType ? ` ${b.mimeType}` : ""}]` : `[${String(b.type)}]`;
  }
}

/** Up to 80 characters of blocks `[from, to)`, whitespace folded (each block cut first: a block may be megabytes). */
function previewOf(m: Message, from: number, to: number): string {
  let out = "";
  for (let j = from; j < to && out.length < 80; j++)
    out += (out === "" ? "" : " ") + safeSlice(blockPreview(m.content[j]!), 0, BLOCK_PREVIEW);
  return safeSlice(foldWhitespace(out), 0, 80);
}

const toolPreview = (t: { readonly name: string; readonly description?: string | undefined }) =>
  safeSlice(`tool ${t.name}${t.description ? `: ${t.description}` : ""}`, 0, 80);

const TOOL_PATH = /^tools\[(\d+)\]$/;

/** A part's preview (what `requestParts` puts in `preview`), made from the request when it is read. */
export function partPreview(request: NormalizedRequest, part: RequestPart): string {
  if (part.messageIndex !== null)
    return previewOf(request.messages[part.messageIndex]!, part.firstBlock!, part.endBlock!);
  const tool = request.tools[Number(TOOL_PATH.exec(part.path)?.[1] ?? -1)];
  return tool ? toolPreview(tool) : "tool choice";
}

const blockPath = (i: number, from: number, to: number, m: Message) =>
  from === 0 && to === m.content.length
    ? messagePath(i)
    : to - from === 1
      ? contentPath(i, from)
      : `messages[${i}].content[${from}..${to - 1}]`;

/** Index of the last assistant message, or -1. */
function lastAssistant(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "assistant") return i;
  return -1;
}

/** The kinds `earlierKind` gives, each with its rule (made once: one per message would be 10,000s of objects). */
const EARLIER = {
  summary: { kind: "summary", rule: "3: system message in Strata's summary shape" },
  instructions: { kind: "instructions", rule: "4: leading system message" },
  context: { kind: "context", rule: "5: system message after the conversation began" },
  attachment: { kind: "attachment", rule: "6: user message in Strata's attachment shape" },
  toolCall: { kind: "tool_call", rule: "7: assistant tool call before the current turn" },
  toolResult: { kind: "tool_result", rule: "7: tool result before the current turn" },
  history: { kind: "history", rule: "7: message before the current turn" },
} as const satisfies Record<string, { readonly kind: PartKind; readonly rule: string }>;

const isToolCall = (b: ContentBlock) => b.type === "tool_call";
const isUnknownBlock = (b: ContentBlock) => !KNOWN_BLOCKS.has(b.type);

/** The kind of a message before the current turn (rule 7), or of any system message (rules 3–5). */
function earlierKind(m: Message, leading: boolean): { readonly kind: PartKind; readonly rule: string } {
  if (m.role === "system") {
    if (SUMMARY.test(firstText(m))) return EARLIER.summary;
    return leading ? EARLIER.instructions : EARLIER.context;
  }
  if (m.role === "user" && ATTACHMENT.test(firstText(m))) return EARLIER.attachment;
  if (m.role === "assistant" && m.content.some(isToolCall)) return EARLIER.toolCall;
  if (m.role === "tool") return EARLIER.toolResult;
  return EARLIER.history;
}

function sourceFor(kind: PartKind, i: number, path: string, m: Message, from: number, current: boolean): string {
  switch (kind) {
    case "instructions":
    case "summary":
    case "input":
    case "unknown":
      return kind;
    case "context":
    case "attachment":
      return `${kind}:${path}`;
    case "tool_result": {
      // This turn's results are the tool-results group; earlier ones are history, as in assembly.
      const b = m.content[from];
      return current && b?.type === "tool_result" ? `toolResult:${b.toolCallId}` : `history:${i}`;
    }
    default:
      return `history:${i}`;
  }
}

/** The parts of one message of the current turn (rules 8–10). */
function currentTurnParts(
  m: Message,
  i: number,
  push: (from: number, to: number, kind: PartKind, rule: string) => void,
) {
  const n = m.content.length;
  if (n === 0) {
    push(0, 0, m.role === "user" ? "input" : "history", "10: empty message of the current turn");
    return;
  }
  let j = 0;
  while (j < n && m.content[j]!.type === "tool_result") j++;
  if (j > 0) push(0, j, "tool_result", "8: tool result in the current turn");
  if (j === n) return;
  if (m.role !== "user") {
    push(j, n, m.role === "tool" ? "tool_result" : "history", "8: tool message in the current turn");
    return;
  }
  let text = j;
  while (text < n && MEDIA.has(m.content[text]!.type)) text++;
  if (text > j && text < n) push(j, text, "attachment", "9: media ahead of the text of a current user message");
  push(text < n ? text : j, n, "input", "10: user message of the current turn");
}

/**
 * Classifies every tool and message of `request` (see the table above) and measures each part
 * from `seg`, the request segmented for its provider. Linear in the request. With `previews`
 * false every `preview` is left empty, for a caller that makes only the ones it shows (`partPreview`).
 */
export function requestParts(request: NormalizedRequest, seg: SegmentedRequest, previews = true): RequestPart[] {
  const drafts: Draft[] = [];
  // Every part is made with its keys in `RequestPart`'s order, tokens and bytes filled in by `measure`.
  request.tools.forEach((t, i) =>
    drafts.push({
      index: drafts.length,
      kind: "tools",
      source: "tools",
      path: `tools[${i}]`,
      messageIndex: null,
      firstBlock: null,
      endBlock: null,
      role: null,
      preview: previews ? toolPreview(t) : "",
      rule: "1: tool definition",
      tokens: 0,
      bytes: 0,
    }),
  );
  // Indexed: an iterator over every segment was an allocation per segment.
  for (let k = 0, segments = seg.segments; k < segments.length; k++) {
    const s = segments[k]!;
    if (s.kind === "tool_choice")
      drafts.push({
        index: drafts.length,
        kind: "tools",
        source: "tools",
        path: s.path,
        messageIndex: null,
        firstBlock: null,
        endBlock: null,
        role: null,
        preview: "tool choice",
        rule: "1: tool choice",
        tokens: 0,
        bytes: 0,
      });
  }
  const messages = request.messages;
  const turnStart = lastAssistant(messages) + 1;
  let leading = true;
  // The message being classified, read by `push` (one closure for all of them, not one per message).
  let i = 0;
  let m: Message;
  const push = (from: number, to: number, kind: PartKind, rule: string) => {
    const path = blockPath(i, from, to, m);
    drafts.push({
      index: drafts.length,
      kind,
      source: sourceFor(kind, i, path, m, from, i >= turnStart),
      path,
      messageIndex: i,
      firstBlock: from,
      endBlock: to,
      role: m.role,
      preview: previews ? previewOf(m, from, to) : "",
      rule,
      tokens: 0,
      bytes: 0,
    });
  };
  for (; i < messages.length; i++) {
    m = messages[i]!;
    leading &&= m.role === "system";
    const odd = m.content.findIndex(isUnknownBlock);
    if (odd >= 0) {
      const b = m.content[odd]!;
      const what = b.type === "opaque" ? `an opaque ${String(b.format)} ${String(b.wireType)}` : `a ${String(b.type)}`;
      push(0, m.content.length, "unknown", `2: content[${odd}] is ${what} block`);
      continue;
    }
    const earlier = i < turnStart || m.role === "system" || (m.role === "user" && ATTACHMENT.test(firstText(m)));
    if (earlier) {
      const { kind, rule } = earlierKind(m, leading);
      push(0, m.content.length, kind, rule);
    } else currentTurnParts(m, i, push);
  }
  measure(drafts, seg, messages.length);
  return drafts;
}

/**
 * Adds to each part the tokens and bytes of its segments (a message's header segment counts with
 * its first part). This is the one place that turns segment figures into part sizes.
 */
function measure(drafts: Draft[], seg: SegmentedRequest, messages: number): void {
  const byPath = new Map<string, number>();
  // Message i's parts, by block: firstOf[i] is its first part (-1: none); parts of one message are consecutive.
  const firstOf = new Int32Array(messages).fill(-1);
  for (let k = 0; k < drafts.length; k++) {
    const d = drafts[k]!;
    if (d.messageIndex === null) byPath.set(d.path, k);
    else if (firstOf[d.messageIndex]! < 0) firstOf[d.messageIndex] = k;
  }
  // A message's segments are its header, then its blocks in order: one cursor walks its parts.
  let block = 0;
  let cursor = 0;
  const segments = seg.segments;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    let k: number | undefined;
    if (s.messageIndex === null) k = byPath.get(s.path);
    else if (s.kind === "message") {
      k = s.messageIndex < messages ? firstOf[s.messageIndex]! : -1;
      if (k < 0) continue;
      cursor = k;
      block = 0;
    } else {
      while (
        cursor + 1 < drafts.length &&
        drafts[cursor + 1]!.messageIndex === s.messageIndex &&
        drafts[cursor]!.endBlock! <= block
      )
        cursor++;
      k = cursor;
      block++;
    }
    if (k === undefined) continue;
    drafts[k]!.tokens += s.tokens;
    drafts[k]!.bytes += s.byteLength;
  }
}
