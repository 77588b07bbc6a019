import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StringIndex, firstRepeat, stringHash } from "./string-index.ts";

/** The reference: the first repeat found with a plain Map, in position order. */
function mapRepeat(keys: readonly string[]): { at: number; first: number } | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) {
    const first = seen.get(keys[i]!);
    if (first !== undefined) return { at: i, first };
    seen.set(keys[i]!, i);
  }
  return undefined;
}

const repeatOf = (keys: readonly string[]) => firstRepeat(Int32Array.from(keys, stringHash), (i) => keys[i]!);

// FNV-1a's prime and its inverse modulo 2^32 (Newton's iteration doubles the correct bits each step).
const PRIME = 0x01000193;
let inverse = PRIME;
for (let k = 0; k < 5; k++) inverse = Math.imul(inverse, 2 - Math.imul(PRIME, inverse));

/**
 * `count` different 4-unit keys with one and the same `stringHash`: FNV-1a is invertible step by
 * step, so after any two-unit prefix the last two units can be solved for to reach a fixed state
 * (the final mixing is a bijection, so equal states give equal hashes).
 */
function collidingKeys(count: number): string[] {
  const target = 0x1234_5678;
  const before = Math.imul(target, inverse); // the state before the last multiplication
  const keys: string[] = [];
  for (let prefix = 0; keys.length < count; prefix++) {
    let h = 0x811c9dc5 ^ 4;
    h = Math.imul(h ^ (0x41 + (prefix & 0xff)), PRIME);
    h = Math.imul(h ^ (0x41 + (prefix >>> 8)), PRIME);
    for (let c2 = 0; c2 < 0x10000; c2++) {
      const c3 = (before ^ Math.imul(h ^ c2, PRIME)) >>> 0;
      if (c3 < 0x10000) {
        keys.push(String.fromCharCode(0x41 + (prefix & 0xff), 0x41 + (prefix >>> 8), c2, c3));
        break;
      }
    }
  }
  return keys;
}

describe("stringHash", () => {
  it("is a deterministic 32-bit integer that tells near keys apart", () => {
    expect(stringHash("call_000001")).toBe(stringHash("call_000001"));
    expect(stringHash("")).toBe(stringHash(""));
    const hashes = new Set(Array.from({ length: 10_000 }, (_, i) => stringHash(`s${i}`)));
    expect(hashes.size).toBe(10_000);
    expect([...hashes].every((h) => (h | 0) === h)).toBe(true);
  });
});

describe("firstRepeat", () => {
  it("finds nothing in distinct keys, at every bucket count", () => {
    for (const n of [0, 1, 255, 256, 257, 5_000, 70_000]) {
      expect(repeatOf(Array.from({ length: n }, (_, i) => `id-${i}`))).toBeUndefined();
    }
  });

  it("names the first repeated position and the first holder of its key", () => {
    expect(repeatOf(["a", "b", "a"])).toEqual({ at: 2, first: 0 });
    expect(repeatOf(["a", "b", "b", "a"])).toEqual({ at: 2, first: 1 });
    expect(repeatOf(["x", "a", "a", "a"])).toEqual({ at: 2, first: 1 });
    const many = Array.from({ length: 20_000 }, (_, i) => `k${i}`);
    many.push("k19999", "k3");
    expect(repeatOf(many)).toEqual({ at: 20_000, first: 19_999 });
  });

  it("agrees with a Map on any list of keys (seed 77)", () => {
    const key = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom("a", "b", "\ud800", "🙂"));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 600 }), (keys) => {
        expect(repeatOf(keys)).toEqual(mapRepeat(keys));
      }),
      { seed: 77, numRuns: 300 },
    );
  });

  it("checks keys chosen to share one hash with a linear number of key reads", () => {
    const keys = collidingKeys(3_000);
    expect(new Set(keys.map(stringHash)).size).toBe(1);
    expect(new Set(keys).size).toBe(keys.length);
    let reads = 0;
    const hashes = Int32Array.from(keys, stringHash);
    expect(firstRepeat(hashes, (i) => (reads++, keys[i]!))).toBeUndefined();
    expect(reads).toBeLessThanOrEqual(keys.length * 2 + 2 * 64 * 64);
    const repeated = [...keys, keys[1_500]!];
    expect(repeatOf(repeated)).toEqual({ at: 3_000, first: 1_500 });
  });
});

describe("StringIndex", () => {
  it("keeps the first value for a key and says which it was", () => {
    const index = new StringIndex();
    expect(index.add("a", 3)).toBe(-1);
    expect(index.add("b", 0)).toBe(-1);
    expect(index.add("a", 9)).toBe(3);
    expect(index.get("a")).toBe(3);
    expect(index.get("b")).toBe(0);
    expect(index.get("c")).toBe(-1);
    expect(index.get("")).toBe(-1);
  });

  it("grows past its expected size and agrees with a Map (seed 78)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 3 })), { maxLength: 400 }),
        fc.nat(64),
        (ops, expected) => {
          const index = new StringIndex(expected);
          const reference = new Map<string, number>();
          ops.forEach(([isAdd, key], i) => {
            if (isAdd) {
              expect(index.add(key, i)).toBe(reference.get(key) ?? -1);
              if (!reference.has(key)) reference.set(key, i);
            } else expect(index.get(key)).toBe(reference.get(key) ?? -1);
          });
        },
      ),
      { seed: 78, numRuns: 300 },
    );
  });

  it("holds 20,000 keys over several key lists, and moves them all when a probe runs long", () => {
    const index = new StringIndex();
    const many = Array.from({ length: 20_000 }, (_, i) => `call_${i}`);
    many.forEach((key, i) => expect(index.add(key, i)).toBe(-1));
    many.forEach((key, i) => {
      expect(index.get(key)).toBe(i);
      expect(index.add(key, 7)).toBe(i);
    });
    // Keys that share a hash send it to a Map: every earlier key goes with them.
    const colliding = collidingKeys(200);
    colliding.forEach((key, i) => index.add(key, 20_000 + i));
    for (const i of [0, 4095, 4096, 8191, 8192, 19_999]) expect(index.get(many[i]!)).toBe(i);
    expect(index.get(colliding[199]!)).toBe(20_199);
  });

  it("stays correct when keys share one hash (it carries on in a Map)", () => {
    const keys = collidingKeys(500);
    const index = new StringIndex(8);
    keys.forEach((key, i) => expect(index.add(key, i)).toBe(-1));
    keys.forEach((key, i) => {
      expect(index.get(key)).toBe(i);
      expect(index.add(key, -5 + i)).toBe(i);
    });
    expect(index.get("absent")).toBe(-1);
  });
});
