import { cleanup, screen } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReportSegment } from "../../../core/cache/index.ts";
import { reportFor, reportOf, turnReport } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { CachePrefixView } from "./CachePrefix.tsx";
import { breakpointOffsets, minimumMark, regionBands } from "./model.ts";

describe("Cache prefix", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("names the divergence path and cause when the system prompt's timestamp changed (turn 3)", async () => {
    const report = await turnReport(3);
    renderWithClient(<CachePrefixView report={report} />);
    const d = report.prefix!.divergence!;
    expect(d.cause).toBe("system_changed");
    expect(screen.getByTestId("divergence-path").textContent).toBe(d.path);
    expect(screen.getByTestId("divergence").dataset["cause"]).toBe("system_changed");
    expect(screen.getByTestId("divergence-cause").textContent).toBe("system prompt changed");
    expect(screen.getByTestId("divergence-before").textContent).toContain(d.excerpt!.previous);
    expect(screen.getByTestId("divergence-after").textContent).toContain(d.excerpt!.next);
    expect(screen.getByTestId("cache-strip").dataset["stableBytes"]).toBe(String(report.prefix!.commonPrefix.bytes));
  });

  it("names reordered tools (turn 4)", async () => {
    const report = await turnReport(4);
    renderWithClient(<CachePrefixView report={report} />);
    expect(screen.getByTestId("divergence").dataset["cause"]).toBe("tool_order_changed");
    expect(screen.getByTestId("divergence-path").textContent).toBe(report.prefix!.divergence!.path);
  });

  it("marks the stable segments, the breakpoints and the per-turn simulation", async () => {
    const report = await turnReport(2);
    renderWithClient(<CachePrefixView report={report} />);
    const stable = screen.getAllByTestId("cache-segment").filter((s) => s.dataset["stable"] === "true");
    expect(stable.length).toBe(report.prefix!.commonPrefix.segments);
    expect(screen.getAllByTestId("breakpoint-marker")).toHaveLength(
      report.segments!.segments.filter((s) => s.cacheBreakpoint).length,
    );
    const turns = screen.getAllByTestId("cache-turn-row");
    expect(turns.map((t) => Number(t.dataset["read"]))).toEqual(report.cache!.turns.map((t) => t.cachedReadTokens));
  });

  it("moves the minimum-length marker with the provider's rule", async () => {
    const anthropic = await reportFor("openai-chat", { provider: "anthropic", model: "claude-haiku-4-5" });
    const openai = await reportFor("openai-chat", { provider: "openai" });
    expect(anthropic.cache!.rule.minTokens).not.toBe(openai.cache!.rule.minTokens);
    renderWithClient(<CachePrefixView report={anthropic} />);
    expect(screen.getByTestId("min-marker").dataset["minTokens"]).toBe(String(anthropic.cache!.rule.minTokens));
    cleanup();
    renderWithClient(<CachePrefixView report={openai} />);
    expect(screen.getByTestId("min-marker").dataset["minTokens"]).toBe(String(openai.cache!.rule.minTokens));
  });

  it("places the minimum where the cumulative tokens reach it", () => {
    const seg = (index: number, byteOffset: number, byteLength: number, tokens: number) =>
      ({
        index,
        byteOffset,
        byteLength,
        tokens,
        path: `p${index}`,
        kind: "block",
        region: "messages",
        role: "user",
        messageIndex: 0,
        blockType: "text",
        sha256: "",
        canonicalSha256: "",
        cacheBreakpoint: false,
        preview: "",
      }) as const;
    const segments = [seg(0, 0, 400, 100), seg(1, 400, 400, 100)];
    expect(minimumMark(segments, 800, 150)).toEqual({ minTokens: 150, offset: 600, beyond: false });
    expect(minimumMark(segments, 800, 1024)).toEqual({ minTokens: 1024, offset: 800, beyond: true });
  });

  it("draws one band per run of a region and a marker per breakpoint (property, seed 1903)", () => {
    const region = fc.constantFrom("tools", "system", "messages");
    const segments = fc.array(fc.tuple(region, fc.nat(500), fc.boolean()), { maxLength: 40 }).map((xs) => {
      let offset = 0;
      return xs.map(([r, bytes, breakpoint], index) => {
        const s = {
          index,
          byteOffset: offset,
          byteLength: bytes,
          region: r,
          cacheBreakpoint: breakpoint,
          path: `p${index}`,
        };
        offset += bytes;
        return s as unknown as ReportSegment;
      });
    });
    fc.assert(
      fc.property(segments, (segs) => {
        const bands = regionBands({ segments: segs } as never);
        // Bands cover the prompt in order, each a maximal run of one region.
        const expected: { region: string; start: number; end: number }[] = [];
        for (const s of segs) {
          const last = expected.at(-1);
          if (last?.region === s.region) last.end = s.byteOffset + s.byteLength;
          else expected.push({ region: s.region, start: s.byteOffset, end: s.byteOffset + s.byteLength });
        }
        expect(bands).toEqual(expected);
        expect(breakpointOffsets(segs)).toEqual(
          segs.filter((s) => s.cacheBreakpoint).map((s) => ({ path: s.path, offset: s.byteOffset + s.byteLength })),
        );
      }),
      { seed: 1903, numRuns: 300 },
    );
  });

  it("places a long list's rows at one height, but measures them when a segment shows an image", async () => {
    const long = (image: boolean) =>
      JSON.stringify({
        model: "gpt-4.1",
        messages: Array.from({ length: 260 }, (_, i) => ({
          role: i % 2 ? "assistant" : "user",
          content:
            image && i === 100
              ? [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }]
              : `message ${i}`,
        })),
      });
    renderWithClient(<CachePrefixView report={await reportOf(long(false))} />);
    expect(screen.getByTestId("segment-list").dataset["rows"]).toBe("fixed");
    expect(screen.getAllByTestId("cache-segment")[0]!.dataset["path"]).toBe("messages[0]");
    cleanup();
    renderWithClient(<CachePrefixView report={await reportOf(long(true))} />);
    expect(screen.getByTestId("segment-list").dataset["rows"]).toBe("measured");
  });

  it("shows the legacy vs cache_aware next turn for an assembly request", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<CachePrefixView report={report} />);
    expect(Number(screen.getByTestId("next-turn-cache_aware").dataset["ratio"])).toBe(
      report.nextTurn!.cache_aware.stablePrefixRatio,
    );
    expect(Number(screen.getByTestId("next-turn-legacy").dataset["ratio"])).toBe(
      report.nextTurn!.legacy.stablePrefixRatio,
    );
  });
});
