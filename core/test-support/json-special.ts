/**
 * Values `JSON.stringify` treats specially — a `toJSON` method, a `Date`, a `Map` or `Set`, a class
 * instance, boxed primitives, a typed array — for tests of code that sizes JSON without writing
 * it: each must be left to `JSON.stringify`, and come out exactly as it writes them.
 */
export function specialJsonValues(): unknown[] {
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  return [
    { when: new Date(Date.UTC(2026, 11, 3)) },
    { custom: { toJSON: () => "replaced" } },
    [new Map([[1, 2]]), new Set([1])],
    { point: new Point(1, 2) },
    [new String("boxed"), new Number(5), new Boolean(false)],
    Object.assign([1, 2], { toJSON: () => ({ list: true }) }),
    { typed: new Uint8Array([1, 2, 3]) },
  ];
}
