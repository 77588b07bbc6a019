import { create } from "zustand";
import type { SessionFingerprints, SessionReport } from "../../core/session/index.ts";

/** Where the loaded session came from. */
export type SessionSource =
  | { readonly kind: "file"; readonly name: string; readonly file: Blob }
  | { readonly kind: "sample"; readonly name: string; readonly file: Blob }
  | { readonly kind: "share"; readonly name: string };

export interface SessionProgress {
  /** UTF-8 bytes read so far, of `total`. */
  readonly bytes: number;
  readonly total: number;
  readonly records: number;
  readonly turns: number;
  readonly skipped: number;
}

/** The Session view's state: what was loaded, how far reading is, and the report (plus UI selection). */
export interface SessionState {
  readonly status: "empty" | "loading" | "ready" | "error";
  readonly source: SessionSource | null;
  readonly progress: SessionProgress | null;
  readonly report: SessionReport | null;
  /** The hash-only form of the session, for a share link (null for a session opened from a link). */
  readonly fingerprints: SessionFingerprints | null;
  readonly error: string | null;
  /** Bumped on every load, so a late result of an earlier load is ignored. */
  readonly revision: number;
  readonly thread: string | null;
}

export const initialSessionState = (): SessionState => ({
  status: "empty",
  source: null,
  progress: null,
  report: null,
  fingerprints: null,
  error: null,
  revision: 0,
  thread: null,
});

export const useSession = create<SessionState>()(() => initialSessionState());
