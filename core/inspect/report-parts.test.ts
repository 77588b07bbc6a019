import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { segmentWith } from "../cache/segments.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import type { JsonValue } from "../messages/types.ts";
import { estimateTextTokens } from "../tokens/estimate.ts";
import { foldWhitespace, safeSlice } from "../util/text.ts";
import { ListCap } from "./bounds.ts";
import { reportSegments } from "./report-parts.ts";

/** A segment's preview as it was written before long pieces were cut ahead of the join. */
const reference = (s: string) => foldWhitespace(safeSlice(s, 0, 80));
const shortBefore = (v: unknown) => (typeof v === "string" ? v.slice(0, 200) : (JSON.stringify(v) ?? "").slice(0, 200));

describe("report segment previews", () => {
  it("cut a tool call's arguments, a result and a URL before joining them, with the same preview as uncut", () => {
    const unit = fc.constantFrom("a", " ", "  ", "\n", "\ud83d\ude00", String.fromCharCode(0xd83d), "é", '"');
    const text = fc.array(unit, { minLength: 0, maxLength: 160, size: "max" }).map((u) => u.join(""));
    const args = fc.oneof(
      text,
      text.map((t): JsonValue => ({ query: t, n: 3 })),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), args, text, text, (name, a, result, url) => {
        const request: NormalizedRequest = {
          model: { provider: "openai", model: "gpt-4.1" },
          tools: [],
          messages: [
            { role: "user", content: [{ type: "image", url: `https://example.com/${url}` }] },
            { role: "assistant", content: [{ type: "tool_call", id: "c1", name, arguments: a }] },
            { role: "tool", content: [{ type: "tool_result", toolCallId: "c1", name, result }] },
          ],
        };
        const seg = segmentWith(request, "openai", estimateTextTokens);
        const previews = new Map(
          reportSegments(seg, request, new ListCap(1000)).segments.map((s) => [s.path, s.preview]),
        );
        expect(previews.get("messages[0].content[0]")).toBe(reference(`[image https://example.com/${url}]`));
        expect(previews.get("messages[1].content[0]")).toBe(reference(`${name}(${shortBefore(a)})`));
        expect(previews.get("messages[2].content[0]")).toBe(reference(`→ ${shortBefore(result)}`));
      }),
      { numRuns: 300 },
    );
  });
});
