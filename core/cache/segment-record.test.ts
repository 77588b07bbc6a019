import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NormalizedRequest } from "../formats/types.ts";
import { providerArb, requestArb } from "../test-support/arbitraries.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { sha256Hex } from "../util/hash.ts";
import { commonSegments, compareTurns, toTurn } from "./compare.ts";
import { plainSegment, plainTextJson, segmentJson } from "./segment-record.ts";
import { segmentLazily, segmentWith } from "./segments.ts";

/** The request with its last message's last block changed (or a message appended). */
function edited(req: NormalizedRequest, text: string): NormalizedRequest {
  const last = req.messages.at(-1);
  if (!last) return { ...req, messages: [{ role: "user", content: [{ type: "text", text }] }] };
  return {
    ...req,
    messages: [...req.messages.slice(0, -1), { ...last, content: [...last.content, { type: "text", text }] }],
  };
}

describe("segmentLazily", () => {
  it("gives the very segments segmentWith gives, once read (property, seed 1801)", () => {
    fc.assert(
      fc.property(requestArb, providerArb, (req, provider) => {
        const eager = segmentWith(req, provider, estimateTextTokens);
        const lazy = segmentLazily(req, provider, estimateTextTokens);
        expect(lazy.segments.map(plainSegment)).toEqual(eager.segments);
        expect(lazy.texts).toEqual(eager.texts);
        expect({ ...lazy, segments: [] }).toEqual({ ...eager, segments: [] });
        // Each hash is the SHA-256 of its text.
        lazy.segments.forEach((s, i) => expect(s.sha256).toBe(sha256Hex(lazy.texts[i]!)));
      }),
      { seed: 1801, numRuns: 120 },
    );
  });

  it("with a twin, takes its texts, sizes and hashes for what repeats, and compares as hashing would (property, seed 1802)", () => {
    fc.assert(
      fc.property(requestArb, providerArb, fc.string({ maxLength: 12 }), (req, provider, extra) => {
        const next = edited(req, extra);
        const a = segmentLazily(req, provider, estimateTextTokens);
        const b = segmentLazily(next, provider, estimateTextTokens, a);
        const eager = segmentWith(next, provider, estimateTextTokens);
        expect(b.segments.map(plainSegment)).toEqual(eager.segments);
        // A repeated segment shares the twin's very text string.
        b.texts.forEach((t, i) => {
          if (t === a.texts[i]) expect(Object.is(t, a.texts[i])).toBe(true);
        });
        // On texts (no hash made) the same common prefix as on SHA-256 (a bundle-like turn without texts).
        const ta = toTurn(a, provider, estimateTextTokens);
        const tb = toTurn(b, provider, estimateTextTokens);
        const byHash = commonSegments({ ...ta, texts: null }, tb);
        expect(commonSegments(ta, tb)).toBe(byHash);
        const eagerTurns = [segmentWith(req, provider, estimateTextTokens), eager].map((s) =>
          toTurn(s, provider, estimateTextTokens),
        );
        expect(compareTurns(ta, tb, { provider }, estimateTextTokens)).toEqual(
          compareTurns(eagerTurns[0]!, eagerTurns[1]!, { provider }, estimateTextTokens),
        );
      }),
      { seed: 1802, numRuns: 120 },
    );
  });
});

describe("a plain text's hash, made without writing its JSON", () => {
  /** One user message per text, segmented keeping plain texts (as a counted segmentation does). */
  const hashes = (texts: readonly string[]) => {
    const req: NormalizedRequest = {
      model: { provider: "openai", model: "gpt-4o" },
      tools: [],
      messages: texts.map((text) => ({ role: "user" as const, content: [{ type: "text" as const, text }] })),
    };
    const seg = segmentLazily(req, "openai", estimateTextTokens, undefined, -1, true);
    return seg.segments.flatMap((s, i) =>
      s.kind === "block" ? [{ text: texts[s.messageIndex!]!, json: segmentJson(s, seg.texts[i]!), sha: s.sha256 }] : [],
    );
  };

  it("is the SHA-256 of the block's JSON for every kind of text, short and long (property, seed 1803)", () => {
    const long = "Layout commit latency field runtime budget. ".repeat(12);
    const cases = [
      long, // nothing to escape
      `${long}"quoted" and a back\\slash`,
      `${long}\nnew line\ttab\rreturn\u0001\u001f`,
      `${long}emoji 🙂, Arabic مرحبا, CJK 漢字`,
      `${long}lone \uD800 high`, // written as \ud800 by JSON.stringify
      `${long}lone low \uDC00`,
      `\uD83D${long}`,
      "x".repeat(70_000), // past the scratch buffer
      `${"é".repeat(30_000)}"`,
    ];
    for (const h of hashes(cases)) {
      expect(h.json).toBe(plainTextJson(h.text));
      expect(h.sha).toBe(sha256Hex(h.json));
    }
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", minLength: 200, maxLength: 900 }), { maxLength: 6 }),
        (texts) => {
          for (const h of hashes(texts)) expect(h.sha).toBe(sha256Hex(plainTextJson(h.text)));
        },
      ),
      { seed: 1803, numRuns: 150 },
    );
  });
});
