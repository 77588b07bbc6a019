/**
 * Helpers over @huggingface/jinja runtime values (Map/array-backed wrappers with a `type` tag).
 * The package exports no value classes, so values are handled structurally and new ones are
 * made from an existing value's own constructor.
 */
import { Environment, Interpreter } from "./vendor/huggingface-jinja.js";

export type RuntimeValue = ReturnType<Interpreter["evaluate"]>;
export type Statement = NonNullable<Parameters<Interpreter["evaluate"]>[0]>;

/** Structural view used by Strata's code: the library's `type` strings are not literal types. */
export interface Value {
  type: string;
  value: unknown;
  toString(): string;
}

export const asValue = (value: RuntimeValue): Value => value as unknown as Value;

/** Lists and mappings (compared directly: this runs for every value printed, measured or appended). */
export const isContainer = (value: Value): boolean => {
  const type = value.type;
  return (
    type === "ArrayValue" ||
    type === "ObjectValue" ||
    type === "TupleValue" ||
    type === "KeywordArgumentsValue" ||
    type === "NamespaceValue"
  );
};
export const isList = (value: Value): value is Value & { value: RuntimeValue[] } =>
  value.type === "ArrayValue" || value.type === "TupleValue";
export const isMapping = (value: Value): value is Value & { value: Map<string, RuntimeValue> } =>
  value.type === "ObjectValue" || value.type === "KeywordArgumentsValue" || value.type === "NamespaceValue";
export const isString = (value: Value): value is Value & { value: string } => value.type === "StringValue";

/** Work units for reading a value once: its items, or one per 64 characters. */
export function workOf(value: Value): number {
  if (isString(value)) return value.value.length >>> 6;
  if (isList(value)) return value.value.length;
  if (isMapping(value)) return value.value.size;
  return 0;
}

/**
 * Python slicing `text[start:stop:step]` by UTF-16 code units, for text without surrogates (where
 * they are its code points): the library's index rules, built in time of the output.
 */
export function sliceText(text: string, start: number | undefined, stop: number | undefined, step: number): string {
  const length = text.length;
  const direction = Math.sign(step);
  let from: number;
  let to: number;
  if (direction >= 0) {
    from = (start ??= 0) < 0 ? Math.max(length + start, 0) : Math.min(start, length);
    to = (stop ??= length) < 0 ? Math.max(length + stop, 0) : Math.min(stop, length);
  } else {
    from = (start ??= length - 1) < 0 ? Math.max(length + start, -1) : Math.min(start, length - 1);
    to = (stop ??= -1) < -1 ? Math.max(length + stop, -1) : Math.min(stop, length - 1);
  }
  if (step === 1) return from < to ? text.slice(from, to) : "";
  const out: string[] = [];
  for (let i = from; direction * i < direction * to; i += step) out.push(text[i]!);
  return out.join("");
}

/** A node that evaluates to an already computed value (see STRATA_NODE.value). */
export function valueNode(value: RuntimeValue | Value): Statement {
  return { type: "StrataValue", value } as unknown as Statement;
}

/** Builds a value of the same class as `like` around `inner`. */
export function sameKind(like: Value, inner: unknown): RuntimeValue {
  const Ctor = like.constructor as new (inner: unknown) => RuntimeValue;
  return new Ctor(inner);
}

const FUNCTION_TEXT = "<function>";

/**
 * A function value prints as `<function>`, never as the JavaScript source of the library's or
 * Strata's closures (which also differs between bundlers, so it would not be deterministic).
 */
export function hideSource(value: Value): void {
  const fn = value.value;
  if (typeof fn !== "function" || Object.hasOwn(fn, "toString")) return;
  Object.defineProperty(fn, "toString", { value: () => FUNCTION_TEXT });
}

let probes: { nil: RuntimeValue; controls: readonly (abstract new () => object)[] } | undefined;

/** The library's null value, and the classes it throws for `{% break %}` / `{% continue %}`. */
function probe(): NonNullable<typeof probes> {
  if (probes !== undefined) return probes;
  const env = new Environment();
  const interpreter = new Interpreter(env);
  const nil = interpreter.evaluate({ type: "Comment" } as unknown as Statement, env);
  const controls: (abstract new () => object)[] = [];
  for (const type of ["Break", "Continue"]) {
    try {
      interpreter.evaluate({ type } as unknown as Statement, env);
    } catch (error) {
      if (typeof error === "object" && error !== null) controls.push(error.constructor as abstract new () => object);
    }
  }
  probes = { nil, controls };
  return probes;
}

export const nullValue = (): RuntimeValue => probe().nil;

/** `true` for the library's break/continue signals, which must pass through untouched. */
export function isLoopControl(error: unknown): boolean {
  return typeof error === "object" && error !== null && probe().controls.some((ctor) => error instanceof ctor);
}

interface Shape {
  /** Characters of the compact JSON form (upper bound). */
  chars: number;
  /** Same with non-ASCII escaped. */
  asciiChars: number;
  /** Items and entries in all nested containers. */
  items: number;
  /** Container nesting height. */
  height: number;
  /** No namespace inside: the shape cannot change, so it may be memoized. */
  pure: boolean;
}

export interface ShapeContext {
  readonly maxDepth: number;
  readonly memo: WeakMap<object, Shape>;
  /** Thrown when nesting passes maxDepth or a namespace contains itself. */
  readonly fail: (reason: "depth" | "cycle") => never;
}

// Characters JSON escapes (quote, backslash, controls) or `ensure_ascii` escapes (0x7f and up).
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPED = /[\u0000-\u001f"\\\u007f-\uffff]/;

/** Containers with fewer items are measured again rather than memoized (a WeakMap entry costs more). */
const MEMO_MIN_ITEMS = 16;

/**
 * Adds `text`'s compact JSON length to `into` (an upper bound, plain and with non-ASCII escaped
 * as `\uXXXX`) in one pass, plus `extra` to both: strings are the bulk of template data, so
 * they are measured in place rather than as a `Shape` of their own.
 */
function addString(into: Shape, text: string, extra: number): void {
  // Most strings escape nothing: one native scan instead of a loop over every character.
  if (!ESCAPED.test(text)) {
    into.chars += text.length + 2 + extra;
    into.asciiChars += text.length + 2 + extra;
    return;
  }
  let chars = 2 + extra;
  let asciiChars = 2 + extra;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const step =
      code === 0x22 || code === 0x5c
        ? 2
        : code < 0x20
          ? code === 8 || code === 9 || code === 10 || code === 12 || code === 13
            ? 2
            : 6
          : 1;
    chars += step;
    asciiChars += code >= 0x7f ? 6 : step;
  }
  into.chars += chars;
  into.asciiChars += asciiChars;
}

/** Printed length of a value that is neither a string nor a container. */
function scalarChars(value: Value): number {
  return value.type === "FunctionValue"
    ? FUNCTION_TEXT.length
    : value.type === "UndefinedValue"
      ? 9
      : String(value.value).length + 2;
}

/**
 * The containers being measured, outermost first: meeting one of them again is a cycle. Only a
 * namespace can close a cycle (every other value is immutable once built), so the path is
 * searched through a Set only while a namespace is on it: the common case gives the fresh
 * argument containers no identity hash.
 */
class Path {
  private readonly items: object[] = [];
  private set: Set<object> | undefined;
  private namespaces = 0;

  has(value: object): boolean {
    return this.set !== undefined && this.set.has(value);
  }

  enter(value: Value): void {
    this.items.push(value);
    if (value.type === "NamespaceValue" && this.namespaces++ === 0) this.set = new Set(this.items);
    else this.set?.add(value);
  }

  leave(value: Value): void {
    this.items.pop();
    if (this.set === undefined) return;
    this.set.delete(value);
    if (value.type === "NamespaceValue" && --this.namespaces === 0) this.set = undefined;
  }
}

/** Adds one item of a container (and its key's `"key": ` when in a mapping) to `shape`. */
function addChild(
  shape: Shape,
  child: Value,
  key: string | undefined,
  depth: number,
  ctx: ShapeContext,
  visiting: Path,
): void {
  if (key !== undefined) addString(shape, key, 2);
  shape.items += 1;
  if (isString(child)) addString(shape, child.value, 2);
  else if (!isContainer(child)) {
    const chars = scalarChars(child) + 2;
    shape.chars += chars;
    shape.asciiChars += chars;
  } else {
    const s = containerShape(child, depth, ctx, visiting);
    shape.chars += s.chars + 2;
    shape.asciiChars += s.asciiChars + 2;
    shape.items += s.items;
    if (s.height + 1 > shape.height) shape.height = s.height + 1;
    shape.pure &&= s.pure;
  }
}

function containerShape(value: Value, depth: number, ctx: ShapeContext, visiting: Path): Shape {
  const key = value as object;
  const known = ctx.memo.get(key);
  if (known !== undefined) return known;
  if (visiting.has(key)) ctx.fail("cycle");
  if (depth > ctx.maxDepth) ctx.fail("depth");
  visiting.enter(value);
  const shape: Shape = { chars: 2, asciiChars: 2, items: 0, height: 1, pure: value.type !== "NamespaceValue" };
  if (isList(value)) {
    const items = value.value;
    for (let i = 0; i < items.length; i++) {
      const child = items[i];
      // A hole (an argument array keeps its holes, as the library's conversion does) prints as nothing.
      if (child === undefined) shape.items += 1;
      else addChild(shape, asValue(child), undefined, depth + 1, ctx, visiting);
    }
  } else if (isMapping(value))
    for (const [k, child] of value.value) addChild(shape, asValue(child), k, depth + 1, ctx, visiting);
  visiting.leave(value);
  // Namespaces are mutable (`{% set ns.x = … %}`): only shapes without one are memoized.
  if (shape.pure && shape.items >= MEMO_MIN_ITEMS) ctx.memo.set(key, shape);
  return shape;
}

function shapeOf(value: Value, depth: number, ctx: ShapeContext, visiting: Path): Shape {
  if (isContainer(value)) return containerShape(value, depth, ctx, visiting);
  const shape: Shape = { chars: 0, asciiChars: 0, items: 0, height: 0, pure: true };
  if (isString(value)) addString(shape, value.value, 0);
  else shape.chars = shape.asciiChars = scalarChars(value);
  return shape;
}

export interface PrintOptions {
  readonly indent?: number;
  readonly ascii?: boolean;
  /** Longest custom separator (`tojson(separators=…)`). */
  readonly separator?: number;
}

/**
 * Upper bound of the characters `value` prints as (`{{ value }}`, `~`, `tojson`, `string`),
 * and the work units printing it costs (one per item, one per 64 characters).
 */
export function measurePrinted(
  value: Value,
  ctx: ShapeContext,
  options: PrintOptions = {},
): { bound: number; work: number } {
  const shape = shapeOf(value, 1, ctx, new Path());
  const chars = options.ascii === true ? shape.asciiChars : shape.chars;
  const perItem = Math.max(0, (options.separator ?? 2) - 2) + 2 * (1 + (options.indent ?? 0) * (shape.height + 1));
  const bound = chars + shape.items * perItem;
  return { bound, work: shape.items + (bound >>> 6) };
}

/**
 * `value | tojson` with no arguments, written as the library's `toJSON(value, {})` writes it —
 * `", "` between items, `": "` after keys, `null` for none and undefined, an array hole as
 * nothing (its `map` + `join`), and the library's error for what has no JSON (a function, a
 * tuple) — in one pass that appends, where the library maps every container into an array of
 * strings and joins it. Call it after `checkPrinted`: that bounds the size and rejects cycles.
 */
export function compactJson(value: Value): string {
  switch (value.type) {
    case "NullValue":
    case "UndefinedValue":
      return "null";
    case "IntegerValue":
    case "FloatValue":
    case "BooleanValue":
    case "StringValue":
      return JSON.stringify(value.value);
    case "ArrayValue": {
      const items = value.value as RuntimeValue[];
      let out = "[";
      for (let i = 0; i < items.length; i++) {
        if (i > 0) out += ", ";
        if (i in items) out += compactJson(asValue(items[i]!));
      }
      return `${out}]`;
    }
    case "ObjectValue":
    case "NamespaceValue": {
      let out = "{";
      let first = true;
      for (const [key, item] of value.value as Map<string, RuntimeValue>) {
        if (!first) out += ", ";
        first = false;
        out += `${JSON.stringify(key)}: ${compactJson(asValue(item))}`;
      }
      return `${out}}`;
    }
    default:
      throw new Error(`Cannot convert to JSON: ${value.type}`);
  }
}

/** A copy with mapping keys in UTF-16 code-unit order at every depth (`tojson(sort_keys=true)`). */
export function sortedCopy(value: Value, ctx: ShapeContext, depth = 1, visiting = new Set<object>()): RuntimeValue {
  if (!isContainer(value)) return value as unknown as RuntimeValue;
  if (visiting.has(value)) ctx.fail("cycle");
  if (depth > ctx.maxDepth) ctx.fail("depth");
  visiting.add(value);
  try {
    if (isList(value))
      return sameKind(
        value,
        value.value.map((child) => sortedCopy(asValue(child), ctx, depth + 1, visiting)),
      );
    const entries = [...(value as Value & { value: Map<string, RuntimeValue> }).value.entries()];
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return sameKind(
      value,
      new Map(entries.map(([k, child]) => [k, sortedCopy(asValue(child), ctx, depth + 1, visiting)])),
    );
  } finally {
    visiting.delete(value);
  }
}
