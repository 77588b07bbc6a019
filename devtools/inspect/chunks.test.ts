import { describe, expect, it } from "vitest";
import { type ChunkMessage, Reassembly, toChunks } from "./chunks.ts";

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

  it("sends a long array given as the value itself", () => {
    const list = Array.from({ length: 12 }, (_, i) => ({ i }));
    expect(send(list, 5).value).toEqual(list);
  });
});
