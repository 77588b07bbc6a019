/**
 * "Previous turn" and "next turn" of the request under study, for the cache comparison: core's
 * `simulateAdjacentTurn` builds them (the same turn rules as `simulateNextTurn`), in the format
 * the request was pasted in; this file only turns the result into text or a reason.
 */
import { simulateAdjacentTurn, type InspectionReport } from "../../core/inspect/index.ts";

export type TurnResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

function adjacentText(direction: "previous" | "next", report: InspectionReport, currentJson: unknown): TurnResult {
  if (typeof currentJson !== "object" || currentJson === null)
    return { ok: false, reason: "The input is not a JSON object." };
  try {
    const turn = simulateAdjacentTurn(currentJson, { direction, format: report.format });
    return { ok: true, text: JSON.stringify(turn.request, null, 2) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** The request one turn later: this turn's reply and a placeholder next input appended. */
export const nextTurnText = (report: InspectionReport, currentJson: unknown): TurnResult =>
  adjacentText("next", report, currentJson);

/** The request one turn earlier: everything from the last assistant reply on removed. */
export const previousTurnText = (report: InspectionReport, currentJson: unknown): TurnResult =>
  adjacentText("previous", report, currentJson);
