import { describe, expect, it } from "vitest";
import { simulateCache } from "../cache/simulate.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { findModel } from "../formats/models.ts";
import { toOpenAIChat } from "../formats/openai-chat.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import { harOf, jsonlOf, sampleSessionRecords, type SessionRecord } from "../test-support/samples-session.ts";
import { createSessionInspector, inspectSession } from "./inspect-session.ts";
import { parseSession } from "./parse.ts";
import type { SessionReport } from "./types.ts";

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 8, 14) + seconds * 1000).toISOString();
const usage = (read: number, write: number, output = 30) => ({
  type: "message",
  usage: { input_tokens: 4, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: output },
});
const record = (request: object, seconds: number | null, response?: unknown): SessionRecord => ({
  time: seconds === null ? "" : at(seconds),
  request: request as Record<string, unknown>,
  response,
});
/** The four conversation turns, a minute apart, each with a response that reports usage. */
const conversation = conversationTurns.map((r, i) => record(r, 60 * i, usage(1000 + i, 50 + i)));

const report = (records: readonly SessionRecord[]) => inspectSession(parseSession(harOf(records)));
const causes = (r: SessionReport) => r.threads.map((t) => t.turns.map((x) => x.cause));

describe("inspectSession: one conversation", () => {
  const r = report(conversation);
  const turns = r.threads[0]!.turns;

  it("keeps the four turns in one thread with the cause of each", () => {
    expect(r.threads.map((t) => [t.id, t.provider, t.model, t.turns.length])).toEqual([
      ["t1", "anthropic", "claude-sonnet-4-5", 4],
    ]);
    expect(causes(r)).toEqual([["first", "appended", "system_changed", "tool_order_changed"]]);
    expect(turns.map((t) => t.previous)).toEqual([
      null,
      { turn: 1, entry: 0 },
      { turn: 2, entry: 1 },
      { turn: 3, entry: 2 },
    ]);
    expect(turns.map((t) => t.gapSeconds)).toEqual([null, 60, 60, 60]);
  });

  it("predicts the same read, write and uncached tokens as simulateCache on the same turns", () => {
    const requests = parseSession(harOf(conversation)).entries.map((e) => e.request as NormalizedRequest);
    const sim = simulateCache(requests, { provider: "anthropic" });
    expect(
      turns.map((t) => [t.predicted.input, t.predicted.cacheRead, t.predicted.cacheWrite, t.predicted.uncached]),
    ).toEqual(sim.turns.map((t) => [t.totalTokens, t.cachedReadTokens, t.cacheWriteTokens, t.uncachedTokens]));
    expect(turns[1]!.predicted.cacheRead).toBeGreaterThan(0);
  });

  it("lists the two busts with their root cause, each linking the two turns", () => {
    expect(r.busts.map((b) => [b.thread, b.turn, b.entry, b.previousTurn, b.previousEntry, b.cause])).toEqual([
      ["t1", 3, 2, 2, 1, "system_changed"],
      ["t1", 4, 3, 3, 2, "tool_order_changed"],
    ]);
    // turn 3 still reads the tools; turn 4 reads nothing of what turn 3 cached
    expect(r.busts[0]!.lostTokens).toBe(
      turns[1]!.predicted.cacheRead + turns[1]!.predicted.cacheWrite - turns[2]!.predicted.cacheRead,
    );
    expect(r.busts[1]!.lostTokens).toBe(turns[2]!.predicted.cacheRead + turns[2]!.predicted.cacheWrite);
  });

  it("sets the usage each response reported against the prediction", () => {
    const t = turns[1]!;
    expect(t.actual).toEqual({ input: 4 + 1001 + 51, cacheRead: 1001, cacheWrite: 51, cacheWrite1h: 0, output: 30 });
    expect(t.difference).toEqual({
      input: t.actual!.input - t.predicted.input,
      cacheRead: t.actual!.cacheRead - t.predicted.cacheRead,
      cacheWrite: t.actual!.cacheWrite - t.predicted.cacheWrite,
    });
    expect(r.totals.actual).toMatchObject({ turns: 4, cacheRead: 1000 + 1001 + 1002 + 1003, output: 120 });
  });

  it("prices each turn from the model table: uncached input, 5-minute writes, reads and output", () => {
    const p = findModel("claude-sonnet-4-5", "anthropic").row!.prices;
    const a = turns[0]!.actual!;
    const cost = turns[0]!.cost!;
    expect(cost.basis).toBe("actual");
    expect(cost.input).toBeCloseTo((4 * p.input) / 1e6, 9);
    expect(cost.cacheWrite).toBeCloseTo((a.cacheWrite * p.cacheWrite5m!) / 1e6, 9);
    expect(cost.cacheRead).toBeCloseTo((a.cacheRead * p.cacheRead!) / 1e6, 9);
    expect(cost.output).toBeCloseTo((30 * p.output) / 1e6, 9);
    expect(cost.total).toBeCloseTo(cost.input + cost.cacheWrite + cost.cacheRead + cost.output, 9);
    expect(cost.withoutCaching).toBeCloseTo((a.input * p.input + 30 * p.output) / 1e6, 9);
    const sum = turns.reduce((s, t) => s + t.cost!.total, 0);
    expect(r.totals.cost.withCaching).toBeCloseTo(sum, 9);
    expect(r.totals.cost.basis).toBe("actual");
    expect(r.totals.cost.savings).toBeCloseTo(r.totals.cost.withoutCaching - r.totals.cost.withCaching, 9);
  });

  it("prices a turn without a response from the prediction, output unknown", () => {
    const bare = report(conversation.map((c) => ({ ...c, response: undefined })));
    const t = bare.threads[0]!.turns[0]!;
    const p = findModel("claude-sonnet-4-5", "anthropic").row!.prices;
    expect(t.actual).toBe(null);
    expect(t.cost).toMatchObject({ basis: "predicted", output: 0 });
    expect(t.cost!.cacheWrite).toBeCloseTo((t.predicted.cacheWrite * p.cacheWrite5m!) / 1e6, 9);
  });

  it("gives the same threads, causes and figures from the JSONL log", () => {
    const fromJsonl = inspectSession(parseSession(jsonlOf(conversation)));
    const strip = (x: SessionReport) => x.threads.map((t) => t.turns.map(({ at: _a, ...rest }) => rest));
    expect(strip(fromJsonl)).toEqual(strip(r));
    expect(fromJsonl.input.kind).toBe("jsonl");
  });

  it("is plain JSON, and the same every time", () => {
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(JSON.stringify(report(conversation))).toBe(JSON.stringify(r));
  });
});

describe("inspectSession: cache lifetimes", () => {
  const twoTurns = (gapSeconds: number, ttl?: "1h") => {
    // every marker (tools, system, last user block) with the given lifetime
    const mark = (req: (typeof conversationTurns)[number]) =>
      ttl
        ? (JSON.parse(
            JSON.stringify(req).replaceAll(
              '"cache_control":{"type":"ephemeral"}',
              `"cache_control":{"type":"ephemeral","ttl":"${ttl}"}`,
            ),
          ) as typeof req)
        : req;
    return report([record(mark(conversationTurns[0]), 0), record(mark(conversationTurns[1]), gapSeconds)]);
  };

  it("says the cache expired when a 6-minute pause outlives Anthropic's 5-minute lifetime", () => {
    const r = twoTurns(360);
    const t = r.threads[0]!.turns[1]!;
    expect(t.cause).toBe("appended");
    expect(t.predicted.expired).toBe(true);
    expect(t.predicted.cacheRead).toBe(0);
    expect(t.predicted.notes.join(" ")).toMatch(/expired: 6 min 0 s since it was last used, beyond its 5 min lifetime/);
    expect(r.busts).toEqual([
      expect.objectContaining({
        thread: "t1",
        turn: 2,
        previousTurn: 1,
        cause: "ttl_expired",
        lostTokens: r.threads[0]!.turns[0]!.predicted.cacheWrite,
      }),
    ]);
    expect(r.settings.timestamps).toBe(true);
  });

  it("reads the cache after a 4-minute pause", () => {
    const t = twoTurns(240).threads[0]!.turns[1]!;
    expect(t.predicted.expired).toBe(false);
    expect(t.predicted.cacheRead).toBeGreaterThan(0);
  });

  it("keeps 1-hour entries through a 6-minute pause, and prices their writes at the 1-hour rate", () => {
    const r = twoTurns(360, "1h");
    const [first, second] = r.threads[0]!.turns;
    expect(second!.predicted.expired).toBe(false);
    expect(second!.predicted.cacheRead).toBeGreaterThan(0);
    expect(first!.predicted.cacheWrite1h).toBeGreaterThan(0);
    const p = findModel("claude-sonnet-4-5", "anthropic").row!.prices;
    const w = first!.predicted;
    expect(first!.cost!.cacheWrite).toBe(
      Math.round((w.cacheWrite - w.cacheWrite1h) * p.cacheWrite5m! + w.cacheWrite1h * p.cacheWrite1h!) / 1e6,
    );
  });

  it("a read refreshes the lifetime: three turns 4 minutes apart all hit", () => {
    const r = report([0, 240, 480].map((s, i) => record(conversationTurns[i === 2 ? 1 : i]!, s)));
    expect(r.threads[0]!.turns.map((t) => t.predicted.expired)).toEqual([false, false, false]);
    expect(r.threads[0]!.turns[2]!.predicted.cacheRead).toBeGreaterThan(0);
  });

  it("without times, takes every turn to arrive within the lifetime and says so", () => {
    const r = inspectSession(parseSession(conversationTurns.map((t) => JSON.stringify(t)).join("\n")));
    expect(r.settings.timestamps).toBe(false);
    expect(r.threads[0]!.turns.map((t) => t.gapSeconds)).toEqual([null, null, null, null]);
    expect(r.assumptions).toContain("The input has no times: every turn is taken to arrive within the cache lifetime.");
  });
});

/** A dispatcher conversation of the same assistant with other questions (turn n has n user messages). */
function otherConversation(n: number) {
  const base = conversationTurns[0];
  const asks = ["Which vessel is booked for BRL-2026-11901?", "When does it leave Antwerp?", "And the cut-off?"];
  const messages: object[] = [];
  for (let i = 0; i < n; i++) {
    messages.push({ role: "user", content: asks[i]! });
    if (i < n - 1) messages.push({ role: "assistant", content: `Answer ${i + 1}.` });
  }
  return { ...base, messages };
}

describe("inspectSession: threads", () => {
  it("takes two interleaved conversations apart, and the second reads the prefix the first cached", () => {
    const r = report([
      record(conversationTurns[0], 0),
      record(otherConversation(1), 20),
      record(conversationTurns[1], 40),
      record(otherConversation(2), 60),
      record(otherConversation(3), 80),
      record(conversationTurns[2], 100),
    ]);
    expect(r.threads.map((t) => t.turns.map((x) => x.entry))).toEqual([
      [0, 2, 5],
      [1, 3, 4],
    ]);
    expect(causes(r)).toEqual([
      ["first", "appended", "system_changed"],
      ["first", "appended", "appended"],
    ]);
    expect(r.threads[1]!.turns[0]!.predicted.notes[0]).toMatch(/from the entry written by t1 turn 1/);
  });

  it("follows the sample session: two dispatchers, a 6-minute pause, a re-ordered tool list", () => {
    const r = inspectSession(parseSession(harOf(sampleSessionRecords, { others: true })));
    expect(r.threads.map((t) => t.turns.map((x) => x.entry))).toEqual([
      [2, 4, 6, 7],
      [3, 5],
    ]);
    expect(causes(r)).toEqual([
      ["first", "appended", "system_changed", "tool_order_changed"],
      ["first", "appended"],
    ]);
    // turn 3 of t1 comes 6 min 38 s after turn 2: expired as well as busted by the system prompt
    const t3 = r.threads[0]!.turns[2]!;
    expect(t3.gapSeconds).toBe(397.83);
    expect(t3.predicted.expired).toBe(true);
    expect(r.busts.map((b) => [b.thread, b.turn, b.cause])).toEqual([
      ["t1", 3, "system_changed"],
      ["t1", 4, "tool_order_changed"],
    ]);
    expect(r.skipped).toMatchObject({
      count: 2,
      reasons: [
        { code: "not_a_provider_endpoint", count: 1 },
        { code: "not_a_post", count: 1 },
      ],
    });
    expect(r.totals).toMatchObject({ turns: 6, busts: 2 });
  });

  it("keeps conversations with different prompt_cache_keys apart even when they start alike", () => {
    const chat = (key: string, n: number) => ({
      ...toOpenAIChat(parseSession(JSON.stringify(otherConversation(n))).entries[0]!.request as NormalizedRequest).body,
      prompt_cache_key: key,
    });
    const r = report(
      [record(chat("a", 1), 0), record(chat("b", 1), 10), record(chat("a", 2), 20), record(chat("b", 2), 30)].map(
        (x) => ({ ...x, url: "https://api.openai.com/v1/chat/completions" }),
      ),
    );
    expect(r.threads.map((t) => [t.key, t.turns.map((x) => x.entry)])).toEqual([
      ["a", [0, 2]],
      ["b", [1, 3]],
    ]);
  });

  it("recognises a history window that slides, in the same thread", () => {
    const shifted = { ...otherConversation(3), messages: otherConversation(3).messages.slice(2) };
    const r = report([record(otherConversation(2), 0), record(shifted, 30)]);
    expect(causes(r)).toEqual([["first", "history_window_shifted"]]);
  });

  it("predicts OpenAI's automatic caching like simulateCache does", () => {
    // An OpenAI model: a Claude model in a Chat body is cached by Anthropic's rules (an OpenAI-compatible router).
    const requests = conversationTurns.map((t) => {
      const request = parseSession(JSON.stringify(t)).entries[0]!.request as NormalizedRequest;
      return toOpenAIChat({ ...request, model: { provider: "openai", model: "gpt-4.1" } }).body;
    });
    const r = inspectSession(parseSession(requests.map((q) => JSON.stringify(q)).join("\n")));
    const parsed = parseSession(requests.map((q) => JSON.stringify(q)).join("\n")).entries.map(
      (e) => e.request as NormalizedRequest,
    );
    const sim = simulateCache(parsed, { provider: "openai" });
    expect(r.threads.map((t) => t.provider)).toEqual(["openai"]);
    expect(r.threads[0]!.turns.map((t) => t.predicted.cacheRead)).toEqual(sim.turns.map((t) => t.cachedReadTokens));
  });
});

describe("inspectSession: bad input", () => {
  it("answers a HAR with no model requests with a clear problem and an empty report", () => {
    const har = harOf(sampleSessionRecords.slice(0, 1), { others: true });
    const noModel = JSON.parse(har) as { log: { entries: unknown[] } };
    noModel.log.entries = noModel.log.entries.slice(0, 2);
    const r = inspectSession(parseSession(JSON.stringify(noModel)));
    expect(r.threads).toEqual([]);
    expect(r.problems).toEqual([
      {
        code: "no_llm_requests",
        message: "None of the 2 records is a model request Strata reads (1 not a provider endpoint, 1 not a post).",
        line: null,
        column: null,
      },
    ]);
    expect(r.totals.cost.basis).toBe("none");
  });

  it("answers a truncated HAR with the turns before the cut and the problem", () => {
    const text = harOf(conversation);
    const r = inspectSession(parseSession(text.slice(0, Math.floor(text.length * 0.8))));
    expect(r.problems.map((p) => p.code)).toEqual(["truncated"]);
    expect(r.threads[0]!.turns.length).toBeGreaterThan(0);
  });

  it("counts a request the rule table cannot take as skipped, and goes on", () => {
    const r = inspectSession(parseSession(jsonlOf(conversation)), { rules: [] });
    expect(r.threads).toEqual([]);
    expect(r.skipped.reasons).toEqual([
      { code: "invalid_request", count: 4, example: expect.stringMatching(/no cache rule matches/) },
    ]);
  });

  it("refuses what is not a session", () => {
    expect(() => inspectSession("x" as never)).toThrow(/session: must be a session from parseSession/);
  });
});

describe("createSessionInspector", () => {
  it("gives the report inspectSession gives, from chunks", () => {
    const text = harOf(sampleSessionRecords, { others: true });
    const inspector = createSessionInspector();
    for (let i = 0; i < text.length; i += 997) inspector.push(text.slice(i, i + 997));
    expect(inspector.progress).toEqual({ records: 8, turns: 6, skipped: 2 });
    expect(inspector.finish()).toEqual(inspectSession(parseSession(text)));
  });
});

describe("inspectSession: many threads", () => {
  it("keeps causes right when more threads interleave than keep their texts", () => {
    const n = 20;
    const conv = (i: number, turns: number) => {
      const messages: object[] = [];
      for (let t = 0; t < turns; t++) {
        messages.push({ role: "user", content: `Dispatcher ${i}, question ${t}` });
        if (t < turns - 1) messages.push({ role: "assistant", content: `Answer ${t}` });
      }
      return { ...conversationTurns[0], messages };
    };
    const records: SessionRecord[] = [];
    for (let t = 1; t <= 3; t++) for (let i = 0; i < n; i++) records.push(record(conv(i, t), t * 100 + i));
    const r = report(records);
    expect(r.threads).toHaveLength(n);
    expect(new Set(r.threads.map((t) => t.turns.map((x) => x.cause).join()))).toEqual(
      new Set(["first,appended,appended"]),
    );
    expect(r.threads.every((t) => t.turns[2]!.predicted.cacheRead > 0)).toBe(true);
  });
});
