/**
 * What a template may see of the caller's arguments: JSON-like data only, converted into the
 * library's Map-backed runtime values. Functions, symbols, class instances, cycles and non-finite numbers are
 * rejected with the argument's path, so no host object, prototype or function ever reaches the
 * template (the library would otherwise wrap a function into something a template can call).
 */
import { Environment } from "./vendor/huggingface-jinja.js";
import { InvalidInputError } from "../../util/errors.ts";
import { joinPath } from "../../util/paths.ts";
import { describeValue } from "../../util/describe.ts";
import { isDate, isPlainObject } from "../../util/plain-object.ts";
import type { RuntimeValue, Value } from "./values.ts";
import { asValue } from "./values.ts";

/**
 * The library's value classes, taken from a converted sample (the package exports none): args
 * are checked and turned into runtime values in one pass, exactly as `Environment.set` would
 * convert the checked copy, without building that copy.
 */
interface ValueClasses {
  readonly string: new (value: string) => RuntimeValue;
  readonly integer: new (value: number) => RuntimeValue;
  readonly float: new (value: number) => RuntimeValue;
  readonly boolean: new (value: boolean) => RuntimeValue;
  readonly null: new () => RuntimeValue;
  readonly array: new (value: RuntimeValue[]) => RuntimeValue;
  readonly object: new (value: Map<string, RuntimeValue>) => RuntimeValue;
}

let classes: ValueClasses | undefined;

export function valueClasses(): ValueClasses {
  if (classes !== undefined) return classes;
  const sample = asValue(new Environment().set("sample", { s: "", i: 1, f: 0.5, b: true, n: null, a: [] }));
  const of = (key: string) =>
    (sample.value as Map<string, Value>).get(key)!.constructor as new (
      value?: unknown,
    ) => RuntimeValue;
  classes = {
    string: of("s"),
    integer: of("i"),
    float: of("f"),
    boolean: of("b"),
    null: of("n"),
    array: of("a"),
    object: sample.constructor as ValueClasses["object"],
  };
  return classes;
}

/** Where the conversion is: the root's name and the keys below it (the path string is built only for an error). */
interface Walk {
  readonly root: string;
  readonly keys: (string | number)[];
  /** The containers being converted, outermost first (a cycle returns to one of them). */
  readonly open: object[];
  readonly maxDepth: number;
  readonly kinds: ValueClasses;
}

const pathOf = (walk: Walk): string => walk.keys.reduce<string>((path, key) => joinPath(path, key), walk.root);

function convert(value: unknown, depth: number, walk: Walk): RuntimeValue | undefined {
  const kinds = walk.kinds;
  switch (typeof value) {
    case "string":
      return new kinds.string(value);
    case "boolean":
      return new kinds.boolean(value);
    case "number":
      if (!Number.isFinite(value))
        throw new InvalidInputError(pathOf(walk), `must be a finite number, got ${String(value)}.`);
      return Number.isInteger(value) ? new kinds.integer(value) : new kinds.float(value);
    case "bigint":
      return new kinds.string(value.toString());
    case "undefined":
      return undefined;
    case "object":
      break;
    default:
      throw new InvalidInputError(
        pathOf(walk),
        `is ${describeValue(value)}: templates only receive JSON-like data (strings, numbers, booleans, null, arrays, plain objects).`,
      );
  }
  if (value === null) return new kinds.null();
  const array = Array.isArray(value);
  // A plain object or an array is no Date: the tag read (slow next to the prototype checks) is only for the rest.
  const plain = !array && isPlainObject(value);
  if (!array && !plain && isDate(value)) {
    if (Number.isNaN(value.getTime())) throw new InvalidInputError(pathOf(walk), "is an invalid Date.");
    return new kinds.string(value.toISOString());
  }
  if (depth >= walk.maxDepth)
    throw new InvalidInputError(pathOf(walk), `nests deeper than ${walk.maxDepth} levels (options.limits.maxDepth).`);
  if (walk.open.includes(value))
    throw new InvalidInputError(pathOf(walk), "contains itself (a cycle): templates only receive tree-shaped data.");
  walk.open.push(value);
  try {
    if (array) {
      const length = value.length;
      const items = new Array<RuntimeValue>(length);
      for (let index = 0; index < length; index++) {
        if (!(index in value)) continue; // a hole stays a hole, as `Array.prototype.map` leaves it
        walk.keys.push(index);
        items[index] = convert(value[index], depth + 1, walk) ?? new kinds.null();
        walk.keys.pop();
      }
      return new kinds.array(items);
    }
    if (!plain) {
      throw new InvalidInputError(
        pathOf(walk),
        `is ${describeValue(value)}: templates only receive JSON-like data (plain objects, not class instances, Maps or Sets).`,
      );
    }
    const entries = new Map<string, RuntimeValue>();
    for (const key of Object.keys(value)) {
      walk.keys.push(key);
      const item = convert((value as Record<string, unknown>)[key], depth + 1, walk);
      walk.keys.pop();
      if (item !== undefined) entries.set(key, item);
    }
    return new kinds.object(entries);
  } finally {
    walk.open.pop();
  }
}

/**
 * Merges `defaults` under `args` (runtime arguments win; an `undefined` argument keeps its
 * default) and converts the result into the library's runtime values, by variable name.
 * `bigint` becomes its decimal string, a `Date` its ISO string; `undefined` object properties
 * are dropped and array items become `null`. Objects become Map-backed values, so a template
 * never reaches a prototype.
 */
export function toTemplateValues(
  args: Readonly<Record<string, unknown>> | undefined,
  defaults: Readonly<Record<string, unknown>> | undefined,
  maxDepth: number,
): Map<string, RuntimeValue> {
  const merged: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const origin = new Map<string, string>();
  for (const [source, name] of [
    [defaults, "options.defaults"],
    [args, "args"],
  ] as const) {
    if (source === undefined) continue;
    if (typeof source !== "object" || source === null || Array.isArray(source) || !isPlainObject(source)) {
      throw new InvalidInputError(name, "must be a plain object of variable name → value.");
    }
    for (const key of Object.keys(source)) {
      const value = (source as Record<string, unknown>)[key];
      if (value === undefined) continue;
      merged[key] = value;
      origin.set(key, name);
    }
  }
  const out = new Map<string, RuntimeValue>();
  const kinds = valueClasses();
  for (const key of Object.keys(merged)) {
    const item = convert(merged[key], 1, {
      root: joinPath(origin.get(key) ?? "args", key),
      keys: [],
      open: [],
      maxDepth,
      kinds,
    });
    if (item !== undefined) out.set(key, item);
  }
  return out;
}
