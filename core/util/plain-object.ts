/**
 * A plain object: an object literal, `JSON.parse` output or `Object.create(null)`.
 * The check is realm-independent on purpose: objects from another realm (an iframe,
 * `@edge-runtime/vm`'s `request.json()` and `structuredClone`) have that realm's
 * `Object.prototype`, which is not ours but, like ours, has a null prototype.
 * Class instances (their prototype's prototype is `Object.prototype`) are not plain.
 */
export function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A non-null object that is not an array (plain or not): the shape of a JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A `Date` from any realm (`instanceof Date` fails across realms). */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === "[object Date]";
}

/**
 * `target[key] = value` as an own, enumerable data property, also for the key `"__proto__"`
 * (which plain assignment would turn into a prototype change, losing the key). Use it wherever
 * keys come from untrusted data: `JSON.parse` makes `"__proto__"` an ordinary own key.
 */
export function putOwn(target: object, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}

/** The own properties of `fields` whose value is not `undefined`: `{ ...definedFields({ id, title }) }` adds `id` and `title` only when they are set (with `exactOptionalPropertyTypes`, an optional property may be absent but never `undefined`). */
export function definedFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) if (fields[key] !== undefined) putOwn(out, key, fields[key]);
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
