import { isPlainObject } from "./plain-object.ts";

/**
 * What `value` is, for "expected X, got Y" messages: the one describer every layer uses.
 * `"detailed"` (default) also shows short values and class names — `the string "hi"`,
 * `the number 5`, `true`, `a Map` — so the message says what to fix; `"brief"` names only the kind
 * (`a string`, `a number`), for messages about data that may be secret or long.
 */
export function describeValue(value: unknown, detail: "detailed" | "brief" = "detailed"): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object": {
      if (detail === "brief" || isPlainObject(value)) return "an object";
      const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof name === "string" && name !== "" ? `a ${name}` : "a non-plain object";
    }
    case "string":
      return detail === "brief" || value.length > 40 ? "a string" : `the string ${JSON.stringify(value)}`;
    case "number":
      if (detail === "brief") return "a number";
      return Number.isFinite(value) ? `the number ${value}` : `the non-JSON number ${String(value)}`;
    case "boolean":
      return detail === "brief" ? "a boolean" : `${value}`;
    default:
      return `a ${typeof value}`;
  }
}
