/**
 * Reference section builders about tools. Each returns a string body the caller wraps
 * as a `BudgetedSection`; empty input gives "" (no dangling heading). Text is fixed English,
 * deterministic, and every caller-supplied value is flattened to one line.
 */
import { InvalidInputError } from "../util/errors.ts";
import type { ResolvedGuidance } from "./guidance.ts";
import { bulletSection, oneLine, plural, truncate } from "./sections-text.ts";

/** How many recent tool errors `buildRecentToolErrorsSection` shows by default (the most recent ones). */
export const DEFAULT_RECENT_TOOL_ERRORS_LIMIT = 5;
/** Longest error message shown, in UTF-16 code units; longer ones end in "…". */
export const DEFAULT_TOOL_ERROR_MESSAGE_CHARS = 300;

/** A tool already tried this turn: a name, or details. */
export type ExhaustedTool = string | { readonly name: string; readonly attempts?: number; readonly lastError?: string };

export interface RecentToolErrorEntry {
  readonly toolName: string;
  readonly message: string;
  readonly callId?: string;
}

export interface RecentToolErrorsOptions {
  /** Show at most this many of the most recent errors. Default `DEFAULT_RECENT_TOOL_ERRORS_LIMIT`. */
  readonly limit?: number;
  /** Cut each message to this many chars. Default `DEFAULT_TOOL_ERROR_MESSAGE_CHARS`. */
  readonly maxMessageChars?: number;
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (k !== "" && !seen.has(k)) {
      seen.add(k);
      out.push(item);
    }
  }
  return out;
}

function checkCount(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw new InvalidInputError(field, `must be a non-negative integer, got ${String(value)}.`);
  return value;
}

/** "Tools you've already tried this turn" recap. Names are deduplicated (first occurrence wins). */
export function buildExhaustedToolsSection(tools: readonly ExhaustedTool[]): string {
  const named = uniqueBy(
    tools.map((tool) => (typeof tool === "string" ? { name: tool } : tool)),
    (tool) => oneLine(tool.name),
  );
  const lines = named.map((tool) => {
    const details: string[] = [];
    if (tool.attempts !== undefined) details.push(plural(tool.attempts, "attempt"));
    if (tool.lastError !== undefined && oneLine(tool.lastError) !== "") {
      details.push(`last error: ${truncate(oneLine(tool.lastError), DEFAULT_TOOL_ERROR_MESSAGE_CHARS)}`);
    }
    return details.length === 0 ? oneLine(tool.name) : `${oneLine(tool.name)} (${details.join("; ")})`;
  });
  return bulletSection("Tools you've already tried this turn:", lines, [
    "Don't call them again with the same arguments: change the arguments, use another tool, or answer with what you have.",
  ]);
}

/** Guidance per tool, in the order given; tools whose resolved text is empty are left out. */
export function buildToolGuidanceSection(guidance: readonly ResolvedGuidance[]): string {
  const lines = guidance
    .filter((entry) => entry.text !== "")
    .map((entry) => `${oneLine(entry.toolName)}: ${entry.text.split("\n").join("\n  ")}`);
  return bulletSection("Tool guidance:", lines);
}

/**
 * The most recent tool errors, oldest first, bounded by `limit` (default 5); when older errors
 * are left out a final line says how many. Messages are flattened to one line and cut to
 * `maxMessageChars`.
 */
export function buildRecentToolErrorsSection(
  errors: readonly RecentToolErrorEntry[],
  options: RecentToolErrorsOptions = {},
): string {
  const limit = checkCount(options.limit, DEFAULT_RECENT_TOOL_ERRORS_LIMIT, "options.limit");
  const maxChars = checkCount(options.maxMessageChars, DEFAULT_TOOL_ERROR_MESSAGE_CHARS, "options.maxMessageChars");
  const shown = limit === 0 ? [] : errors.slice(-limit);
  const lines = shown.map((error) => {
    const where =
      error.callId === undefined ? oneLine(error.toolName) : `${oneLine(error.toolName)} (${oneLine(error.callId)})`;
    const message = truncate(oneLine(error.message), maxChars);
    return message === "" ? `${where}: failed` : `${where}: ${message}`;
  });
  const omitted = errors.length - shown.length;
  return bulletSection(
    "Recent tool errors (oldest first):",
    lines,
    omitted > 0 ? [`(${plural(omitted, "earlier error")} not shown)`] : [],
  );
}

/** "The user asked for these tools" recap. Names are deduplicated, order kept. */
export function buildUserRequestedToolsSection(tools: readonly string[]): string {
  const names = uniqueBy(tools.map(oneLine), (name) => name);
  return bulletSection("The user asked you to use these tools:", names, [
    "Use them for this request where they apply; if one can't help, say why.",
  ]);
}

/**
 * Chars the tool-guidance section will add for this guidance: exactly the length of
 * `buildToolGuidanceSection(guidance)`, the unit the composer's budget counts.
 */
export function estimateGuidanceChars(guidance: ResolvedGuidance | readonly ResolvedGuidance[]): number {
  return buildToolGuidanceSection(Array.isArray(guidance) ? guidance : [guidance as ResolvedGuidance]).length;
}
