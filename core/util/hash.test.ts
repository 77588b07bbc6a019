import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./errors.ts";
import { sha256Hex, utf8Bytes } from "./hash.ts";
import { utf8Length } from "./utf8.ts";

// Known answers: FIPS 180-2 examples ("abc", the 448-bit message, one million "a"),
// the empty string, and non-ASCII text checked against an independent SHA-256.
const VECTORS: readonly (readonly [string, () => string, string])[] = [
  ["the empty string", () => "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["abc", () => "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  [
    "the 448-bit FIPS message",
    () => "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  ],
  [
    "non-ASCII text (2-, 3- and 4-byte UTF-8)",
    () => "héllo wörld — 你好 🙂",
    "9ab32fbda83ae0d00671c0c326822a4567651083d02a53808761ed3490eae99f",
  ],
  [
    "one million 'a' (1 MB)",
    () => "a".repeat(1_000_000),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  ],
  [
    "1 MiB of non-ASCII text",
    () => "Strata ✓ 🙂 ".repeat(65_536),
    "822f1b881abe9bbe7e557b724ed88d5bf5b634525716b2e25d42d79cb334ec6b",
  ],
];

describe("sha256Hex", () => {
  it.each(VECTORS)("hashes %s to the known answer", (_name, make, expected) => {
    expect(sha256Hex(make())).toBe(expected);
  });

  it("hashes a string as its UTF-8 bytes", () => {
    const text = "héllo wörld — 你好 🙂";
    expect(sha256Hex(utf8Bytes(text))).toBe(sha256Hex(text));
  });

  it("hashes a lone surrogate as U+FFFD, like TextEncoder", () => {
    expect(sha256Hex("\ud800")).toBe(sha256Hex("\ufffd"));
  });

  it("returns 64 lowercase hex characters", () => {
    expect(sha256Hex("x")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("utf8Length", () => {
  it("agrees with utf8Bytes", () => {
    expect(utf8Length("a😀\ud800")).toBe(utf8Bytes("a😀\ud800").length);
  });
});

describe("sha256Hex as a prompt fingerprint", () => {
  it("hashes non-ASCII text as its UTF-8 bytes", () => {
    expect(sha256Hex("héllo wörld — 你好 🙂")).toBe("9ab32fbda83ae0d00671c0c326822a4567651083d02a53808761ed3490eae99f");
  });

  it("rejects what is neither a string nor bytes, naming what it got", () => {
    expect(() => sha256Hex(42 as unknown as string)).toThrow(InvalidInputError);
    expect(() => sha256Hex(42 as unknown as string)).toThrow(/got the number 42/);
  });
});
