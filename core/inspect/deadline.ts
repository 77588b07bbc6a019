/** The template render deadline of `inspect`: its default and the check of the options that set it. */
import { InvalidInputError } from "../util/errors.ts";

/** Default `deadlineMs` of a template render in `inspect`. */
export const DEFAULT_INSPECT_DEADLINE_MS = 1_000;

export function checkDeadline(options: { readonly deadlineMs?: number; readonly clock?: () => number }): void {
  const { deadlineMs, clock } = options;
  if (deadlineMs !== undefined && (typeof deadlineMs !== "number" || !Number.isFinite(deadlineMs) || deadlineMs <= 0))
    throw new InvalidInputError("deadlineMs", `must be a positive number of milliseconds, got ${String(deadlineMs)}.`);
  if (clock !== undefined && typeof clock !== "function")
    throw new InvalidInputError("clock", "must be a function returning milliseconds (like performance.now).");
}
