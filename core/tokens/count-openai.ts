/**
 * OpenAI counts with a tokenizer. Message framing is OpenAI's published rule (openai-cookbook,
 * "How to count tokens with tiktoken"): every message costs 3 tokens plus the tokens of its role
 * and content, a `name` 1 more plus its tokens, and the reply is primed with 3 tokens. On the
 * calibration corpus this is exact for Chat Completions and Responses alike (Responses
 * `instructions` count as a system message), except that reasoning models prime with 2.
 *
 * Function definitions follow openai-tools.ts. Tool calls, tool results, parallel calls and
 * `tool_choice: "required"` have no published rule: their constants are fitted on the corpus
 * (coefficients.ts) and their segments are marked `estimate`, as are images (the formula is
 * published, a per-image wrapper is not), PDFs, reasoning items and response schemas.
 */
import type { NormalizedRequest } from "../formats/types.ts";
import type { JsonValue, Message } from "../messages/types.ts";
import { jsonText } from "./features.ts";
import type { MediaCost } from "./media.ts";
import { currentLoopStart, type FeatureContext } from "./count-estimate.ts";
import { isOpenAIReasoningModel } from "./model-info.ts";
import { FUNCTIONS_OVERHEAD, FUNCTIONS_SYSTEM_SHARE, renderFunction, renderFunctions } from "./openai-tools.ts";
import { requestResolution, resolutionOf, responseSchemas, resultParts, serverTool } from "./segment-content.ts";
import type { SegmentWalk } from "./segment-order.ts";
import type { CountMethod, TokenNote } from "./types.ts";

/** Tokens per message, per name, and of the reply priming (cookbook rule). */
export const MESSAGE_OVERHEAD = 3;
export const NAME_OVERHEAD = 1;
export const REPLY_PRIMING = 3;
export const REPLY_PRIMING_REASONING = 2;

/** Counts of the framing events whose constants are fitted (coefficients.ts `OPENAI_FITTED_FRAMING`). */
export interface FittedEvents {
  toolCalls: number;
  parallelCalls: number;
  toolResults: number;
  toolChoiceRequired: number;
  /** Function tools with `strict: true` (structured function calling adds instructions). */
  strictTools: number;
  /** Characters of `encrypted_content` in reasoning items of the current tool loop (the reasoning is restored). */
  reasoningChars: number;
}

/** The fitted events in a fixed order (the calibration corpus stores them as an array). */
export const FITTED_EVENTS = [
  "toolCalls",
  "parallelCalls",
  "toolResults",
  "toolChoiceRequired",
  "strictTools",
  "reasoningChars",
] as const satisfies readonly (keyof FittedEvents)[];

export interface OpenAISegmentPieces {
  /** Tokens under published rules and the tokenizer. */
  fixed: number;
  /** `NO_EVENTS` (shared) until the segment has one. */
  events: FittedEvents;
  method: CountMethod;
  /** `NO_MEDIA` (shared) until the segment has some. */
  media: MediaCost[];
}

export interface OpenAIPieces {
  readonly leading: number;
  readonly leadingMethod: CountMethod;
  readonly trailing: number;
  /** Tokenizer count of each message's content (text, tool calls, tool results), by message index. */
  readonly messageContentTokens: readonly number[];
  /** The segments' notes, in segment order. */
  readonly notes: readonly TokenNote[];
  /** The request's own notes (a response schema), after the segments' in a count. */
  readonly leadingNotes: readonly TokenNote[];
  /** Index of the first system message, or -1: it takes the function definitions' padding and share. */
  readonly firstSystem: number;
  /** The current tool loop's first message (`currentLoopStart`): reasoning items count only from there. */
  readonly loopStart: number;
  /** True when a segment walked is a reasoning item in the current tool loop (it counts only there). */
  readonly loopSensitive: boolean;
}

type Obj = { readonly [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** The events of a segment with none, shared (most segments): `eventsOf` gives a segment its own. */
export const NO_EVENTS: Readonly<FittedEvents> = Object.freeze({
  toolCalls: 0,
  parallelCalls: 0,
  toolResults: 0,
  toolChoiceRequired: 0,
  strictTools: 0,
  reasoningChars: 0,
});

/** The media of a segment with none, shared. */
const NO_MEDIA: MediaCost[] = Object.freeze([]) as unknown as MediaCost[];

/** The record `openaiPieces` clears for each segment, with the events it hands a segment that has some. */
interface PiecesRecord extends OpenAISegmentPieces {
  readonly ownEvents: FittedEvents;
}

/** `p`'s events to add to: the record's own, cleared, when the segment had none yet. */
function eventsOf(p: PiecesRecord): FittedEvents {
  if (p.events !== NO_EVENTS) return p.events;
  p.events = Object.assign(p.ownEvents, NO_EVENTS);
  return p.events;
}

/** Adds `c` to `p`'s own media. */
function addMedia(p: OpenAISegmentPieces, c: MediaCost): void {
  if (p.media === NO_MEDIA) p.media = [c];
  else p.media.push(c);
}

/** The role OpenAI reads: `developer` for a system message that came in as one, else the role. */
const wireRole = (m: Message): string =>
  m.role === "system" && m.providerFields?.openai?.role === "developer" ? "developer" : m.role;

/** `tool_choice` framing: "none" 1, a named function 4 + its name; "auto" nothing (published rule). */
function toolChoicePieces(choice: JsonValue | undefined, tok: (s: string) => number, p: PiecesRecord): void {
  if (choice === "none") p.fixed += 1;
  else if (choice === "required") {
    eventsOf(p).toolChoiceRequired++;
    p.method = "estimate";
  } else if (isObj(choice)) {
    const fn = choice.function;
    const name =
      typeof choice.name === "string" ? choice.name : isObj(fn) && typeof fn.name === "string" ? fn.name : undefined;
    p.fixed += name === undefined ? tok(jsonText(choice)) : 4 + tok(name);
    p.method = "estimate";
  }
}

/**
 * The pieces of the segments `walk` places in `request` (all of them, or the segments of its
 * messages from one on: then the request-wide figures are computed as for the whole request),
 * handed to `each` one segment at a time; the request-wide figures are returned. A segment's path
 * is written only for a note on it.
 */
export function openaiPieces(
  request: NormalizedRequest,
  walk: SegmentWalk,
  tok: (text: string) => number,
  model: string,
  ctx: FeatureContext,
  /** Given each segment's pieces in walk order; `pieces` and its events are reused for the next (its media list may be kept). */
  each: (i: number, pieces: Readonly<OpenAISegmentPieces>) => void,
): OpenAIPieces {
  const notes: TokenNote[] = [];
  const resolution = resolutionOf(requestResolution(request));
  const functionTools = request.tools.filter((t) => serverTool(t) === null);
  const hasFunctions = functionTools.length > 0;
  const firstSystem = request.messages.findIndex((m) => m.role === "system");
  // The first system message gets a trailing newline when functions join it: on its last text block.
  let padBlock = -1;
  if (hasFunctions && firstSystem >= 0) {
    const content = request.messages[firstSystem]!.content;
    for (let j = content.length - 1; j >= 0; j--)
      if (content[j]!.type === "text") {
        padBlock = j;
        break;
      }
  }
  const messageContentTokens = request.messages.map(() => 0);
  // Per message: how many tool calls, and where the first call and first result sit (-1: none), read
  // in one pass when the message's first call or result is met (`scanCalls`).
  const messageCount = request.messages.length;
  const scanned = new Uint8Array(messageCount);
  const callCount = new Int32Array(messageCount);
  const firstCall = new Int32Array(messageCount);
  const firstResult = new Int32Array(messageCount);
  const scanCalls = (i: number): void => {
    if (scanned[i] === 1) return;
    scanned[i] = 1;
    let count = 0;
    let call = -1;
    let result = -1;
    const content = request.messages[i]!.content;
    for (let j = 0; j < content.length; j++) {
      const type = content[j]!.type;
      if (type === "tool_call") {
        count++;
        if (call < 0) call = j;
      } else if (type === "tool_result" && result < 0) result = j;
    }
    callCount[i] = count;
    firstCall[i] = call;
    firstResult[i] = result;
  };
  const loopStart = currentLoopStart(request);
  // Function definitions: the whole namespace is counted once (BPE merges across lines), each
  // function's own lines are counted for its segment, and the rest goes to the first one.
  // The walk lists the tools first (none when it starts at a message), so only its head is read.
  // `functionTokens`: each function's own lines, by tool index (a server tool has no entry).
  const functionTokens = new Map<number, number>();
  const functionTexts: string[] = [];
  let perFunctionSum = 0;
  for (let i = 0; i < walk.length && walk.kind(i) === "tool"; i++) {
    const tool = request.tools[walk.index(i)]!;
    if (serverTool(tool) !== null) continue;
    const text = renderFunction(tool.name, tool.description, tool.inputSchema);
    const own = tok(text);
    functionTexts.push(text);
    functionTokens.set(walk.index(i), own);
    perFunctionSum += own;
  }
  const namespaceShare = functionTexts.length > 0 ? tok(renderFunctions(functionTexts)) - perFunctionSum : 0;
  let firstFunction = true;
  let loopSensitive = false;

  // One record for every segment, cleared for each, its events too: `each` reads them before the
  // next (a segment's media list, when it has one, is its own). An object per segment, and one
  // more per segment with events, were ~7% of what counting a 5 MB request allocated.
  const p: PiecesRecord = {
    fixed: 0,
    events: NO_EVENTS,
    method: "exact",
    media: NO_MEDIA,
    ownEvents: { ...NO_EVENTS },
  };
  const segment = (i: number): void => {
    p.fixed = 0;
    p.events = NO_EVENTS;
    p.method = "exact";
    p.media = NO_MEDIA;
    const index = walk.index(i);
    switch (walk.kind(i)) {
      case "tool": {
        p.method = "estimate";
        const tool = request.tools[index]!;
        const own = functionTokens.get(index);
        if (own === undefined) {
          p.fixed += tok(jsonText(serverTool(tool)));
          notes.push({
            code: "server_tool",
            path: walk.path(i),
            message:
              "A tool OpenAI runs itself (web search, file search, MCP, …): the instructions it adds are not published and not counted; its definition is counted as JSON.",
          });
          return;
        }
        p.fixed += own;
        if (tool.providerFields?.openai?.strict === true) eventsOf(p).strictTools++;
        if (firstFunction) {
          firstFunction = false;
          p.fixed += FUNCTIONS_OVERHEAD - (firstSystem >= 0 ? FUNCTIONS_SYSTEM_SHARE : 0) + namespaceShare;
        }
        return;
      }
      case "tool_choice":
        toolChoicePieces((request.providerOptions ?? {})[walk.choiceKey], tok, p);
        return;
      case "message": {
        const m = request.messages[index]!;
        // A tool message is one wire message per result: the first one's framing sits here.
        p.fixed += MESSAGE_OVERHEAD + tok(m.role === "tool" ? "tool" : wireRole(m));
        if (m.name !== undefined) p.fixed += tok(m.name) + NAME_OVERHEAD;
        return;
      }
      case "block": {
        const message = request.messages[index]!;
        const blockIndex = walk.block(i);
        const b = message.content[blockIndex]!;
        const before = p.fixed;
        switch (b.type) {
          case "text":
            p.fixed += tok(
              index === firstSystem && blockIndex === padBlock && !b.text.endsWith("\n") ? `${b.text}\n` : b.text,
            );
            break;
          case "thinking":
            // Chat Completions takes no reasoning back. A Responses reasoning item's summary is
            // not billed; its encrypted content is, within the current tool loop (fitted per char).
            if (b.providerFields?.["openai-responses"]?.item !== undefined && index >= loopStart) {
              eventsOf(p).reasoningChars += b.signature?.length ?? 0;
              p.method = "estimate";
              loopSensitive = true;
            }
            break;
          case "tool_call": {
            p.fixed += tok(b.name) + tok(jsonText(b.arguments));
            const events = eventsOf(p);
            events.toolCalls++;
            p.method = "estimate";
            scanCalls(index);
            if (callCount[index]! > 1 && firstCall[index] === blockIndex) events.parallelCalls++;
            break;
          }
          case "tool_result": {
            const parts = resultParts(b.result);
            for (const t of parts.texts) p.fixed += tok(t);
            for (const m of parts.media) {
              const c = ctx.media(m, resolution);
              addMedia(p, c);
              p.fixed += c.tokens;
            }
            eventsOf(p).toolResults++;
            p.method = "estimate";
            // Every result after the first in one tool message is a wire message of its own.
            scanCalls(index);
            if (firstResult[index] !== blockIndex || message.role !== "tool") p.fixed += MESSAGE_OVERHEAD + tok("tool");
            break;
          }
          case "opaque":
            // Unmodelled wire content: its JSON is what the model reads; not fitted, so an estimate.
            p.fixed += tok(jsonText(b.value));
            p.method = "estimate";
            break;
          default: {
            const c = ctx.media(b, resolution);
            addMedia(p, c);
            p.fixed += c.tokens + (c.text === null ? 0 : tok(c.text));
            p.method = "estimate";
            if (c.note !== null)
              notes.push({
                code: c.tokens === 0 ? "media_not_counted" : "media_size_unknown",
                path: walk.path(i),
                message: c.note,
              });
          }
        }
        messageContentTokens[index] = messageContentTokens[index]! + (p.fixed - before);
        return;
      }
    }
  };
  for (let i = 0; i < walk.length; i++) {
    segment(i);
    each(i, p);
  }
  const schemas = responseSchemas(request);
  let leading = 0;
  for (const s of schemas) leading += tok(s);
  const leadingNotes: TokenNote[] = [];
  if (schemas.length > 0)
    leadingNotes.push({
      code: "framing_estimated",
      path: "providerOptions",
      message: "OpenAI does not publish how a response schema is shown to the model: its JSON is counted as is.",
    });
  const trailing = isOpenAIReasoningModel(model) ? REPLY_PRIMING_REASONING : REPLY_PRIMING;
  return {
    leading,
    leadingMethod: schemas.length > 0 ? "estimate" : "exact",
    trailing,
    messageContentTokens,
    notes,
    leadingNotes,
    firstSystem,
    loopStart,
    loopSensitive,
  };
}
