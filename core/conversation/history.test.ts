import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HistoryValidationError } from "./errors.ts";
import { InvalidInputError } from "../util/errors.ts";
import type { Message } from "../messages/index.ts";
import {
  assistantMessage,
  systemMessage,
  toolCallBlock,
  toolResultBlock,
  toolResultMessage,
  userMessage,
} from "../messages/index.ts";
import { HISTORY_ISSUE_CODES, assertValidHistory, validateHistory } from "./history.ts";

const calls = (...ids: string[]): Message => ({
  role: "assistant",
  content: ids.map((id) => toolCallBlock(id, "lookup", { q: id })),
});
const answer = (...ids: string[]): Message => ({
  role: "tool",
  content: ids.map((id) => toolResultBlock(id, "lookup", "ok")),
});
const codes = (messages: readonly Message[]) => validateHistory(messages).map((i) => `${i.index}:${i.code}`);

describe("validateHistory", () => {
  it.each([
    ["an empty history", []],
    ["plain turns", [systemMessage("s"), userMessage("u"), assistantMessage("a")]],
    [
      "a call, its response and the assistant's reply",
      [userMessage("u"), calls("c1"), answer("c1"), assistantMessage("done")],
    ],
    [
      "parallel calls answered by consecutive tool messages in any order",
      [userMessage("u"), calls("a", "b", "c"), answer("c"), answer("a"), answer("b"), assistantMessage("ok")],
    ],
    ["parallel calls answered by one tool message", [calls("a", "b"), answer("b", "a"), assistantMessage("ok")]],
    [
      "a history that ends with tool responses",
      [userMessage("u"), calls("c1"), toolResultMessage("c1", "lookup", { ok: true })],
    ],
    [
      "a tool call followed by another tool call",
      [calls("a"), answer("a"), calls("b"), answer("b"), assistantMessage("x")],
    ],
    [
      "text next to the tool call in the same assistant message",
      [{ role: "assistant", content: [{ type: "text", text: "let me check" }, toolCallBlock("a", "f")] }, answer("a")],
    ],
  ] as const)("accepts %s", (_what, messages) => {
    expect(validateHistory(messages as readonly Message[])).toEqual([]);
    expect(() => assertValidHistory(messages as readonly Message[])).not.toThrow();
  });

  it.each([
    ["a tool call at the end", [userMessage("u"), calls("c1")], ["1:tool_call_without_response"]],
    ["a tool call followed by a user message", [calls("c1"), userMessage("u")], ["0:tool_call_without_response"]],
    [
      "a call id without a response",
      [calls("a", "b"), answer("a"), assistantMessage("x")],
      ["0:missing_tool_response"],
    ],
    [
      "a response to an id that was not called",
      [calls("a"), answer("a"), answer("zzz"), assistantMessage("x")],
      ["2:extra_tool_response"],
    ],
    ["two responses to one call", [calls("a"), answer("a"), answer("a")], ["2:extra_tool_response"]],
    ["an orphan tool message at the start", [answer("a"), assistantMessage("x")], ["0:orphan_tool_response"]],
    ["an orphan tool message after a user turn", [userMessage("u"), answer("a")], ["1:orphan_tool_response"]],
    [
      "an orphan tool message after an assistant reply",
      [calls("a"), answer("a"), assistantMessage("x"), answer("a")],
      ["3:orphan_tool_response"],
    ],
    [
      "a user message right after tool responses",
      [calls("a"), answer("a"), userMessage("u")],
      ["2:non_assistant_after_tool_response"],
    ],
    [
      "a system message right after tool responses",
      [calls("a"), answer("a"), systemMessage("s")],
      ["2:non_assistant_after_tool_response"],
    ],
    ["a call id used twice", [calls("a", "a"), answer("a")], ["0:duplicate_tool_call_id"]],
    [
      "a tool message without a result block",
      [calls("a"), { role: "tool", content: [{ type: "text", text: "ok" }] }, answer("a")],
      ["1:tool_message_without_result"],
    ],
    [
      "several problems, ordered by index",
      [answer("x"), calls("a", "b"), answer("a"), userMessage("u")],
      ["0:orphan_tool_response", "1:missing_tool_response", "3:non_assistant_after_tool_response"],
    ],
  ] as const)("reports %s", (_what, messages, expected) => {
    expect(codes(messages as readonly Message[])).toEqual(expected);
  });

  it("says what to fix, naming the ids", () => {
    const [issue] = validateHistory([calls("a", "b"), answer("a")]);
    expect(issue!.message).toContain('"b"');
    expect(issue!.message).toMatch(/add a tool result/);
  });

  it.each<[string, readonly Message[], string]>([
    [
      "one call followed by a user message",
      [calls("c1"), userMessage("u")],
      'assistant tool call "c1" is followed by a "user" message: add the tool message answering it right after messages[0].',
    ],
    [
      "two calls followed by a user message",
      [calls("a", "b"), userMessage("u")],
      'assistant tool calls "a", "b" are followed by a "user" message: add the tool messages answering them right after messages[0].',
    ],
    [
      "one call followed by an assistant message",
      [calls("c1"), assistantMessage("a")],
      'assistant tool call "c1" is followed by an "assistant" message: add the tool message answering it right after messages[0].',
    ],
    [
      "one call ending the history",
      [userMessage("u"), calls("c1")],
      'assistant tool call "c1" ends the history: add the tool message answering it right after messages[1].',
    ],
    [
      "two calls ending the history",
      [calls("a", "b")],
      'assistant tool calls "a", "b" end the history: add the tool messages answering them right after messages[0].',
    ],
    [
      "one call without a response in one tool message",
      [calls("a", "b"), answer("a"), assistantMessage("x")],
      'tool call "b" has no response in messages[1]: add a tool result for it.',
    ],
    [
      "two calls without a response in two tool messages",
      [calls("a", "b", "c"), answer("a"), answer("a"), assistantMessage("x")],
      'tool calls "b", "c" have no response in messages[1..2]: add a tool result for each.',
    ],
    [
      "a result for an id one call did not make",
      [calls("a"), answer("a", "z"), assistantMessage("x")],
      'tool result answers "z", which messages[0] did not call (call: "a"): fix its toolCallId or remove it.',
    ],
    [
      "a result for an id two calls did not make",
      [calls("a", "b"), answer("a", "b", "z"), assistantMessage("x")],
      'tool result answers "z", which messages[0] did not call (calls: "a", "b"): fix its toolCallId or remove it.',
    ],
    [
      "a user message after one tool response",
      [calls("a"), answer("a"), userMessage("u")],
      '"user" message follows the tool response to messages[0]: the next message must be the assistant\'s (add its reply before this one).',
    ],
    [
      "a user message after two tool responses",
      [calls("a", "b"), answer("a"), answer("b"), userMessage("u")],
      '"user" message follows the tool responses to messages[0]: the next message must be the assistant\'s (add its reply before this one).',
    ],
  ])("agrees in number in every sentence: %s", (_what, messages, message) => {
    expect(validateHistory(messages).map((i) => i.message)).toContain(message);
  });

  it("has a code for every rule", () => {
    expect(Object.values(HISTORY_ISSUE_CODES)).toEqual(
      expect.arrayContaining([
        "tool_call_without_response",
        "missing_tool_response",
        "extra_tool_response",
        "orphan_tool_response",
        "non_assistant_after_tool_response",
      ]),
    );
  });

  it("throws HistoryValidationError carrying every issue", () => {
    let thrown: unknown;
    try {
      assertValidHistory([answer("x"), calls("a")]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HistoryValidationError);
    expect((thrown as HistoryValidationError).issues.map((i) => i.code)).toEqual([
      "orphan_tool_response",
      "tool_call_without_response",
    ]);
    expect((thrown as HistoryValidationError).code).toBe("invalid_history");
  });

  it("rejects a non-array", () => {
    expect(() => validateHistory({} as never)).toThrow(InvalidInputError);
  });
});

/** A valid conversation: turns of user / assistant, where an assistant may call tools that are then answered. */
const validConversation: fc.Arbitrary<Message[]> = fc
  .record({
    system: fc.boolean(),
    turns: fc.array(
      fc.record({
        userText: fc.string({ maxLength: 8 }),
        rounds: fc.array(
          fc.record({
            calls: fc.integer({ min: 1, max: 4 }),
            order: fc.array(fc.nat(), { maxLength: 4 }),
            split: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
          }),
          { maxLength: 3 },
        ),
        reply: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
  })
  .map(({ system, turns }) => {
    const messages: Message[] = system ? [systemMessage("You are helpful.")] : [];
    let next = 0;
    turns.forEach((turn, t) => {
      messages.push(userMessage(turn.userText));
      turn.rounds.forEach((round, r) => {
        const ids = Array.from({ length: round.calls }, () => `call_${next++}`);
        messages.push(calls(...ids));
        // Answer every id exactly once, in a shuffled order, split over one or more tool messages.
        const order = [...ids];
        round.order.forEach((k, i) => {
          const j = k % order.length;
          [order[i % order.length], order[j]] = [order[j]!, order[i % order.length]!];
        });
        let group: string[] = [];
        order.forEach((id, i) => {
          group.push(id);
          if (i === order.length - 1 || round.split[i]) {
            messages.push(answer(...group));
            group = [];
          }
        });
        const lastRoundOfLastTurn = t === turns.length - 1 && r === turn.rounds.length - 1;
        if (!lastRoundOfLastTurn || turn.reply) messages.push(assistantMessage("done"));
      });
      if (turn.rounds.length === 0) messages.push(assistantMessage("reply"));
    });
    return messages;
  });

describe("validateHistory properties", () => {
  it("accepts any conversation generated as valid", () => {
    fc.assert(
      fc.property(validConversation, (messages) => {
        expect(validateHistory(messages)).toEqual([]);
      }),
      { seed: 20241129, numRuns: 200 },
    );
  });

  it("reports an issue when any single tool message is removed", () => {
    fc.assert(
      fc.property(
        validConversation.filter((m) => m.some((x) => x.role === "tool")),
        fc.nat(),
        (messages, pick) => {
          const toolIndexes = messages.flatMap((m, i) => (m.role === "tool" ? [i] : []));
          const removed = toolIndexes[pick % toolIndexes.length]!;
          const broken = messages.filter((_, i) => i !== removed);
          expect(validateHistory(broken).length).toBeGreaterThan(0);
        },
      ),
      { seed: 1129, numRuns: 200 },
    );
  });

  it("reports an issue when any assistant tool-call message is removed", () => {
    fc.assert(
      fc.property(
        validConversation.filter((m) => m.some((x) => x.role === "tool")),
        fc.nat(),
        (messages, pick) => {
          const callIndexes = messages.flatMap((m, i) =>
            m.role === "assistant" && m.content.some((b) => b.type === "tool_call") ? [i] : [],
          );
          const removed = callIndexes[pick % callIndexes.length]!;
          expect(
            validateHistory(messages.filter((_, i) => i !== removed)).some((i) => i.code === "orphan_tool_response"),
          ).toBe(true);
        },
      ),
      { seed: 31, numRuns: 100 },
    );
  });
});
