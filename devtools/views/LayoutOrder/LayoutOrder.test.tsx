import { cleanup, screen, within } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TracedMessage } from "../../../core/inspect/index.ts";
import { reportFor, reportOf } from "../../test-support/reports.ts";
import { hasNoInjectedElements, renderWithClient, resetStores } from "../../test-support/render.tsx";
import { LayoutOrderView } from "./LayoutOrder.tsx";
import { provenanceKind } from "../../components/provenance.ts";
import { computeMoves, countMoves, stripBlocks } from "./model.ts";

const traced = (index: number, source: string, chars = 1): TracedMessage => ({
  index,
  role: "user",
  path: `messages[${index}]`,
  part: null,
  source,
  sourceKind: source.split(":")[0]!,
  chars,
  bytes: chars,
  tokens: 1,
  preview: "",
});

describe("Layout order", () => {
  beforeEach(resetStores);
  afterEach(cleanup);

  it("shows legacy and cache_aware side by side, one row per assembled message", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<LayoutOrderView report={report} />);
    for (const layout of ["legacy", "cache_aware"] as const) {
      const column = screen.getByTestId(`layout-column-${layout}`);
      const rows = within(column).getAllByTestId("layout-row");
      expect(rows.map((r) => r.dataset["source"])).toEqual(report.assembly![layout]!.messages.map((m) => m.source));
    }
    expect(screen.getByTestId("layout-column-cache_aware").dataset["selected"]).toBe("true");
  });

  it("lists the messages that move between the layouts", async () => {
    const report = await reportFor("assembly-tiers");
    renderWithClient(<LayoutOrderView report={report} />);
    const moved = computeMoves(report.assembly!.legacy!.messages, report.assembly!.cache_aware!.messages).filter(
      (m) => m.legacy !== m.cacheAware,
    );
    expect(moved.length).toBeGreaterThan(0);
    expect(screen.getAllByTestId("layout-move").map((r) => r.dataset["source"])).toEqual(moved.map((m) => m.source));
    // cache_aware puts attachments before the history: they move up
    const attachment = moved.find((m) => m.kind === "attachment");
    expect(attachment && attachment.cacheAware < attachment.legacy).toBe(true);
  });

  it("pairs repeated sources by occurrence", () => {
    const m = (index: number, source: string) => ({
      index,
      role: "system" as const,
      path: `messages[${index}]`,
      part: null,
      source,
      sourceKind: source.split(":")[0]!,
      chars: 1,
      bytes: 1,
      tokens: 1,
      preview: "",
    });
    expect(
      computeMoves(
        [m(0, "instructions"), m(1, "instructions"), m(2, "input")],
        [m(0, "instructions"), m(1, "input"), m(2, "instructions")],
      ),
    ).toEqual([
      { source: "instructions", kind: "instructions", legacy: 0, cacheAware: 0 },
      { source: "instructions", kind: "instructions", legacy: 1, cacheAware: 2 },
      { source: "input", kind: "input", legacy: 2, cacheAware: 1 },
    ]);
  });

  it("merges long runs of one kind in the strip", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      index: i,
      path: `messages[${i}]`,
      part: null,
      role: "user" as const,
      source: `history:${i}`,
      sourceKind: "history",
      chars: 10,
      bytes: 10,
      tokens: 3,
      preview: "",
    }));
    const blocks = stripBlocks(many);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ kind: "history", count: 100, chars: 1000 });
  });

  it("counts moved messages as computeMoves pairs them, whether or not the orders list the same sources (property, seed 1901)", () => {
    const source = fc.constantFrom("instructions", "input", "history:1", "history:2", "attachment:a", "custom:x");
    const order = fc.array(source, { maxLength: 12 }).map((ss) => ss.map((x, i) => traced(i, x)));
    const twoOrders = fc.oneof(
      order.map((o) => [o, o.map((m) => ({ ...m }))] as const), // the same order: nothing moved
      order.map((o) => [o, o.map((m) => ({ ...m, index: m.index + 1 }))] as const), // same sources, other places
      fc.tuple(order, order),
      order.chain((o) =>
        fc.shuffledSubarray(o, { minLength: o.length }).map((p) => [o, p.map((m, i) => ({ ...m, index: i }))] as const),
      ),
    );
    fc.assert(
      fc.property(twoOrders, ([a, b]) => {
        const expected = computeMoves(a, b).filter((m) => m.legacy !== m.cacheAware).length;
        return (
          countMoves(a, b) === expected &&
          countMoves(b, a) === computeMoves(b, a).filter((m) => m.legacy !== m.cacheAware).length
        );
      }),
      { seed: 1901, numRuns: 500 },
    );
  });

  it("merges runs of one kind in a long strip and labels each run once (property, seed 1902)", () => {
    const reference = (messages: readonly TracedMessage[]) => {
      const blocks: { kind: string; label: string; chars: number; count: number; first: number }[] = [];
      for (const m of messages) {
        const kind = provenanceKind(m.sourceKind);
        const last = blocks.at(-1);
        if (messages.length > 60 && last && last.kind === kind) {
          last.chars += m.chars;
          last.count++;
          last.label = `${kind} ×${last.count}`;
        } else blocks.push({ kind, label: m.source, chars: m.chars, count: 1, first: m.index });
      }
      return blocks;
    };
    const source = fc.constantFrom("instructions", "input", "history:1", "attachment:a");
    const item = fc.tuple(source, fc.nat(50));
    const messages = fc
      .oneof(fc.array(item, { maxLength: 60 }), fc.array(item, { minLength: 61, maxLength: 140 }))
      .map((xs) => xs.map(([x, chars], i) => traced(i, x, chars)));
    fc.assert(
      fc.property(messages, (ms) => {
        expect(stripBlocks(ms)).toEqual(reference(ms));
      }),
      { seed: 1902, numRuns: 300 },
    );
  });

  it("lists every part of a long wire request in a virtualized list", async () => {
    const messages = Array.from({ length: 150 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i}`,
    }));
    const report = await reportOf(JSON.stringify({ model: "gpt-4.1", messages }));
    const parts = report.parts!.parts;
    expect(parts.length).toBeGreaterThan(100);
    renderWithClient(<LayoutOrderView report={report} />);
    const list = screen.getByTestId("layout-parts-list");
    expect(list.dataset["virtualized"]).toBe("true");
    expect(list.dataset["count"]).toBe(String(parts.length));
    // 420 px of 28 px rows in view, and 8 more below them
    const rows = screen.getAllByTestId("layout-part");
    expect(rows.map((r) => r.dataset["path"])).toEqual(parts.slice(0, 23).map((p) => p.path));
    expect(screen.getByTestId("layout-part-rules").textContent).toContain(`${parts.length} parts, scroll for more`);
    // Nothing moves in a plain chat: no re-laid request is offered (nor built).
    expect(screen.queryByTestId("relaid-export")).toBeNull();
  });

  it("shows a wire request's parts as sent, markup in them as text", async () => {
    const hostile = JSON.stringify({
      model: "gpt-4.1",
      messages: [
        {
          role: "user",
          content: '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a>',
        },
      ],
    });
    const report = await reportOf(hostile);
    const { container } = renderWithClient(<LayoutOrderView report={report} />);
    expect(screen.getByTestId("layout-column-as_sent")).toBeTruthy();
    expect(screen.getAllByTestId("layout-row")[0]!.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(hasNoInjectedElements(container)).toBe(true);
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
  });

  it("says which layout a wire request follows, re-lays it in cache_aware and offers the re-laid request", async () => {
    const report = await reportOf(
      JSON.stringify({
        model: "gpt-4.1",
        messages: [
          { role: "system", content: "Describe pictures." },
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello" },
          {
            role: "user",
            content: [
              { type: "image_url", image_url: { url: "https://example.com/p.png" } },
              { type: "text", text: "What is this?" },
            ],
          },
        ],
      }),
    );
    renderWithClient(<LayoutOrderView report={report} />);
    const summary = screen.getByTestId("layout-summary");
    expect(summary.dataset["follows"]).toBe("");
    expect(summary.textContent).toContain(
      "follows neither layout. For cache_aware: messages[3].content[0] (attachment)",
    );
    const relaid = within(screen.getByTestId("layout-column-relaid")).getAllByTestId("layout-row");
    expect(relaid.map((r) => r.dataset["path"])).toEqual([
      "messages[0]",
      "messages[3].content[0]",
      "messages[1]",
      "messages[2]",
      "messages[3].content[1]",
    ]);
    expect(screen.getByTestId("relaid-export").dataset["format"]).toBe("openai-chat");
    expect(Number(screen.getByTestId("layout-next-as-sent").dataset["ratio"])).toBeGreaterThan(0);
    expect(screen.getAllByTestId("layout-part").map((r) => r.dataset["kind"])).toEqual([
      "instructions",
      "history",
      "history",
      "attachment",
      "input",
    ]);
  });
});
