import type { Settings } from "../store/settings.ts";

/** What the page asks the worker (or the in-page fallback) to inspect. Plain data: it crosses postMessage. */
export interface InspectJob {
  readonly input: string;
  /** Previous-turn text: a request, a fingerprint bundle as JSON, or empty. */
  readonly previous: string;
  /** The provider's response (JSON, SSE text or usage object), or empty. */
  readonly response: string;
  readonly settings: Settings;
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

export type WorkerRequest = { readonly id: number; readonly job: InspectJob };
export type WorkerResponse =
  | { readonly id: number; readonly ok: true; readonly report: unknown; readonly ms: number }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

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
