import { describe, expect, it } from "vitest";
import { InvalidInputError } from "./errors.ts";
import { hashJsonString, hashWritten, sha256Hex, utf8Bytes } from "./hash.ts";
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

  it("agrees with WebCrypto on every length across the padding and block edges, aligned or not", async () => {
    // The digest is Strata's own (sha256.ts): checked against the runtime's own SHA-256 on
    // 0–300 bytes (one to five blocks, both sides of every 55/56-byte padding edge and 64-byte
    // block edge), on views that start off a 4-byte boundary and on a text over the 64 Ki-unit
    // scratch buffer.
    const bytes = Uint8Array.from({ length: 340 }, (_, i) => (i * 151 + 7) & 255);
    const webHex = async (b: Uint8Array) =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", b.slice()))]
        .map((x) => x.toString(16).padStart(2, "0"))
        .join("");
    for (let n = 0; n <= 300; n++)
      for (const start of [0, 1, 3]) {
        const view = bytes.subarray(start, start + n);
        expect(sha256Hex(view), `${n} bytes from ${start}`).toBe(await webHex(view));
      }
    const long = "Strata ✓ 🙂 ".repeat(7000);
    expect(sha256Hex(long)).toBe(await webHex(utf8Bytes(long)));
  });

  it("keeps no state from one digest to the next (the state and the last blocks are reused)", async () => {
    // A long input leaves its last blocks and state behind; a short one after it, and the long one
    // again, must hash as they do alone.
    const long = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 31 + 11) & 255);
    const short = Uint8Array.of(1, 2, 3);
    const first = sha256Hex(long);
    const afterLong = sha256Hex(short);
    expect(sha256Hex(long)).toBe(first);
    expect(afterLong).toBe(sha256Hex(Uint8Array.of(1, 2, 3)));
    expect(afterLong).toBe("039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81");
    const web = new Uint8Array(await crypto.subtle.digest("SHA-256", long));
    expect(first).toBe([...web].map((x) => x.toString(16).padStart(2, "0")).join(""));
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

describe("hashJsonString and hashWritten", () => {
  it("hash head + JSON.stringify(text) + tail, escapes and lone surrogates included", () => {
    const texts = [
      "",
      "plain",
      'quote " backslash \\ newline \n tab \t cr \r bell \u0007 nul \u0000',
      "é 你 🙂 \u2028",
      "lone \ud800 and \udfff",
      "x".repeat(40_000), // 6 bytes per unit would not fit the scratch buffer: written as text instead
      "\n".repeat(11_000),
      "\u0001".repeat(33_000),
    ];
    for (const text of texts)
      for (const [head, tail] of [
        ['{"type":"text","text":', "}"],
        ["", ""],
      ] as const)
        expect(hashJsonString(head, text, tail), JSON.stringify(text).slice(0, 40)).toBe(
          sha256Hex(head + JSON.stringify(text) + tail),
        );
  });

  it("sha256Hex gives a text the digest of its UTF-8 bytes in the scratch buffer and past it", () => {
    // 65,536 units is the scratch buffer's limit; past it a text is encoded into an array of its own.
    for (const n of [0, 1, 1023, 1024, 1025, 65_535, 65_536, 65_537, 70_000]) {
      const text = "aé你🙂".repeat(n).slice(0, n);
      expect(sha256Hex(text), `${n} units`).toBe(sha256Hex(utf8Bytes(text)));
    }
  });

  it("hashWritten hashes what the writer wrote, and gives undefined when it could not write", () => {
    const bytes = utf8Bytes("written into the scratch buffer");
    expect(
      hashWritten((out) => {
        out.set(bytes);
        return bytes.length;
      }),
    ).toBe(sha256Hex(bytes));
    expect(hashWritten(() => -1)).toBeUndefined();
  });
});
