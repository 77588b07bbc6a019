/**
 * A zod/mini schema read as a plain yes/no test, for the common case of a valid request:
 * `acceptsOf(schema)` walks the schema's definition once and returns a predicate that copies
 * nothing and allocates nothing (zod's `safeParse` builds a full copy of the value, which the
 * readers throw away: they read the original). The predicate accepts a SUBSET of what the schema
 * accepts — every node kind below is checked the way zod 4 checks it (core/schemas.js:
 * `$ZodObject`, `$ZodDiscriminatedUnion`, `$ZodRecord`, …); any kind, check or option it does not
 * model (refinements, transforms, defaults, strict objects, string checks) compiles to "no", and
 * the caller then runs zod, whose issues are reported as before. So `schemaIssues` gives exactly
 * zod's answer, only faster when the answer is "valid".
 */
import type * as z from "zod/mini";
import { fastPathsOn } from "./fast-paths.ts";
// zod's `util.isObject` too: a non-null object that is not an array.
import { isObject } from "../util/plain-object.ts";

type Accepts = (value: unknown) => boolean;

/** The parts of a zod 4 schema's internals read here (structurally typed). */
interface Internals {
  readonly def: Def;
  readonly optin?: string;
  readonly optout?: string;
  readonly values?: unknown;
  readonly traits: { has(trait: string): boolean };
}
interface Node {
  readonly _zod: Internals;
}
interface Def {
  readonly type: string;
  readonly coerce?: boolean;
  readonly checks?: readonly Node[];
  readonly innerType?: Node;
  readonly element?: Node;
  readonly shape?: Readonly<Record<string, Node>>;
  readonly catchall?: Node;
  readonly keyType?: Node;
  readonly valueType?: Node;
  readonly mode?: string;
  readonly options?: readonly Node[];
  readonly discriminator?: string;
  readonly unionFallback?: boolean;
  readonly inclusive?: boolean;
  readonly values?: readonly unknown[];
  // checks
  readonly check?: string;
  readonly format?: string;
  readonly value?: unknown;
  readonly when?: unknown;
}

const never: Accepts = () => false;
const always: Accepts = () => true;
const isString: Accepts = (v) => typeof v === "string";
const isBoolean: Accepts = (v) => typeof v === "boolean";

const compiled = new WeakMap<object, Accepts>();

/** The fast predicate of `schema` (compiled once). */
export function acceptsOf(schema: z.ZodMiniType): Accepts {
  return accepts(schema as unknown as Node);
}

function accepts(node: Node): Accepts {
  let f = compiled.get(node);
  if (f === undefined) {
    // A schema that contains itself (z.lazy, getters) is not modelled: its inner use says "no".
    compiled.set(node, never);
    f = build(node);
    compiled.set(node, f);
  }
  return f;
}

/** The checks zod runs after parsing (`$ZodType.init`): the node itself when it is a check, then `def.checks`. */
function checksOf(node: Node): readonly Node[] {
  const own = node._zod.def.checks ?? [];
  return node._zod.traits.has("$ZodCheck") ? [node, ...own] : own;
}

/**
 * The node kinds modelled; each must be an instance of zod's class of that name (`$ZodString`, …).
 * Subclasses with other rules (`z.exactOptional`, `z.xor`) are told apart where they matter.
 */
const KINDS: ReadonlySet<string> = new Set([
  ...["string", "boolean", "number", "unknown", "any", "literal", "enum"],
  ...["optional", "nullable", "array", "object", "record", "union"],
]);
const classOf = (kind: string) => `$Zod${kind[0]!.toUpperCase()}${kind.slice(1)}`;

function build(node: Node): Accepts {
  const def = node._zod.def;
  if (def.coerce || !KINDS.has(def.type) || !node._zod.traits.has(classOf(def.type))) return never;
  const checks = checksOf(node);
  if (def.type === "number") return numberAccepts(checks);
  if (checks.length > 0) return never;
  switch (def.type) {
    case "string":
      return isString;
    case "boolean":
      return isBoolean;
    case "unknown":
    case "any":
      return always;
    case "literal":
    case "enum": {
      // The very set `$ZodLiteral` / `$ZodEnum` test membership in.
      const values = node._zod.values;
      return values instanceof Set ? (v) => values.has(v) : never;
    }
    case "optional": {
      const inner = def.innerType!;
      if (inner._zod.optin === "defaulted") return never;
      const f = accepts(inner);
      // `z.exactOptional` leaves undefined to its inner schema (only an absent key is skipped).
      if (node._zod.traits.has("$ZodExactOptional")) return f;
      return (v) => v === undefined || f(v);
    }
    case "nullable": {
      const f = accepts(def.innerType!);
      return (v) => v === null || f(v);
    }
    case "array": {
      const f = accepts(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!f(v[i])) return false;
        return true;
      };
    }
    case "object":
      return objectAccepts(def);
    case "record":
      return recordAccepts(def);
    case "union":
      if (def.discriminator === undefined) return node._zod.traits.has("$ZodXor") ? never : unionAccepts(def);
      return node._zod.traits.has("$ZodDiscriminatedUnion") ? discriminatedAccepts(def) : never;
    default:
      return never;
  }
}

/** `$ZodNumber` (finite numbers) and the checks `z.int()` (safe integers) and `z.gte` / `z.gt`. */
function numberAccepts(checks: readonly Node[]): Accepts {
  let f: Accepts = (v) => typeof v === "number" && Number.isFinite(v);
  for (const c of checks) {
    const d = c._zod.def;
    if (d.when !== undefined) return never;
    let g: ((v: number) => boolean) | undefined;
    const bound = d.value;
    if (d.check === "number_format" && d.format === "safeint") g = Number.isSafeInteger;
    else if (d.check === "greater_than" && typeof bound === "number")
      g = d.inclusive ? (v) => v >= bound : (v) => v > bound;
    if (!g) return never;
    const prev = f;
    const check = g;
    f = (v) => prev(v) && check(v as number);
  }
  return f;
}

/**
 * `$ZodObject`: each shape key through its schema, with zod's rules for absent keys
 * (`handlePropertyResult`); unknown keys pass (loose) or are stripped (plain object), which accept
 * every value. A strict object (catchall `never`) is not modelled.
 */
function objectAccepts(def: Def): Accepts {
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== "unknown" && catchall !== "any") return never;
  const shape = def.shape ?? {};
  if (Object.getOwnPropertySymbols(shape).length > 0) return never;
  const keys = Object.keys(shape);
  // zod never reads a "__proto__" shape key; keep to shapes without one.
  if (keys.includes("__proto__")) return never;
  const n = keys.length;
  const fields: Accepts[] = [];
  const required: boolean[] = [];
  const absentOk: boolean[] = [];
  const undefinedOk: boolean[] = [];
  for (const key of keys) {
    const s = shape[key]!;
    const { optin, optout } = s._zod;
    if ((optin !== undefined && optin !== "optional") || (optout !== undefined && optout !== "optional")) return never;
    const f = accepts(s);
    fields.push(f);
    // A key zod requires present (`key in input`, so it may be present and undefined).
    required.push(optin === undefined);
    // Absent: skipped when optional in and out; otherwise its schema sees undefined.
    absentOk.push((optin === "optional" && optout === "optional") || (optin !== undefined && f(undefined)));
    undefinedOk.push(f(undefined));
  }
  return (v) => {
    if (!isObject(v)) return false;
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const x = v[key];
      if (x === undefined) {
        if (!(key in v ? undefinedOk[i] : absentOk[i])) return false;
      } else if (!fields[i]!(x) || (required[i] && !(key in v))) return false;
    }
    return true;
  };
}

/** zod's `util.isPlainObject`, which `$ZodRecord` requires. */
function zodPlainObject(o: unknown): o is Record<string, unknown> {
  if (!isObject(o)) return false;
  const ctor = o.constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, "isPrototypeOf");
}

/**
 * `$ZodRecord` with `z.string()` keys: a plain object whose own enumerable keys are all strings
 * (an enumerable symbol key fails the key schema) and whose values pass (`"__proto__"` is skipped).
 */
function recordAccepts(def: Def): Accepts {
  const key = def.keyType!;
  if (key._zod.def.type !== "string" || key._zod.def.coerce || checksOf(key).length > 0) return never;
  if (key._zod.values !== undefined || def.mode !== undefined) return never;
  const value = def.valueType!._zod.def.type;
  const f = value === "unknown" || value === "any" ? undefined : accepts(def.valueType!);
  return (v) => {
    if (!zodPlainObject(v)) return false;
    for (const s of Object.getOwnPropertySymbols(v)) if (Object.prototype.propertyIsEnumerable.call(v, s)) return false;
    if (f) for (const k of Object.keys(v)) if (k !== "__proto__" && !f(v[k])) return false;
    return true;
  };
}

/** `$ZodUnion`: the first option that accepts wins (an exclusive `z.xor` is not modelled). */
function unionAccepts(def: Def): Accepts {
  if (def.inclusive === false) return never;
  const options = (def.options ?? []).map(accepts);
  return (v) => {
    for (const f of options) if (f(v)) return true;
    return false;
  };
}

/**
 * `$ZodDiscriminatedUnion`: an object; the option whose literal discriminator equals the value's
 * decides. Modelled when every option is an object with a literal discriminator (zod's map then
 * holds exactly those literals) and there is no `unionFallback`.
 */
function discriminatedAccepts(def: Def): Accepts {
  if (def.unionFallback) return never;
  const disc = def.discriminator!;
  const byValue = new Map<unknown, Accepts>();
  for (const option of def.options ?? []) {
    const od = option._zod.def;
    const tag = od.type === "object" ? od.shape?.[disc] : undefined;
    if (!tag || tag._zod.def.type !== "literal" || checksOf(tag).length > 0) return never;
    for (const value of tag._zod.def.values ?? []) {
      if (byValue.has(value)) return never;
      byValue.set(value, accepts(option));
    }
  }
  return (v) => {
    if (!isObject(v)) return false;
    const f = byValue.get(v[disc]);
    return f !== undefined && f(v);
  };
}

/**
 * zod's issues for `value` (undefined when it is valid): the fast predicate first, `safeParse`
 * only when the predicate says no.
 */
export function schemaIssues(schema: z.ZodMiniType, value: unknown): readonly object[] | undefined {
  if (fastPathsOn() && acceptsOf(schema)(value)) return undefined;
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues;
}
