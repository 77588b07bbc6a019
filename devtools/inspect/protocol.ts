import type { Settings } from "../store/settings.ts";
import type { ChunkMessage } from "./chunks.ts";

/** What the page asks the worker (or the in-page fallback) to inspect. Plain data: it crosses postMessage. */
export interface InspectJob {
  readonly input: string;
  /** Previous-turn text: a request, a fingerprint bundle as JSON, or empty. */
  readonly previous: string;
  /** The provider's response (JSON, SSE text or usage object), or empty. */
  readonly response: string;
  readonly settings: Settings;
  /**
   * Set for a report whose figures are only compared (the Budget view's chars/4 column): the worker
   * inspects once with every list whole and sends the report without its request, instead of a quick
   * first report, the request and then the whole one (two inspections and a 26 MB copy for a 20 MB chat).
   */
  readonly figuresOnly?: boolean;
}

/** An error as it crosses postMessage: class identity is lost, the fields a view shows are kept. */
export interface SerializedError {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  /** RequestFormatError issues: JSON path, message and, for syntax errors, line and column. */
  readonly issues: readonly {
    readonly code: string;
    readonly path: string;
    readonly message: string;
    readonly line?: number;
    readonly column?: number;
  }[];
  /** Formats that were tried, closest first. */
  readonly tried: readonly string[];
}

/**
 * A job, or a piece of one of its long texts sent ahead of it. Posting a 20 MB text copies it in
 * the posting task (40–70 ms of main thread): a text longer than `WHOLE_TEXT_CHARS` goes in parts
 * of `TEXT_PART_CHARS`, one per task, and the job that follows carries "" in its place (`parts`
 * names the fields).
 */
export type WorkerRequest =
  | { readonly id: number; readonly job: InspectJob; readonly parts?: readonly TextField[] }
  | { readonly id: number; readonly field: TextField; readonly part: string }
  /** The page shows job `id`'s first report: its request may come now (see `WorkerResponse`). */
  | { readonly id: number; readonly shown: true };

/** The job's fields that may be long texts. */
export type TextField = "input" | "previous" | "response";
export const TEXT_FIELDS: readonly TextField[] = ["input", "previous", "response"];

/**
 * UTF-16 units per posted part of a long text: a few milliseconds to copy. Each part waits for a
 * task of its own, and the page's other work after a paste (the large input's summary, its UTF-8
 * count) runs between them: an 18.5 MB paste took 60–150 ms to post in 1 Mi-unit parts, 26–85 ms
 * in 2 Mi-unit parts (headless Chromium).
 */
export const TEXT_PART_CHARS = 2 * 1024 * 1024;

/**
 * A text up to this many UTF-16 units goes whole, in one message, with its job. In parts, the worker
 * joins them (one more copy of the text) and each part waits for a task of its own: a 5 MB paste's
 * job reached the worker 107 ms (median) after it was posted whole against 138 ms in 2 Mi-unit parts
 * (headless Chromium, 2026-12-04). Posting 8 Mi units at once is one copy of ~16 MB in the posting
 * task; longer texts (a 20 MB paste) still go in parts.
 */
export const WHOLE_TEXT_CHARS = 8 * 1024 * 1024;

/** How long a request is, for the views that can show it before the request itself has come. */
export interface RequestCounts {
  readonly messages: number;
  readonly tools: number;
}

/**
 * One piece of a report (see chunks.ts). A long request is answered in three parts: `head`, its
 * report with every list cut to `HEAD_LIST_CAP` and without its `request` (made and shown first);
 * `request`, the normalized request itself (the bulk of a long report: 26 MB to copy for a 20 MB
 * chat, 0.2 s of structured clone split between worker and page); then `json`, the request's
 * pretty JSON in parts, and `full`, with whole lists.
 * `more` (on the head's skeleton) says a full report follows; `requestFollows` (on the head's
 * skeleton) that its request comes next, with its counts — once the page says the first report
 * is shown (`shown`): sent at once, the request's slices would sit in the page's task queue ahead
 * of the paint; `ms` (on each skeleton) is the time inspect() took in the worker. The full report comes without its `request` (null): it is the one
 * the page already has (and keeps, so views keyed on it do not start over).
 */
export type WorkerResponse =
  | {
      readonly id: number;
      readonly ok: true;
      readonly phase: "head" | "request" | "full";
      readonly chunk: ChunkMessage;
      readonly more: boolean;
      readonly ms: number;
      /** On the head: its request is left out and follows in the `request` phase. */
      readonly requestFollows?: RequestCounts;
      /** On the full report: its fingerprint segments were left out, to make from its segments (chunks.ts). */
      readonly derivedFingerprints?: true;
    }
  | {
      readonly id: number;
      readonly ok: true;
      /**
       * Before the full report: its request as pretty JSON (the Raw view's text, made off the main
       * thread), one part of about `JSON_PART_CHARS` per message, each ending a line (see `TextParts`).
       */
      readonly phase: "json";
      readonly part: string;
      /** The part's UTF-8 size, measured in the worker (the Raw view shows the JSON's size). */
      readonly bytes: number;
    }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

/**
 * Characters per part of a request's pretty JSON (see `WorkerResponse`): a few milliseconds for
 * the page to read, where the whole JSON of an 18.5 MB chat (20.6 M characters) took 130–190 ms.
 */
export const JSON_PART_CHARS = 1024 * 1024;

/** Entries each list of the first report keeps: what a view shows first, and quick to make. */
export const HEAD_LIST_CAP = 1000;

/** Thrown by the runner on the page side: carries the serialized fields. */
export class InspectFailure extends Error {
  readonly detail: SerializedError;
  constructor(detail: SerializedError) {
    super(detail.message);
    this.name = "InspectFailure";
    this.detail = detail;
  }
}

function isIssue(v: unknown): v is SerializedError["issues"][number] {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { path?: unknown }).path === "string" &&
    typeof (v as { message?: unknown }).message === "string"
  );
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof InspectFailure) return error.detail;
  if (error instanceof Error) {
    const e = error as Error & { code?: unknown; issues?: unknown; tried?: unknown };
    return {
      name: e.name,
      code: typeof e.code === "string" ? e.code : "internal_error",
      message: e.message,
      issues: Array.isArray(e.issues)
        ? e.issues.filter(isIssue).map((i) => ({
            code: typeof i.code === "string" ? i.code : "invalid",
            path: i.path,
            message: i.message,
            ...(typeof i.line === "number" ? { line: i.line } : {}),
            ...(typeof i.column === "number" ? { column: i.column } : {}),
          }))
        : [],
      tried: Array.isArray(e.tried) ? e.tried.filter((t): t is string => typeof t === "string") : [],
    };
  }
  return { name: "Error", code: "internal_error", message: String(error), issues: [], tried: [] };
}
