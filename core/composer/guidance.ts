/**
 * The guidance registry: text attached to tools by name glob, resolved per tool and
 * rendered by `buildToolGuidanceSection` (sections-tools.ts).
 */
import { InvalidInputError } from "../util/errors.ts";
import { matchGlob } from "../util/glob.ts";

/** Where an entry's text goes relative to the tool's base guidance. */
export const GUIDANCE_MATCH_MODES = ["prefix", "suffix"] as const;
export type GuidanceMatchMode = (typeof GUIDANCE_MATCH_MODES)[number];

export interface GuidanceEntry {
  /** `toolName` is a glob: `search_*`, `*_v?`, `*`, or an exact name. */
  readonly match: { readonly toolName: string };
  readonly mode: GuidanceMatchMode;
  readonly text: string;
}

export interface GuidanceRegistry {
  /** The entries, in registration order. */
  readonly entries: readonly GuidanceEntry[];
  /** Entries whose glob matches `toolName`, in registration order. */
  match(toolName: string): readonly GuidanceEntry[];
}

export interface ResolveGuidanceParams {
  readonly registry: GuidanceRegistry;
  readonly toolName: string;
  /** The tool's own guidance, placed between the prefix and suffix texts. */
  readonly base?: string;
}

export interface ResolvedGuidance {
  readonly toolName: string;
  /** Prefix texts, then `base`, then suffix texts, joined with "\n"; "" when nothing applies. */
  readonly text: string;
  readonly prefix: readonly string[];
  readonly suffix: readonly string[];
  /** Every entry that matched, in registration order. */
  readonly matched: readonly GuidanceEntry[];
}

function checkEntry(entry: GuidanceEntry, index: number): GuidanceEntry {
  const at = `entries[${index}]`;
  if (entry === null || typeof entry !== "object") {
    throw new InvalidInputError(at, 'expected { match: { toolName: "search_*" }, mode: "prefix" | "suffix", text }.');
  }
  const pattern: unknown = entry.match?.toolName;
  if (typeof pattern !== "string" || pattern === "") {
    throw new InvalidInputError(`${at}.match.toolName`, 'must be a non-empty tool name or glob such as "search_*".');
  }
  if (!(GUIDANCE_MATCH_MODES as readonly unknown[]).includes(entry.mode)) {
    throw new InvalidInputError(
      `${at}.mode`,
      `must be "prefix" or "suffix", got ${JSON.stringify(entry.mode) ?? "undefined"}.`,
    );
  }
  if (typeof entry.text !== "string") throw new InvalidInputError(`${at}.text`, "must be a string.");
  return { match: { toolName: pattern }, mode: entry.mode, text: entry.text };
}

/** An immutable registry; entries are validated and copied. */
export function createGuidanceRegistry(entries: readonly GuidanceEntry[]): GuidanceRegistry {
  if (!Array.isArray(entries)) throw new InvalidInputError("entries", "expected an array of guidance entries.");
  const checked = Object.freeze(entries.map(checkEntry));
  return Object.freeze({
    entries: checked,
    match: (toolName: string) => checked.filter((entry) => matchGlob(entry.match.toolName, toolName)),
  });
}

/** Appends `text` to `list` unless empty or already there (`seen` holds the list's texts: linear in the entries). */
function pushUnique(list: string[], seen: Set<string>, text: string): void {
  if (text === "" || seen.has(text)) return;
  seen.add(text);
  list.push(text);
}

/**
 * The guidance for one tool. When several entries match, all of them apply: prefix texts in
 * registration order, then `base`, then suffix texts in registration order. Empty texts are
 * skipped and a text repeated within the prefix (or suffix) group is kept once.
 */
export function resolveGuidance(params: ResolveGuidanceParams): ResolvedGuidance {
  if (params === null || typeof params !== "object")
    throw new InvalidInputError("params", "must be { registry, toolName, base? }.");
  const { registry, toolName, base } = params;
  if (registry === null || typeof registry !== "object" || typeof registry.match !== "function") {
    throw new InvalidInputError("registry", "must be a registry from createGuidanceRegistry(entries).");
  }
  if (typeof toolName !== "string") throw new InvalidInputError("toolName", "must be a string.");
  if (base !== undefined && typeof base !== "string") throw new InvalidInputError("base", "must be a string.");
  const matched = registry.match(toolName);
  const prefix: string[] = [];
  const suffix: string[] = [];
  const seenPrefix = new Set<string>();
  const seenSuffix = new Set<string>();
  for (const entry of matched)
    if (entry.mode === "prefix") pushUnique(prefix, seenPrefix, entry.text);
    else pushUnique(suffix, seenSuffix, entry.text);
  const parts = base === undefined || base === "" ? [...prefix, ...suffix] : [...prefix, base, ...suffix];
  return { toolName, text: parts.join("\n"), prefix, suffix, matched };
}
