import { describe, expect, it } from "vitest";
import type { InspectionReport } from "../../core/inspect/index.ts";
import { reportFor } from "../test-support/reports.ts";
import {
  type ChunkMessage,
  Reassembly,
  fingerprintCount,
  toChunks,
  withDerivedFingerprints,
  withoutDerivedFingerprints,
} from "./chunks.ts";

/** What the page receives: each message copied as postMessage copies it. */
function send(value: unknown, chunkItems: number): { value: unknown; messages: ChunkMessage[] } {
  const messages = toChunks(value, chunkItems).map((m) => structuredClone(m));
  const r = new Reassembly();
  let out: { value: unknown } | undefined;
  messages.forEach((m, i) => {
    out = r.add(m);
    if (i < messages.length - 1) expect(out).toBeUndefined();
  });
  return { value: out?.value, messages };
}

describe("report chunks", () => {
  const report = {
    reportVersion: 3,
    request: { messages: Array.from({ length: 25 }, (_, i) => ({ role: "user", content: [{ text: `m${i}` }] })) },
    segments: { segments: Array.from({ length: 9 }, (_, i) => ({ index: i })) },
    nested: [[Array.from({ length: 11 }, (_, i) => i)]],
    small: [1, 2, 3],
    caller: JSON.parse('{"__proto__": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "strataChunk": 1}'),
  };

  it("puts a report back whole, its long arrays sent in slices after the skeleton", () => {
    const { value, messages } = send(report, 5);
    expect(value).toEqual(report);
    expect(Object.hasOwn(value as object, "caller")).toBe(true);
    expect(Object.getOwnPropertyNames((value as typeof report).caller)).toEqual(["__proto__", "strataChunk"]);
    expect(messages[0]!.kind).toBe("skeleton");
    // No message carries more than 5 entries of a long array.
    for (const m of messages.slice(1)) if (m.kind === "slice") expect(m.items.length).toBeLessThanOrEqual(5);
    expect(messages.length).toBe(1 + 5 + 2 + 3 + 3);
  });

  it("sends a small value as it is, in one message, and leaves the value it was given unchanged", () => {
    const small = { a: [1, 2], b: { c: "x" } };
    const { value, messages } = send(small, 5);
    expect(messages).toHaveLength(1);
    expect(value).toEqual(small);
    const before = structuredClone(report);
    send(report, 5);
    expect(report).toEqual(before);
  });

  it("sends a long array found at several places once, and puts the very same array back at each", () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ i }));
    const value = { asSent: { messages: rows }, legacy: { messages: rows }, other: [rows], copy: [...rows] };
    const { value: back, messages } = send(value, 5);
    expect(back).toEqual(value);
    const b = back as typeof value;
    expect(b.legacy.messages).toBe(b.asSent.messages);
    expect(b.other[0]).toBe(b.asSent.messages);
    // An equal array that is another object is its own.
    expect(b.copy).not.toBe(b.asSent.messages);
    // rows once (3 slices) and copy (3 slices), after the skeleton
    expect(messages).toHaveLength(1 + 3 + 3);
  });

  it("sends a long array given as the value itself", () => {
    const list = Array.from({ length: 12 }, (_, i) => ({ i }));
    expect(send(list, 5).value).toEqual(list);
  });

  it("leaves a whole report's fingerprint segments out, and the page makes the very same ones", async () => {
    const report = await reportFor("conversation-turn-2");
    expect(report.fingerprints!.segments.length).toBeGreaterThan(3);
    const lean = withoutDerivedFingerprints(report);
    expect(lean.derived).toBe(true);
    expect(lean.report.fingerprints!.segments).toEqual([]);
    // The report given is not changed; the one made back reads byte for byte as it.
    expect(report.fingerprints!.segments.length).toBeGreaterThan(3);
    const back = withDerivedFingerprints(structuredClone(lean.report) as InspectionReport);
    expect(JSON.stringify(back)).toBe(JSON.stringify(report));
    expect(back.fingerprints!.segments).toBe(back.fingerprints!.segments);
  });

  it("counts fingerprint segments made when read without making them", async () => {
    const report = await reportFor("conversation-turn-2");
    const n = report.fingerprints!.segments.length;
    expect(fingerprintCount(report.fingerprints!)).toBe(n); // sent whole: its own list
    const back = withDerivedFingerprints(structuredClone(withoutDerivedFingerprints(report).report));
    expect(fingerprintCount(back.fingerprints!)).toBe(n);
    // Counting made nothing: the segments are still made from the report's list as it is now.
    (back.segments!.segments as unknown[]).pop();
    expect(back.fingerprints!.segments).toHaveLength(n - 1);
  });

  it("sends fingerprint segments that are not the segments without previews as they are", async () => {
    const report = await reportFor("conversation-turn-2");
    const segments = report.fingerprints!.segments;
    const changed = (i: number, patch: object) => ({
      ...report,
      fingerprints: { ...report.fingerprints!, segments: segments.map((s, j) => (j === i ? { ...s, ...patch } : s)) },
    });
    for (const other of [
      changed(2, { sha256: "0".repeat(64) }),
      changed(0, { extra: 1 }),
      { ...report, fingerprints: { ...report.fingerprints!, segments: segments.slice(1) } },
      { ...report, segments: null },
    ] as InspectionReport[]) {
      const lean = withoutDerivedFingerprints(other);
      expect(lean.derived).toBe(false);
      expect(lean.report).toBe(other);
    }
  });
});
