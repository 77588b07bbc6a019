import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportFor, turnReport } from "../../test-support/reports.ts";
import { renderWithClient, resetStores } from "../../test-support/render.tsx";
import { CachePrefixView } from "./CachePrefix.tsx";
import { minimumMark } from "./model.ts";

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
