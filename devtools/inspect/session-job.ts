import { zodJitless } from "../csp.ts"; // first: the session readers build zod schemas
import {
  createSessionInspector,
  createSessionReader,
  fromSessionFingerprints,
  inspectSession,
  type SessionFingerprints,
  type SessionReport,
} from "../../core/session/index.ts";
import type { SessionProgress } from "../store/session.ts";

/** What the page asks the worker (or the in-page fallback) to do with a session. Plain data: it crosses postMessage. */
export type SessionJob =
  /** Read and inspect a session file (HAR, JSONL, JSON). */
  | { readonly kind: "inspect"; readonly file: Blob }
  /** Inspect a hash-only session (from a share link). */
  | { readonly kind: "fingerprints"; readonly fingerprints: unknown }
  /** The recorded request bodies of some entries (by index), to open a turn in the request views. */
  | { readonly kind: "bodies"; readonly file: Blob; readonly entries: readonly number[] };

export type SessionJobResult =
  | { readonly kind: "inspect"; readonly report: SessionReport; readonly fingerprints: SessionFingerprints | null }
  | { readonly kind: "bodies"; readonly bodies: Readonly<Record<number, string>> };

/** Progress is reported at most this often (ms), and at the end. */
const PROGRESS_EVERY = 100;

/** A file's text in pieces, with the bytes read so far: memory holds one piece at a time. */
async function readPieces(file: Blob, onPiece: (text: string, bytes: number) => void): Promise<void> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder("utf-8");
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    onPiece(decoder.decode(value, { stream: true }), bytes);
  }
  const tail = decoder.decode();
  if (tail !== "") onPiece(tail, bytes);
}

/** True when zod compiles no parsers (the page's CSP forbids eval); checked by the worker's caller. */
export const sessionJobJitless = zodJitless;

/** Runs one session job. Used by the worker and, where workers are unavailable (tests), in the page. */
export async function runSessionJob(
  job: SessionJob,
  onProgress: (progress: SessionProgress) => void = () => {},
): Promise<SessionJobResult> {
  if (job.kind === "fingerprints") {
    return { kind: "inspect", report: inspectSession(fromSessionFingerprints(job.fingerprints)), fingerprints: null };
  }
  if (job.kind === "bodies") {
    const wanted = new Set(job.entries);
    const reader = createSessionReader({ bodies: (i) => wanted.has(i) });
    const bodies: Record<number, string> = {};
    const take = (items: ReturnType<typeof reader.push>) => {
      for (const it of items)
        if (it.kind === "entry" && it.entry.body !== undefined) bodies[it.entry.index] = it.entry.body;
    };
    await readPieces(job.file, (text) => take(reader.push(text)));
    take(reader.end());
    return { kind: "bodies", bodies };
  }
  const inspector = createSessionInspector({ fingerprints: true });
  const total = job.file.size;
  let last = 0;
  await readPieces(job.file, (text, bytes) => {
    inspector.push(text);
    const now = performance.now();
    if (now - last >= PROGRESS_EVERY) {
      last = now;
      onProgress({ bytes, total, ...inspector.progress });
    }
  });
  const report = inspector.finish();
  onProgress({ bytes: total, total, ...inspector.progress });
  return { kind: "inspect", report, fingerprints: inspector.fingerprints() };
}
