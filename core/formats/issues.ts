/**
 * zod issues → `RequestFormatIssue`s that say where (a JSON path) and what was expected.
 * `zod/mini` ships no messages ("Invalid input"), so we write our own from the issue data.
 */
import type { RequestFormatIssue } from "./errors.ts";
import { describeValue } from "../util/describe.ts";
import { formatPath, type PathSegment, valueAt } from "../util/paths.ts";

/** The parts of a zod v4 issue we read (structurally typed, so no zod internals leak). */
interface ZodIssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly expected?: string;
  readonly values?: readonly unknown[];
  readonly options?: readonly unknown[];
  readonly discriminator?: string;
  readonly errors?: readonly (readonly ZodIssueLike[])[];
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly origin?: string;
  readonly keys?: readonly string[];
  readonly message?: string;
}

const toSegments = (path: readonly PropertyKey[]): PathSegment[] =>
  path.map((p) => (typeof p === "number" ? p : String(p)));

const EXPECTED_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
  int: "an integer",
};

function expectedWords(expected: string | undefined): string {
  return (expected && EXPECTED_WORDS[expected]) ?? expected ?? "a different value";
}

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

function deepest(issues: readonly ZodIssueLike[]): number {
  let max = -1;
  for (const i of issues) max = Math.max(max, i.path.length + (i.code === "invalid_union" && i.errors ? 1 : 0));
  return max;
}

/** Flattens one zod issue into one or more located issues against the original `input`. */
function convert(issue: ZodIssueLike, base: readonly PathSegment[], input: unknown, out: RequestFormatIssue[]): void {
  const segs = [...base, ...toSegments(issue.path)];
  const path = formatPath(segs);
  const actual = valueAt(input, segs);
  const got = describeValue(actual);
  switch (issue.code) {
    case "invalid_type": {
      if (actual === undefined) {
        out.push({
          code: "missing_field",
          path,
          message: `${path || "the request"} is required (expected ${expectedWords(issue.expected)})`,
        });
      } else {
        out.push({ code: "invalid_type", path, message: `expected ${expectedWords(issue.expected)}, got ${got}` });
      }
      return;
    }
    case "invalid_value":
      out.push({
        code: "invalid_value",
        path,
        message: `expected ${issue.values && issue.values.length === 1 ? "" : "one of "}${list(issue.values ?? [])}, got ${got}`,
      });
      return;
    case "invalid_union": {
      if (issue.discriminator !== undefined) {
        // zod puts the discriminator key in the issue path already.
        out.push({
          code: actual === undefined ? "missing_field" : "invalid_value",
          path,
          message:
            actual === undefined
              ? `${path} is required (one of ${list(issue.options ?? [])})`
              : `expected one of ${list(issue.options ?? [])}, got ${got}`,
        });
        return;
      }
      const branches = issue.errors ?? [];
      // All branches rejected the value itself: say which types would do.
      if (
        branches.length > 0 &&
        branches.every((b) => b.length === 1 && b[0]!.path.length === 0 && b[0]!.code === "invalid_type")
      ) {
        const kinds = [...new Set(branches.map((b) => expectedWords(b[0]!.expected)))];
        out.push({
          code: actual === undefined ? "missing_field" : "invalid_type",
          path,
          message:
            actual === undefined
              ? `${path || "the request"} is required (expected ${kinds.join(" or ")})`
              : `expected ${kinds.join(" or ")}, got ${got}`,
        });
        return;
      }
      // Otherwise report the branch that got furthest (deepest path, then fewest issues).
      let best: readonly ZodIssueLike[] | undefined;
      for (const b of branches) {
        if (!best || deepest(b) > deepest(best) || (deepest(b) === deepest(best) && b.length < best.length)) best = b;
      }
      if (!best || best.length === 0) {
        out.push({ code: "invalid_value", path, message: `no accepted shape matches ${got}` });
        return;
      }
      for (const inner of best) convert(inner, segs, input, out);
      return;
    }
    case "too_small":
      out.push({
        code: "too_small",
        path,
        message:
          issue.origin === "array"
            ? `expected at least ${String(issue.minimum)} item(s), got ${Array.isArray(actual) ? actual.length : got}`
            : issue.origin === "string"
              ? `expected at least ${String(issue.minimum)} character(s)`
              : `expected a value ≥ ${String(issue.minimum)}, got ${got}`,
      });
      return;
    case "too_big":
      out.push({
        code: "too_big",
        path,
        message: `expected at most ${String(issue.maximum)}${issue.origin === "array" ? " item(s)" : ""}, got ${got}`,
      });
      return;
    case "unrecognized_keys":
      out.push({ code: "unknown_field", path, message: `unknown field(s) ${list(issue.keys ?? [])}` });
      return;
    default:
      out.push({
        code: issue.code,
        path,
        message: issue.message && issue.message !== "Invalid input" ? issue.message : `invalid value: got ${got}`,
      });
  }
}

/** Converts every zod issue, located against the value that was parsed. */
export function fromZodIssues(
  issues: readonly object[],
  input: unknown,
  base: readonly PathSegment[] = [],
): RequestFormatIssue[] {
  const out: RequestFormatIssue[] = [];
  for (const issue of issues) convert(issue as ZodIssueLike, base, input, out);
  return out;
}

/** `path: message` lines for an error message, at most `max` of them. */
export function summarizeIssues(issues: readonly RequestFormatIssue[], max = 8): string {
  const shown = issues.slice(0, max).map((i) => `${i.path || "(request)"}: ${i.message}`);
  if (issues.length > max) shown.push(`… and ${issues.length - max} more`);
  return shown.join("; ");
}
