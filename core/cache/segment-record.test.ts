import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NormalizedRequest } from "../formats/types.ts";
import { providerArb, requestArb } from "../test-support/arbitraries.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { sha256Hex } from "../util/hash.ts";
import { commonSegments, compareTurns, toTurn } from "./compare.ts";
import { CONTENT_BLOCK_TYPES, ROLES } from "../messages/types.ts";
import { GEMINI_CHOICE, plainTextJson } from "./segment-json.ts";
import { plainSegment, SegmentRecord, segmentJson } from "./segment-record.ts";
import { type SegmentedRequest, segmentLazily, segmentWith } from "./segments.ts";

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

describe('blocks that keep no text ("sources", as inspect segments)', () => {
  // A count made beforehand reads no text (each segment takes its figure in turn).
  const counted = () => 1;
  const sources = (req: NormalizedRequest, provider: "openai" | "anthropic" | "gemini", twin?: SegmentedRequest) =>
    segmentLazily(req, provider, counted, twin, -1, "sources");

  /** The request edited as `edit` says: appended to, copied into other objects, a message dropped, a call's arguments changed. */
  function editedBy(req: NormalizedRequest, edit: string, extra: string, at: number): NormalizedRequest {
    switch (edit) {
      case "append":
        return edited(req, extra);
      case "copy":
        return edited(structuredClone(req), extra);
      case "drop":
        return { ...req, messages: req.messages.filter((_, i) => i !== at % Math.max(1, req.messages.length)) };
      default: {
        // The `at`-th tool call (counted over the whole request) gets other arguments.
        const calls = req.messages.flatMap((m) => m.content).filter((b) => b.type === "tool_call").length;
        let k = at % Math.max(1, calls);
        const messages = req.messages.map((m) => ({
          ...m,
          content: m.content.map((b) =>
            b.type === "tool_call" && k-- === 0 ? { ...b, arguments: { q: extra, n: 4 } } : b,
          ),
        }));
        return { ...req, messages };
      }
    }
  }

  it("write the JSON, sizes and hashes of kept JSON, and keep no text (property, seed 1804)", () => {
    fc.assert(
      fc.property(requestArb, providerArb, (req, provider) => {
        const eager = segmentWith(req, provider, counted);
        const lazy = sources(req, provider);
        expect(lazy.segments.map(plainSegment)).toEqual(eager.segments);
        expect(lazy.totalBytes).toBe(eager.totalBytes);
        lazy.segments.forEach((s, i) => {
          expect(segmentJson(s, lazy.texts[i]!)).toBe(eager.texts[i]);
          const kept = s.kind !== "block" ? "json" : s.blockType === "text" ? "text" : "source";
          expect((s as SegmentRecord).kept).toBe(kept);
          if (kept === "source") expect(lazy.texts[i]).toBe("");
        });
      }),
      { seed: 1804, numRuns: 120 },
    );
  });

  it("compare with a twin (kept alike or as JSON) as kept JSON does (property, seed 1805)", () => {
    fc.assert(
      fc.property(
        requestArb,
        providerArb,
        fc.string({ maxLength: 12 }),
        fc.nat(),
        fc.constantFrom("append", "copy", "drop", "arguments"),
        (req, provider, extra, at, edit) => {
          const next = editedBy(req, edit, extra, at);
          const a = sources(req, provider);
          const b = sources(next, provider, a);
          const eagerA = segmentWith(req, provider, counted);
          const eagerB = segmentWith(next, provider, counted);
          expect(b.segments.map(plainSegment)).toEqual(eagerB.segments);
          b.segments.forEach((s, i) => expect(segmentJson(s, b.texts[i]!)).toBe(eagerB.texts[i]));
          // Appended to, the turn takes each earlier segment's record itself from its twin.
          if (edit === "append") a.segments.forEach((s, i) => expect(b.segments[i]).toBe(s));
          // With kept JSON as its twin, too (a session's segments).
          const fromJson = sources(next, provider, eagerA);
          expect(fromJson.segments.map(plainSegment)).toEqual(eagerB.segments);
          const [ta, tb, ea, eb] = [a, b, eagerA, eagerB].map((x) => toTurn(x, provider, estimateTextTokens));
          const byJson = compareTurns(ea!, eb!, { provider }, estimateTextTokens);
          expect(commonSegments(ta!, tb!)).toBe(commonSegments(ea!, eb!));
          expect(compareTurns(ta!, tb!, { provider }, estimateTextTokens)).toEqual(byJson);
          expect(compareTurns(ea!, tb!, { provider }, estimateTextTokens)).toEqual(byJson);
          expect(compareTurns(ta!, eb!, { provider }, estimateTextTokens)).toEqual(byJson);
        },
      ),
      { seed: 1805, numRuns: 200 },
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

describe("a record's packed fields", () => {
  type Role = (typeof ROLES)[number] | null;
  type BlockType = (typeof CONTENT_BLOCK_TYPES)[number] | null;
  const record = (role: Role, blockType: BlockType, item: number) =>
    new SegmentRecord(
      3,
      "block",
      "messages",
      role,
      7,
      blockType,
      40,
      12,
      5,
      true,
      "x",
      item,
      true,
      undefined,
      new Map(),
      null,
      "json",
    );

  // Every role and block type Strata knows, null, items that fit (up to 16,382) and items and
  // values that do not: a role or type a caller's unchecked JSON may hold, an item past 16,382.
  const roles: Role[] = [null, ...ROLES, "narrator" as unknown as Role, 4 as unknown as Role];
  const types: BlockType[] = [null, ...CONTENT_BLOCK_TYPES, "video" as unknown as BlockType];
  const items = [-1, 0, GEMINI_CHOICE, 9, 16_381, 16_382, 16_383, 32_767, 70_000, 2 ** 40, -2];

  it("reads back the role, block type and item it was made with, packed or not", () => {
    for (const role of roles)
      for (const blockType of types)
        for (const item of items) {
          const r = record(role, blockType, item);
          expect([r.role, r.blockType, r.path]).toEqual([role, blockType, `messages[7].content[${item}]`]);
          expect([r.kind, r.region, r.cacheBreakpoint, r.plainText, r.tokens]).toEqual([
            "block",
            "messages",
            true,
            false,
            5,
          ]);
          const moved = r.shifted(2, 100, 1);
          expect([moved.index, moved.role, moved.blockType, moved.path, moved.byteOffset]).toEqual([
            5,
            role,
            blockType,
            `messages[8].content[${item}]`,
            140,
          ]);
        }
  });

  it("matches a record made with the same fields only", () => {
    const wideRole = "narrator" as unknown as Role;
    const cases: [Role, BlockType, number][] = [
      ["user", "text", 0],
      [null, null, -1],
      ["tool", "tool_result", 16_382],
      ["assistant", "tool_call", 16_383],
      ["user", "text", 70_000],
      [wideRole, "text", 0],
      ["user", "video" as unknown as BlockType, 3],
    ];
    for (const [role, blockType, item] of cases) {
      const r = record(role, blockType, item);
      const same = (ro: Role, bt: BlockType, it: number) =>
        r.matches(3, "block", "messages", ro, 7, bt, 40, 5, true, it, true);
      expect(same(role, blockType, item)).toBe(true);
      expect(same(role === "user" ? "assistant" : "user", blockType, item)).toBe(false);
      expect(same(role, blockType === "text" ? "image" : "text", item)).toBe(false);
      expect(same(role, blockType, item + 1)).toBe(false);
      expect(same(role, blockType, 70_001)).toBe(false);
      expect(same(wideRole === role ? "user" : wideRole, blockType, item)).toBe(false);
    }
  });

  it("segments a message past 32,767 blocks with every block's own path", () => {
    const n = 33_000;
    const req: NormalizedRequest = {
      model: { provider: "openai", model: "gpt-4o" },
      tools: [],
      messages: [
        {
          role: "user",
          content: Array.from({ length: n }, (_, j) => ({ type: "text" as const, text: `b${j}` })),
        },
      ],
    };
    const seg = segmentLazily(req, "openai", estimateTextTokens);
    const blocks = seg.segments.filter((s) => s.kind === "block");
    expect(blocks).toHaveLength(n);
    blocks.forEach((s, j) => {
      if (j % 997 === 0 || j >= 32_760) expect(s.path).toBe(`messages[0].content[${j}]`);
    });
    expect(blocks.every((s) => s.role === "user" && s.blockType === "text")).toBe(true);
  });
});
