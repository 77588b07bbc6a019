import { describe, expect, it } from "vitest";
import { harOf, sampleSessionRecords } from "../test-support/samples-session.ts";
import { fromSessionFingerprints } from "./fingerprints.ts";
import { createSessionAnalyzer, inspectSession } from "./inspect-session.ts";
import { parseSession } from "./parse.ts";

const session = parseSession(harOf(sampleSessionRecords, { others: true }));

function analyzed() {
  const analyzer = createSessionAnalyzer({ fingerprints: true });
  for (const e of session.entries) analyzer.add(e);
  const report = analyzer.finish({ kind: session.kind, records: session.records });
  return { report, fingerprints: analyzer.fingerprints("har", session.records)! };
}

describe("hash-only sessions", () => {
  const { report, fingerprints } = analyzed();

  it("carry no prompt text", () => {
    const text = JSON.stringify(fingerprints);
    for (const r of sampleSessionRecords) {
      const messages = (r.request as { messages: { content: unknown }[] }).messages;
      for (const m of messages) {
        const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
        expect(text).not.toContain(content.slice(0, 30));
      }
    }
    expect(text).not.toContain("Harbor");
  });

  it("store each repeated segment once", () => {
    const used = fingerprints.turns.reduce((n, t) => n + t.segments.length, 0);
    expect(fingerprints.segments.length).toBeLessThan(used / 2);
  });

  it("give the same threads, causes, predictions, usage and costs as the session they came from (shared prefixes to the segment)", () => {
    const again = inspectSession(fromSessionFingerprints(JSON.parse(JSON.stringify(fingerprints))));
    const view = (r: typeof report) =>
      r.threads.map((t) =>
        t.turns.map((x) => [
          x.entry,
          x.at,
          x.cause,
          x.predicted,
          x.actual,
          x.cost,
          x.sharedPrefix?.segments,
          x.divergence?.path ?? null,
        ]),
      );
    expect(view(again)).toEqual(view(report));
    expect(again.busts.map((b) => [b.thread, b.turn, b.cause, b.lostTokens])).toEqual(
      report.busts.map((b) => [b.thread, b.turn, b.cause, b.lostTokens]),
    );
    expect(again.input.kind).toBe("fingerprints");
    expect(again.threads[0]!.turns[2]!.divergence!.excerpt).toBe(null);
  });

  it("refuse a payload that is not one, naming the bad field", () => {
    expect(() => fromSessionFingerprints({ kind: "x" })).toThrow(/fingerprints\.kind/);
    const broken = JSON.parse(JSON.stringify(fingerprints));
    broken.turns[1].segments[0] = 10_000;
    expect(() => fromSessionFingerprints(broken)).toThrow(/fingerprints\.turns\[1\]\.segments: expected indexes below/);
    const textSmuggled = JSON.parse(JSON.stringify(fingerprints));
    textSmuggled.segments[0][6] = "You are Harbor";
    expect(() => fromSessionFingerprints(textSmuggled)).toThrow(/fingerprints\.segments\[0\]\[6\]/);
  });
});
