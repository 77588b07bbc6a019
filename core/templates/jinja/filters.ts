/**
 * Size predictions for the operations whose output can dwarf their input: `replace` (filter
 * and method), `indent`, `join`, `tojson` / `string` and printing of lists and dicts. Each is
 * checked BEFORE the library builds the string, so `'x' | replace('', big)` fails at once
 * instead of allocating gigabytes. The library still does the actual work.
 */
import type { RenderGuard } from "./guard.ts";
import type { RuntimeValue, Value } from "./values.ts";
import { asValue, isContainer, isList, isMapping, isString, measurePrinted, sameKind, sortedCopy } from "./values.ts";

export interface FilterArgs {
  positional: RuntimeValue[];
  keyword: Map<string, RuntimeValue>;
}

/** Filters whose output size is predicted before they run. */
export const PREDICTED_FILTERS: ReadonlySet<string> = new Set([
  "replace",
  "indent",
  "join",
  "tojson",
  "string",
  "sort",
  "dictsort",
]);

function countOccurrences(subject: string, needle: string, max: number): number {
  if (needle === "") {
    let codePoints = 0;
    for (let i = 0; i < subject.length; i++) {
      const code = subject.charCodeAt(i);
      if (code < 0xd800 || code > 0xdbff || (subject.charCodeAt(i + 1) & 0xfc00) !== 0xdc00) codePoints++;
    }
    return Math.min(max, codePoints + 1);
  }
  let n = 0;
  for (let at = subject.indexOf(needle); at >= 0 && n < max; at = subject.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Checks the size `subject.replace(old, new, count)` would have. */
export function checkReplace(guard: RenderGuard, subject: string, args: readonly RuntimeValue[]): void {
  const [oldValue, newValue, third] = args.map(asValue);
  if (oldValue === undefined || newValue === undefined || !isString(oldValue) || !isString(newValue)) return;
  let count: Value | undefined = third;
  if (count !== undefined && isMapping(count)) count = count.value.get("count") as Value | undefined;
  const max =
    count?.type === "IntegerValue" && (count.value as number) >= 0 ? (count.value as number) : Number.POSITIVE_INFINITY;
  guard.charge(subject.length >>> 6);
  const growth = newValue.value.length - oldValue.value.length;
  if (growth <= 0) return;
  guard.checkBuilt(subject.length + countOccurrences(subject, oldValue.value, max) * growth, "replace()");
}

const argument = (args: FilterArgs, index: number, name: string): Value | undefined => {
  const value = args.positional[index] ?? args.keyword.get(name);
  return value === undefined ? undefined : asValue(value);
};

/** Checks (and charges) printing a list or dict: `{{ value }}`, `~`, `string`, `tojson`. */
export function checkPrinted(
  guard: RenderGuard,
  value: Value,
  what: string,
  options?: Parameters<typeof measurePrinted>[2],
): number {
  const { bound, work } = measurePrinted(value, guard.shapes, options);
  guard.charge(work);
  guard.checkBuilt(bound, what);
  return bound;
}

/**
 * Units for reading a value through: its items at every depth and one per 64 characters
 * (memoized per container, so a list used in a loop is measured once but charged every time).
 */
export function deepWork(guard: RenderGuard, value: Value): number {
  if (isString(value)) return 1 + (value.value.length >>> 6);
  if (!isContainer(value)) return 1;
  return measurePrinted(value, guard.shapes).work;
}

/**
 * A comparison sort of a list or dict: n·log2(n) comparisons, each of which may read (and the
 * library lower-cases) both strings: every string is read about 2·log2(n) times.
 */
export function sortWork(guard: RenderGuard, operand: Value): number {
  const n = isList(operand) ? operand.value.length : isMapping(operand) ? operand.value.size : 0;
  if (n < 2) return n;
  const rounds = Math.ceil(Math.log2(n + 1));
  let chars = 0;
  if (isList(operand)) {
    for (const item of operand.value) {
      const v = asValue(item);
      chars += isString(v) ? v.value.length : isContainer(v) ? measurePrinted(v, guard.shapes).bound : 0;
    }
  } else if (isMapping(operand)) {
    for (const [key, item] of operand.value) {
      const v = asValue(item);
      chars += key.length + (isString(v) ? v.value.length : 0);
    }
  }
  return n * rounds + 2 * rounds * (chars >>> 6);
}

function itemLength(guard: RenderGuard, item: Value): number {
  if (isString(item)) return item.value.length;
  if (isContainer(item)) return checkPrinted(guard, item, "join()");
  return String(item.value).length;
}

/**
 * Checks a predicted filter's output size; returns the operand and arguments to run it with
 * (`tojson(sort_keys=true)` gets a key-sorted copy: the library sorts with the host locale).
 */
export function planFilter(
  guard: RenderGuard,
  name: string,
  operand: Value,
  args: FilterArgs,
): { operand: Value; args: FilterArgs } {
  switch (name) {
    case "replace":
      if (isString(operand)) {
        const count = args.positional[2] ?? args.keyword.get("count");
        checkReplace(
          guard,
          operand.value,
          [args.positional[0], args.positional[1], count].filter((v) => v !== undefined),
        );
      }
      break;
    case "indent": {
      const width = argument(args, 0, "width");
      if (isString(operand)) {
        const w =
          width === undefined
            ? 4
            : isString(width)
              ? width.value.length
              : width.type === "IntegerValue"
                ? (width.value as number)
                : 0;
        let lines = 1;
        for (let at = operand.value.indexOf("\n"); at >= 0; at = operand.value.indexOf("\n", at + 1)) lines++;
        guard.checkBuilt(operand.value.length + lines * Math.max(0, w), "indent()");
      }
      break;
    }
    case "join": {
      const separator = argument(args, 0, "separator");
      const sep = separator !== undefined && isString(separator) ? separator.value.length : 0;
      if (isList(operand)) {
        let total = Math.max(0, operand.value.length - 1) * sep;
        for (const item of operand.value) total += itemLength(guard, asValue(item));
        guard.checkBuilt(total, "join()");
      } else if (isString(operand)) {
        guard.checkBuilt(operand.value.length * (1 + sep), "join()");
      }
      break;
    }
    case "tojson": {
      const indent = args.keyword.get("indent");
      const ascii = args.keyword.get("ensure_ascii");
      const separators = args.keyword.get("separators");
      let separator = 2;
      if (separators !== undefined && isList(asValue(separators))) {
        for (const s of (asValue(separators).value as RuntimeValue[]).map(asValue))
          if (isString(s)) separator = Math.max(separator, s.value.length);
      }
      checkPrinted(guard, operand, "tojson", {
        indent:
          indent !== undefined && asValue(indent).type === "IntegerValue"
            ? Math.max(0, asValue(indent).value as number)
            : 0,
        ascii: ascii !== undefined && asValue(ascii).value === true,
        separator,
      });
      const sortKeys = args.keyword.get("sort_keys");
      if (sortKeys !== undefined && asValue(sortKeys).value === true) {
        const keyword = new Map(args.keyword);
        keyword.set("sort_keys", sameKind(asValue(sortKeys), false));
        return { operand: asValue(sortedCopy(operand, guard.shapes)), args: { positional: args.positional, keyword } };
      }
      break;
    }
    case "string":
      if (isContainer(operand)) checkPrinted(guard, operand, "string");
      break;
    case "sort":
    case "dictsort":
      guard.charge(sortWork(guard, operand));
      break;
  }
  return { operand, args };
}
