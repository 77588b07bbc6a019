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

/** A `Date` from any realm (`instanceof Date` fails across realms). */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === "[object Date]";
}
