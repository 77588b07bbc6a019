/**
 * Golden vectors (e2e/golden/): every runner — Node, Chromium, workerd, edge-runtime,
 * Deno, Bun — recomputes each case's output and must match the committed SHA-256 byte
 * for byte. A deliberate change: `node e2e/golden/update.mjs`, then review the diff.
 */
import { describe, expect, it } from "vitest";
import { goldenCases } from "../e2e/golden/corpus.ts";
import committed from "../e2e/golden/hashes.json";
import { sha256Hex } from "./util/hash.ts";

// hashes.json is written by update.mjs with node:crypto; here core's own SHA-256 checks it.
const hashes: Readonly<Record<string, string>> = committed;

describe("golden vectors", () => {
  it("has a committed hash for every case and a case for every committed hash", () => {
    const names = goldenCases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => !(n in hashes))).toEqual([]);
    expect(Object.keys(hashes).filter((n) => !names.includes(n))).toEqual([]);
  });

  it("hashes UTF-8 exactly as the committed file expects", () => {
    // Pins the hashing itself (TextEncoder + SHA-256), including a lone surrogate (→ U+FFFD).
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("a\ud800b")).toBe(sha256Hex("a\ufffdb"));
  });

  it.each(goldenCases)("$name matches its committed SHA-256", async (golden) => {
    const output = await golden.output();
    expect(typeof output).toBe("string");
    expect(`${golden.name} ${sha256Hex(output)}`).toBe(
      `${golden.name} ${hashes[golden.name] ?? "(no committed hash)"}`,
    );
  });
});
