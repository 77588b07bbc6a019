import { describe, expect, it } from "vitest";
import { RequestFormatError } from "../formats/errors.ts";
import { InvalidInputError, StrataError } from "../util/errors.ts";
import { DEFAULT_LIST_CAP, DEFAULT_MAX_ITEMS } from "./bounds.ts";
import { InspectLimitError } from "./errors.ts";
import { createInspection, inspect } from "./inspect.ts";
import { assemblySample } from "../test-support/samples-assembly.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { parseRequest } from "../request/parse-request.ts";

const MiB = 1024 * 1024;
const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** An OpenAI Chat body of `bytes` or just under, made of the smallest messages there are. */
function tinyMessages(bytes: number): { body: string; count: number } {
  const head = '{"model":"gpt-4o","messages":[';
  const parts: string[] = [];
  let size = head.length + 2;
  for (let i = 0; ; i++) {
    const m = `{"role":"${i % 2 ? "assistant" : "user"}","content":"${i % 10}"}`;
    if (size + m.length + 1 > bytes) break;
    parts.push(m);
    size += m.length + 1;
  }
  return { body: `${head}${parts.join(",")}]}`, count: parts.length };
}

describe("report bounds", () => {
  it("a 1 MiB body of tiny messages gives a report of at most 4 MiB, its long lists cut and named", async () => {
    const { body, count } = tinyMessages(MiB);
    expect(utf8(body)).toBeLessThanOrEqual(MiB);
    const r = await inspect(body);
    expect(utf8(JSON.stringify(r))).toBeLessThanOrEqual(4 * MiB);
    // Nothing silently lost: the request is whole, every cut list says how long it was.
    expect(r.request!.messages).toHaveLength(count);
    expect(r.segments!.segments).toHaveLength(DEFAULT_LIST_CAP);
    expect(r.segments!.totalBytes).toBeGreaterThan(r.segments!.segments.at(-1)!.byteOffset);
    const cut = Object.fromEntries(r.truncated.map((t) => [t.path, t]));
    expect(cut["segments.segments"]).toEqual({
      kind: "truncated",
      path: "segments.segments",
      total: 2 * count,
      shown: DEFAULT_LIST_CAP,
    });
    expect(cut["parts.parts"]).toMatchObject({ total: count, shown: DEFAULT_LIST_CAP });
    expect(cut["assembly.asSent.messages"]).toMatchObject({ total: count, shown: DEFAULT_LIST_CAP });
    // A fingerprint bundle cut short would compare wrongly: it is left out, and said so.
    expect(r.fingerprints).toBeNull();
    expect(cut["fingerprints"]).toEqual({ kind: "truncated", path: "fingerprints", total: 2 * count, shown: 0 });
  });

  it("listCap keeps whole lists up to it, and the same report otherwise", async () => {
    const { body, count } = tinyMessages(8 * 1024);
    const whole = await inspect(body);
    expect(whole.truncated).toEqual([]);
    expect(whole.segments!.segments).toHaveLength(2 * count);
    const cut = await inspect(body, { listCap: 10 });
    expect(cut.segments!.segments).toEqual(whole.segments!.segments.slice(0, 10));
    expect(cut.parts!.parts).toEqual(whole.parts!.parts.slice(0, 10));
    // Each traced order keeps its first entries and its totals over all of them, and says it was cut.
    for (const key of ["legacy", "cache_aware"] as const) {
      const [a, b] = [cut.assembly![key]!, whole.assembly![key]!];
      expect(a).toEqual({ ...b, messages: b.messages.slice(0, 10) });
      expect(b.messages).toHaveLength(count);
    }
    expect(cut.assembly!.asSent!.messages).toEqual(whole.assembly!.asSent!.messages.slice(0, 10));
    expect(cut.truncated.filter((t) => t.path.startsWith("assembly."))).toEqual(
      ["legacy", "cache_aware", "asSent"].map((k) => ({
        kind: "truncated",
        path: `assembly.${k}.messages`,
        total: count,
        shown: 10,
      })),
    );
    expect(cut.prefix).toEqual(whole.prefix);
    expect(cut.cache).toEqual(whole.cache);
    expect(cut.request).toEqual(whole.request);
    expect(await inspect(body, { listCap: 2 * count })).toEqual(whole);
  });

  it("one inspection reports with any cap exactly what inspect gives with that cap, in any order", async () => {
    const { body, count } = tinyMessages(8 * 1024);
    const cases: [string, Parameters<typeof inspect>[1]][] = [
      [body, {}],
      [body, { previous: tinyMessages(6 * 1024).body, contextBudget: { maxInputTokens: 300 } }],
      [JSON.stringify(conversationTurns[2]), { previous: JSON.stringify(conversationTurns[1]) }],
      [JSON.stringify(assemblySample), {}],
    ];
    for (const [input, options] of cases) {
      const caps = [1, 7, count, 2 * count + 5, undefined];
      const expected = new Map<number | undefined, string>();
      for (const cap of caps)
        expected.set(
          cap,
          JSON.stringify(await inspect(input, cap === undefined ? options : { ...options, listCap: cap })),
        );
      // The caps cut the lists differently, so the checks below tell one cap's report from another's.
      if (input === body) expect(new Set(expected.values()).size).toBe(4);
      // Short first, then long, then short again: each report reads as its own inspection's.
      const one = await createInspection(input, options);
      for (const cap of [1, 2 * count + 5, 7, undefined, count, 1])
        expect(JSON.stringify(one.report(cap)), `cap ${cap}`).toBe(expected.get(cap));
      // The options' cap is the default.
      const capped = await createInspection(input, { ...options, listCap: 7 });
      expect(JSON.stringify(capped.report())).toBe(expected.get(7));
    }
  });

  it("a report's listCap is checked like inspect's", async () => {
    const one = await createInspection(tinyMessages(1024).body);
    for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY, "10"])
      expect(() => one.report(bad as number)).toThrow(InvalidInputError);
  });

  it("refuses a request of more than maxItems messages and blocks before building anything", async () => {
    const { body, count } = tinyMessages(4 * 1024);
    const error = await inspect(body, { maxItems: count - 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InspectLimitError);
    expect(error).toBeInstanceOf(StrataError);
    expect(error).toMatchObject({ code: "too_many_messages", field: "messages", limit: count - 1, count });
    expect((await inspect(body, { maxItems: count })).request!.messages).toHaveLength(count);
    // Blocks count too: one message of many blocks is as much work as many messages.
    const blocks = JSON.stringify({
      model: "gpt-4o",
      messages: [{ role: "user", content: Array.from({ length: 50 }, () => ({ type: "text", text: "x" })) }],
    });
    await expect(inspect(blocks, { maxItems: 40 })).rejects.toMatchObject({
      code: "too_many_messages",
      field: "messages[0].content",
    });
  });

  it("a 32 MB body of 1 M messages is refused with a typed error", async () => {
    const m = '{"role":"user","content":"hello, world"}';
    const body = `{"model":"gpt-4o","messages":[${Array.from({ length: 1_000_000 }, () => m).join(",")}]}`;
    expect(body.length).toBeGreaterThan(32_000_000);
    await expect(inspect(body)).rejects.toMatchObject({
      code: "too_many_messages",
      limit: DEFAULT_MAX_ITEMS,
      field: "messages",
      count: 1_000_000,
    });
  });

  it("checks its limit options", async () => {
    for (const bad of [0, -1, 1.5, Number.POSITIVE_INFINITY, "10"]) {
      await expect(inspect("{}", { listCap: bad as number })).rejects.toBeInstanceOf(InvalidInputError);
      await expect(inspect("{}", { maxItems: bad as number })).rejects.toBeInstanceOf(InvalidInputError);
    }
  });

  it("reports bad input exactly as parsing the text does", async () => {
    const nest = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    for (const text of [
      '{"model": "gpt-4o", "messages": [',
      `{"model":"gpt-4o","messages":[{"role":"user","content":${nest(300)}}]}`,
      `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"metadata":{"x":${nest(5000)}}}`,
    ]) {
      const error = await inspect(text).catch((e: unknown) => e);
      const expected = (() => {
        try {
          parseRequest(text);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(RequestFormatError);
      expect(error).toEqual(expected);
      expect((error as RequestFormatError).issues).toEqual((expected as RequestFormatError).issues);
    }
  });
});
