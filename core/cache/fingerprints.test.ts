import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../util/errors.ts";
import { RequestFormatError } from "../formats/errors.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { providerArb, requestArb } from "../test-support/arbitraries.ts";
import { suggestCacheBreakpoints } from "./breakpoints.ts";
import { compareRequests } from "./compare.ts";
import { checkFingerprintBundle } from "./fingerprint-check.ts";
import { parseFingerprintBundle } from "../inspect/fingerprint-schema.ts";
import { toFingerprintBundle } from "./fingerprints.ts";
import { segmentRequest } from "./segments.ts";
import { simulateCache } from "./simulate.ts";
import type { FingerprintBundle } from "./types.ts";

const request: NormalizedRequest = {
  model: { provider: "openai", model: "gpt-4o" },
  tools: [{ name: "lookup", inputSchema: { type: "object" } }],
  messages: [
    { role: "system", content: [{ type: "text", text: "You are terse." }] },
    { role: "user", content: [{ type: "text", text: "What is the capital of France?" }] },
  ],
};
const openai = { provider: "openai" } as const;
const bundle = toFingerprintBundle(segmentRequest(request, openai));

type Json = Record<string, unknown>;
/** A deep copy of the bundle with `edit` applied (edits may leave it malformed on purpose). */
function broken(edit: (b: Json & { segments: Json[]; total: Json }) => void): FingerprintBundle {
  const copy = JSON.parse(JSON.stringify(bundle)) as Json & { segments: Json[]; total: Json };
  edit(copy);
  return copy as unknown as FingerprintBundle;
}

/** The first issue path of the RequestFormatError `f` throws. */
function issuePath(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RequestFormatError);
    expect((e as RequestFormatError).code).toBe("invalid_fingerprints");
    return (e as RequestFormatError).issues[0]!.path;
  }
  throw new Error("expected a RequestFormatError");
}

describe("a malformed fingerprint bundle", () => {
  it.each<[string, (b: Json & { segments: Json[]; total: Json }) => void, string]>([
    ["a segment without sha256", (b) => delete b.segments[1]!["sha256"], "segments[1].sha256"],
    [
      "an upper-case hash",
      (b) => (b.segments[0]!["sha256"] = (b.segments[0]!["sha256"] as string).toUpperCase()),
      "segments[0].sha256",
    ],
    [
      "a segment without canonicalSha256",
      (b) => delete b.segments[0]!["canonicalSha256"],
      "segments[0].canonicalSha256",
    ],
    ["segments that are not an array", (b) => (b.segments = null as never), "segments"],
    ["a null segment", (b) => (b.segments[2] = null as never), "segments[2]"],
    ["a missing total", (b) => delete (b as Json)["total"], "total"],
    ["a fractional token count", (b) => (b.segments[0]!["tokens"] = 1.5), "segments[0].tokens"],
    ["a negative byte length", (b) => (b.segments[0]!["byteLength"] = -1), "segments[0].byteLength"],
    ["an unknown segment kind", (b) => (b.segments[0]!["kind"] = "prompt"), "segments[0].kind"],
    ["an unknown block type", (b) => (b.segments[2]!["blockType"] = "video"), "segments[2].blockType"],
    ["an index out of place", (b) => (b.segments[1]!["index"] = 0), "segments[1].index"],
    [
      "offsets with a gap",
      (b) => (b.segments[1]!["byteOffset"] = (b.segments[1]!["byteOffset"] as number) + 1),
      "segments[1].byteOffset",
    ],
    [
      "a total byte count that does not add up",
      (b) => (b.total["bytes"] = (b.total["bytes"] as number) + 1),
      "total.bytes",
    ],
    ["a total token count that does not add up", (b) => (b.total["tokens"] = 0), "total.tokens"],
    ["a total segment count that does not add up", (b) => b.segments.pop(), "total.segments"],
    ["another bundle version", (b) => (b["bundleVersion"] = 2), "bundleVersion"],
    ["an unknown provider", (b) => (b["provider"] = "mistral"), "provider"],
    ["a model that is not a string", (b) => (b["model"] = 4), "model"],
  ])("is refused by compareRequests on either side, naming the field: %s", (_, edit, path) => {
    const bad = broken(edit);
    expect(issuePath(() => compareRequests(bad, request, openai))).toBe(path);
    expect(issuePath(() => compareRequests(request, bad, openai))).toBe(path);
    expect(issuePath(() => compareRequests(bundle, bad, openai))).toBe(path);
  });

  it("says which argument it was and what to do", () => {
    const bad = broken((b) => delete b.segments[1]!["sha256"]);
    expect(() => compareRequests(request, bad, openai)).toThrow(
      /^next is not a valid fingerprint bundle: segments\[1\]\.sha256: expected a SHA-256/,
    );
    expect(() => simulateCache([request, bad], openai)).toThrow(/^turns\[1\] is not a valid fingerprint bundle/);
  });

  it("never compares as identical when segments lack their hashes (both sides)", () => {
    const noHashes = broken((b) => b.segments.forEach((s) => delete s["sha256"]));
    expect(() => compareRequests(noHashes, noHashes, openai)).toThrow(RequestFormatError);
  });

  it("is refused by simulateCache and by suggestCacheBreakpoints' previous turn", () => {
    expect(issuePath(() => simulateCache([broken((b) => (b.segments[0]!["tokens"] = "3")), request], openai))).toBe(
      "segments[0].tokens",
    );
    const anthropicRequest = { ...request, model: { provider: "anthropic", model: "claude-sonnet-4-5" } };
    const anthropicBundle = toFingerprintBundle(segmentRequest(anthropicRequest, { provider: "anthropic" }));
    const bad = { ...anthropicBundle, total: { ...anthropicBundle.total, segments: 99 } };
    expect(issuePath(() => suggestCacheBreakpoints(anthropicRequest, { previous: bad }))).toBe("total.segments");
  });

  it("keeps the provider check as an InvalidInputError after the structure passes", () => {
    expect(() => compareRequests(bundle, request, { provider: "anthropic" })).toThrow(InvalidInputError);
  });

  it("is refused when a side is not an object at all", () => {
    expect(() => compareRequests(null as never, request, openai)).toThrow(
      /^previous: must be a request, a segmented request/,
    );
    expect(() => compareRequests(request, "bundle" as never, openai)).toThrow(InvalidInputError);
  });
});

describe("parseFingerprintBundle", () => {
  it("returns a stripped copy: unknown keys never pass through", () => {
    const leaky = {
      ...bundle,
      note: "What is the capital of France?",
      segments: bundle.segments.map((s) => ({ ...s, text: "You are terse." })),
    };
    const parsed = parseFingerprintBundle(leaky);
    expect(parsed).not.toBe(leaky);
    expect(parsed).toEqual(bundle);
    expect(JSON.stringify(parsed)).not.toContain("France");
    expect(JSON.stringify(parsed)).not.toContain("terse");
  });

  it("lists shape issues with paths, then applies the consistency checks compareRequests applies", () => {
    let error: unknown;
    try {
      parseFingerprintBundle({ ...bundle, model: 1, requestSha256: "x" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RequestFormatError);
    expect((error as RequestFormatError).issues.map((i) => i.path).sort()).toEqual(["model", "requestSha256"]);
    expect(issuePath(() => parseFingerprintBundle(broken((b) => (b.total["bytes"] = 1))))).toBe("total.bytes");
  });

  it("and toFingerprintBundle strip a received bundle at the top as well as in its segments", () => {
    const leaky = { ...bundle, prompt: "secret" } as FingerprintBundle;
    expect(Object.keys(toFingerprintBundle(leaky))).toEqual(Object.keys(bundle));
    expect(issuePath(() => toFingerprintBundle(broken((b) => delete b.segments[0]!["path"])))).toBe("segments[0].path");
  });
});

describe("the structural bundle check", () => {
  it("accepts every bundle toFingerprintBundle makes, and parse returns it unchanged (property, seed 2101)", () => {
    fc.assert(
      fc.property(requestArb, providerArb, (req, provider) => {
        const b = toFingerprintBundle(segmentRequest(req, { provider }));
        expect(checkFingerprintBundle(b)).toBe(b);
        expect(parseFingerprintBundle(JSON.parse(JSON.stringify(b)))).toEqual(b);
        expect(compareRequests(b, req, { provider }).identical).toBe(true);
      }),
      { seed: 2101, numRuns: 100 },
    );
  });
});
