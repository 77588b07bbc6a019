/**
 * What the Session view does: load a file (read in the inspect worker, entry by entry, with
 * progress), open a hash-only session, open a turn and its predecessor in the request views, and
 * export. The store holds the result; the view draws it.
 */
import { sessionReportCsv, type SessionReport, type SessionTurn } from "../../../core/session/index.ts";
import { InspectFailure } from "../../inspect/protocol.ts";
import type { SessionJob } from "../../inspect/session-job.ts";
import { getSessionRunner } from "../../inspect/session-runner.ts";
import { useInput } from "../../store/input.ts";
import { type SessionSource, useSession } from "../../store/session.ts";

let current: AbortController | null = null;

const message = (error: unknown) =>
  error instanceof InspectFailure || error instanceof Error ? error.message : String(error);

async function run(source: SessionSource, job: SessionJob): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const revision = useSession.getState().revision + 1;
  const size = "file" in source ? source.file.size : 0;
  useSession.setState({
    status: "loading",
    source,
    report: null,
    fingerprints: null,
    error: null,
    revision,
    thread: null,
    progress: { bytes: 0, total: size, records: 0, turns: 0, skipped: 0 },
  });
  const mine = () => useSession.getState().revision === revision;
  try {
    const result = await getSessionRunner()(
      job,
      (progress) => {
        if (mine()) useSession.setState({ progress });
      },
      controller.signal,
    );
    if (!mine() || result.kind !== "inspect") return;
    useSession.setState({
      status: "ready",
      report: result.report,
      fingerprints: result.fingerprints,
      thread: result.report.threads[0]?.id ?? null,
    });
  } catch (error) {
    if (!mine() || (error instanceof DOMException && error.name === "AbortError")) return;
    useSession.setState({ status: "error", error: message(error) });
  } finally {
    if (current === controller) current = null;
  }
}

/** Reads and inspects a session file (HAR, JSONL, JSON). */
export const loadSessionFile = (file: Blob, name: string, kind: "file" | "sample" = "file"): Promise<void> =>
  run({ kind, name, file }, { kind: "inspect", file });

/** Inspects a hash-only session (from a share link); it is checked field by field on the way in. */
export const loadSessionFingerprints = (fingerprints: unknown, name = "hash-only share link"): Promise<void> =>
  run({ kind: "share", name }, { kind: "fingerprints", fingerprints });

/** A name for a session file: .har, .jsonl (and a .json that is an array or a HAR). */
export const isSessionFileName = (name: string) => /\.(har|jsonl|ndjson)$/i.test(name);

export type OpenResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Loads a turn into the Request slot and its predecessor in the thread into the Previous-turn slot
 * (the first turn clears it): the pair, for Cache prefix to compare as two requests.
 */
export async function openTurn(report: SessionReport, threadId: string, turnNumber: number): Promise<OpenResult> {
  const thread = report.threads.find((t) => t.id === threadId);
  const turn: SessionTurn | undefined = thread?.turns[turnNumber - 1];
  if (!thread || !turn) return { ok: false, reason: `There is no turn ${turnNumber} in thread ${threadId}.` };
  const source = useSession.getState().source;
  if (!source || source.kind === "share")
    return {
      ok: false,
      reason: "A hash-only session carries no request text: open the session file itself to see a turn's requests.",
    };
  const previous = turn.previous ? thread.turns[turn.previous.turn - 1] : undefined;
  const entries = [turn.entry, ...(previous ? [previous.entry] : [])];
  let bodies: Readonly<Record<number, string>>;
  try {
    const result = await getSessionRunner()({ kind: "bodies", file: source.file, entries }, () => {});
    if (result.kind !== "bodies") return { ok: false, reason: "The worker answered with something else." };
    bodies = result.bodies;
  } catch (error) {
    return { ok: false, reason: `The requests could not be read again: ${message(error)}` };
  }
  const body = bodies[turn.entry];
  if (body === undefined) return { ok: false, reason: `${turn.at} is no longer in ${source.name}.` };
  const label = (t: SessionTurn) => `session ${source.name}: ${threadId} turn ${t.turn} (${t.at})`;
  const input = useInput.getState();
  if (previous && bodies[previous.entry] !== undefined)
    input.setText("previous", bodies[previous.entry]!, label(previous));
  else input.setText("previous", "", "");
  useInput.getState().setText("current", body, label(turn));
  return { ok: true };
}

/** Saves text as a file through a blob link (nothing leaves the page). */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const stem = (name: string) => name.replace(/\.[^.]*$/, "") || "session";

export const exportJson = (report: SessionReport, name: string) =>
  download(`${stem(name)}.session-report.json`, "application/json", `${JSON.stringify(report, null, 2)}\n`);

export const exportCsv = (report: SessionReport, name: string) =>
  download(`${stem(name)}.session-report.csv`, "text/csv", sessionReportCsv(report));
