import { describe, expect, it } from "vitest";
import { reportFor } from "../test-support/reports.ts";
import { decodeBundle, encodeBundle, parseBundle } from "./bundle.ts";
import { compressText, decompressText, fromBase64Url, ShareDecodeError, toBase64Url } from "./codec.ts";
import { decodeShareState, encodeShareState, type ShareState } from "./state.ts";

const state: ShareState = {
  v: 1,
  current: '{"model":"gpt-4.1","messages":[{"role":"user","content":"héllo <b>✓</b> 𝄞"}]}',
  previous: "",
  source: "pasted",
  view: "cache",
  settings: {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    layout: "legacy",
    maxInputTokens: 1000,
    maxInputBytes: null,
    estimator: "counted",
  },
  tierBudget: 400,
};

describe("share links", () => {
  it("round-trips the whole input state through deflate-raw and base64url", async () => {
    const encoded = await encodeShareState(state);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decodeShareState(encoded)).toEqual(state);
  });

  it("compresses a repetitive request well", async () => {
    const big = JSON.stringify({
      messages: Array.from({ length: 500 }, (_, i) => ({ role: "user", content: `message ${i % 7}` })),
    });
    expect((await compressText(big)).length).toBeLessThan(big.length / 5);
  });

  it("refuses a link whose data has the wrong shape, naming the path", async () => {
    const bad = await compressText(JSON.stringify({ ...state, settings: { ...state.settings, layout: "sideways" } }));
    await expect(decodeShareState(bad)).rejects.toThrow(/settings\.layout/);
  });

  it("refuses cut-off, non-base64url and non-JSON data with a typed error", async () => {
    const encoded = await encodeShareState(state);
    await expect(decodeShareState(encoded.slice(0, encoded.length / 2))).rejects.toBeInstanceOf(ShareDecodeError);
    await expect(decodeShareState("not base64!")).rejects.toBeInstanceOf(ShareDecodeError);
    await expect(decodeShareState(await compressText("{nope"))).rejects.toThrow(/not JSON/);
  });

  it("caps how far a link may inflate", async () => {
    const bomb = await compressText("a".repeat(200_000));
    await expect(decompressText(bomb, 100_000)).rejects.toThrow(/more than 100000 bytes/);
  });

  it("keeps bytes intact through base64url", () => {
    const bytes = new Uint8Array(300).map((_, i) => (i * 7) % 256);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
  });
});

describe("hash-only bundles", () => {
  it("round-trip the report's fingerprints, which carry no prompt text", async () => {
    const report = await reportFor("conversation-turn-2");
    const bundle = parseBundle(report.fingerprints);
    const text = JSON.stringify(bundle);
    for (const m of report.request!.messages)
      for (const b of m.content) if (b.type === "text" && b.text.length > 12) expect(text).not.toContain(b.text);
    expect(await decodeBundle(await encodeBundle(bundle))).toEqual(bundle);
  });

  it("refuse a bundle that smuggles extra fields", async () => {
    const report = await reportFor("conversation-turn-2");
    const bundle = {
      ...report.fingerprints!,
      segments: report.fingerprints!.segments.map((s, i) => (i === 0 ? { ...s, text: "secret" } : s)),
    };
    expect(() => parseBundle(bundle)).toThrow(/segments\.0/);
  });

  it("carries the tiers given to a wire request's sections, and refuses a tier that is none", async () => {
    const withTiers: ShareState = { ...state, tiers: { p1: "core", privacy: "informational" } };
    expect(await decodeShareState(await encodeShareState(withTiers))).toEqual(withTiers);
    const bad = await compressText(JSON.stringify({ ...state, tiers: { p1: "essential" } }));
    await expect(decodeShareState(bad)).rejects.toThrow(/tiers\.p1/);
  });
});
