/**
 * A list of 32-bit integers that grows by `push`, kept in a typed array. For lists a call fills
 * with up to hundreds of thousands of indexes: a JavaScript array grown that way copies itself
 * into ever larger arrays, and past ~16,000 entries each copy is a large object V8 maps afresh,
 * page by page, on every call. A typed array's storage is allocated outside the JavaScript heap,
 * where the runtime's allocator hands the same memory back call after call.
 */
export class IntList {
  #data: Int32Array;
  #length = 0;

  constructor(capacity = 16) {
    this.#data = new Int32Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.#length;
  }

  /** Appends `value`, a whole number from -2^31 to 2^31 − 1 (any other is stored as `value | 0`). */
  push(value: number): void {
    if (this.#length === this.#data.length) {
      const data = new Int32Array(this.#data.length * 2);
      data.set(this.#data);
      this.#data = data;
    }
    this.#data[this.#length++] = value;
  }

  /** The value at `index` (0 ≤ index < length). */
  get(index: number): number {
    return this.#data[index]!;
  }

  /** The values so far, as a view of exactly `length` (later pushes do not show in it). */
  values(): Int32Array {
    return this.#data.subarray(0, this.#length);
  }
}
