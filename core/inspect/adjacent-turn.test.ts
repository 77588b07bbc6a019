import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assembleProviderInput } from "../assembly/assemble.ts";
import { InvalidInputError } from "../util/errors.ts";
import { RequestFormatError } from "../formats/errors.ts";
import { prepareAssembly } from "../request/assembly-options.ts";
import type { AssemblyRequest } from "../request/assembly-request.ts";
import { parseRequest } from "../request/parse-request.ts";
import type { NormalizedRequest } from "../formats/types.ts";
import { requestArb } from "../test-support/arbitraries.ts";
import { assemblySample } from "../test-support/samples-assembly.ts";
import { conversationTurns } from "../test-support/samples-conversation.ts";
import {
  anthropicSample,
  geminiSample,
  openaiChatSample,
  openaiResponsesSample,
} from "../test-support/samples-wire.ts";
import { simulateAdjacentTurn } from "./adjacent-turn.ts";
import { compareRequests } from "../cache/compare.ts";
import { simulateNextTurn } from "./next-turn.ts";
import { inferCacheProvider } from "../cache/provider.ts";
import { segmentCounted } from "../cache/counted.ts";
import { DEFAULT_SIMULATED_NEXT_INPUT, DEFAULT_SIMULATED_REPLY } from "./turn-edit.ts";

const wireSamples = [
  ["openai-chat", openaiChatSample],
  ["openai-responses", openaiResponsesSample],
  ["anthropic", anthropicSample],
  ["gemini", geminiSample],
  ["anthropic", conversationTurns[1]],
] as const;

function normalized(value: unknown): NormalizedRequest {
  const p = parseRequest(value);
  if (p.format === "strata") throw new Error("expected a wire request");
  return p.request;
}

/** Compares two wire bodies of the same format as their provider would cache them. */
function compareWire(previous: unknown, next: unknown) {
  const a = normalized(previous);
  const format = parseRequest(previous).format;
  return compareRequests(a, normalized(next), {
    provider: inferCacheProvider(format, a.model.provider, a.model.model),
  });
}

describe("simulateAdjacentTurn on wire requests", () => {
  it.each(wireSamples)(
    "writes the next turn of a %s request in the same format, appending only",
    async (format, sample) => {
      const next = await simulateAdjacentTurn(sample, { direction: "next" });
      expect(next.format).toBe(format);
      expect(parseRequest(next.request).format).toBe(format);
      expect(JSON.stringify(next.request)).toContain(DEFAULT_SIMULATED_NEXT_INPUT);
      const r = compareWire(sample, next.request);
      expect(r.divergence).toMatchObject({ cause: "appended", bustsCache: false });
    },
  );

  it.each(wireSamples)(
    "rebuilds the previous turn of a %s request, which the request extends",
    async (format, sample) => {
      const previous = await simulateAdjacentTurn(JSON.stringify(sample), { direction: "previous" });
      expect(previous.format).toBe(format);
      const r = compareWire(previous.request, sample);
      expect(r.divergence).toMatchObject({ cause: "appended", bustsCache: false });
    },
  );

  it("takes the reply and next input, and a format that skips detection", async () => {
    const next = await simulateAdjacentTurn(openaiChatSample, {
      direction: "next",
      reply: "Sure.",
      nextInput: "Thanks!",
      format: "openai-chat",
    });
    const messages = (next.request as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.slice(-2)).toEqual([
      { role: "assistant", content: "Sure." },
      { role: "user", content: "Thanks!" },
    ]);
  });

  it("says why there is no previous turn", async () => {
    const call = () =>
      simulateAdjacentTurn(
        { model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] },
        { direction: "previous" },
      );
    await expect(call()).rejects.toThrow(InvalidInputError);
    await expect(call()).rejects.toThrow(
      /^messages: has no assistant reply, so there is no earlier turn to rebuild\.$/,
    );
    const systemOnly = {
      model: "gpt-4.1",
      messages: [
        { role: "system", content: "s" },
        { role: "assistant", content: "hi" },
      ],
    };
    await expect(simulateAdjacentTurn(systemOnly, { direction: "previous" })).rejects.toThrow(
      expect.objectContaining({ code: "no_previous_turn" }),
    );
  });

  it("refuses JSON that is no request, and a bad direction or reply", async () => {
    await expect(simulateAdjacentTurn({ hello: "world" }, { direction: "next" })).rejects.toThrow(RequestFormatError);
    await expect(simulateAdjacentTurn(openaiChatSample, { direction: "sideways" as never })).rejects.toThrow(
      /^options\.direction: /,
    );
    await expect(simulateAdjacentTurn(openaiChatSample, { direction: "next", reply: 3 as never })).rejects.toThrow(
      expect.objectContaining({ field: "reply" }),
    );
  });
});

describe("simulateAdjacentTurn on normalized requests", () => {
  it("returns the normalized form, with the placeholders by default", async () => {
    const request = normalized(openaiChatSample);
    const next = await simulateAdjacentTurn(request, { direction: "next" });
    expect(next.format).toBe("normalized");
    if (next.format !== "normalized") return;
    expect(next.request.messages.slice(request.messages.length)).toEqual([
      { role: "assistant", content: [{ type: "text", text: DEFAULT_SIMULATED_REPLY }] },
      { role: "user", content: [{ type: "text", text: DEFAULT_SIMULATED_NEXT_INPUT }] },
    ]);
    expect(next.request.tools).toBe(request.tools);
  });

  it("names the bad field of a malformed request", async () => {
    const bad = {
      model: { provider: "openai", model: "gpt-4o" },
      messages: [{ role: "user", content: [{ type: "text" }] }],
      tools: [],
    };
    await expect(simulateAdjacentTurn(bad, { direction: "next" })).rejects.toThrow(
      expect.objectContaining({ field: "messages[0].content[0].text" }),
    );
  });

  it("undoes the next turn with the previous one (property, seed 2301)", async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, fc.string(), fc.string(), async (request, reply, nextInput) => {
        // A previous turn needs a user or tool message for the reply to answer.
        fc.pre(request.messages.some((m) => m.role !== "system"));
        const next = await simulateAdjacentTurn(request, { direction: "next", reply, nextInput });
        if (next.format !== "normalized") throw new Error("expected normalized");
        const back = await simulateAdjacentTurn(next.request, { direction: "previous" });
        expect(back.format).toBe("normalized");
        expect((back.request as NormalizedRequest).messages).toEqual(request.messages);
      }),
      { seed: 2301, numRuns: 100 },
    );
  });
});

describe("simulateAdjacentTurn on a Strata AssemblyRequest", () => {
  const parsed = parseRequest(assemblySample);
  if (parsed.format !== "strata") throw new Error("expected a Strata request");
  const request = parsed.request;

  it("moves this turn's input and the reply into the history, with the next input as input", async () => {
    const next = await simulateAdjacentTurn(assemblySample, { direction: "next" });
    expect(next.format).toBe("strata");
    const r = next.request as AssemblyRequest;
    expect(r.input).toBe(DEFAULT_SIMULATED_NEXT_INPUT);
    expect(r.history).toEqual([
      ...request.history!,
      { role: "user", content: [{ type: "text", text: request.input as string }] },
      { role: "assistant", content: [{ type: "text", text: DEFAULT_SIMULATED_REPLY }] },
    ]);
    expect(r.template).toEqual(request.template);
    expect(r.sections).toEqual(request.sections);
  });

  it("builds the same next turn simulateNextTurn assembles (one rule, shared)", async () => {
    const { contextBudget: _b, ...unbudgeted } = request;
    const options = { reply: "It failed the rounding test.", nextInput: "Open a ticket." };
    const sim = await simulateNextTurn(unbudgeted, options);
    const next = (await simulateAdjacentTurn(unbudgeted, { direction: "next", ...options })).request as AssemblyRequest;
    for (const layout of ["legacy", "cache_aware"] as const) {
      const assembled = await assembleProviderInput(prepareAssembly(next, { layout }).options);
      // simulateNextTurn counts as simulateCache does: countRequestTokens per segment.
      const seg = segmentCounted(assembled, { provider: "anthropic" });
      expect({ bytes: seg.totalBytes, segments: seg.segments.length, tokens: seg.totalTokens }).toEqual(
        sim[layout].nextTurn,
      );
    }
  });

  it("drops this turn's tool results from the next turn", async () => {
    const withResults = { ...request, toolResults: [{ toolCallId: "c9", name: "read_log", value: "ok" }] };
    const next = (await simulateAdjacentTurn(withResults, { direction: "next" })).request as AssemblyRequest;
    expect(next.toolResults).toBeUndefined();
  });

  it("rebuilds the previous turn from the history: the last exchange's user side becomes the input", async () => {
    const previous = (await simulateAdjacentTurn(assemblySample, { direction: "previous" })).request as AssemblyRequest;
    const history = request.history!;
    // The last assistant reply is history[5]; the messages since the assistant before it (history[4], a tool result) are the input.
    expect(previous.history).toEqual(history.slice(0, 4));
    expect(previous.input).toEqual(history[4]);
    const again = (await simulateAdjacentTurn(previous, { direction: "previous" })).request as AssemblyRequest;
    expect(again.history).toEqual(history.slice(0, 2));
    expect(again.input).toEqual(history[2]);
  });

  it("renders an input template into the history and drops it from the adjacent turns", async () => {
    const templated = {
      model: request.model,
      input: "ignored",
      template: { template: "Summarize {{ topic }}.", args: { topic: "the logs" }, target: "input" as const },
    };
    const next = (await simulateAdjacentTurn(templated, { direction: "next", nextInput: "And now?" }))
      .request as AssemblyRequest;
    expect(next.template).toBeUndefined();
    expect(next.history).toEqual([
      { role: "user", content: [{ type: "text", text: "Summarize the logs." }] },
      { role: "assistant", content: [{ type: "text", text: DEFAULT_SIMULATED_REPLY }] },
    ]);
    const previous = (await simulateAdjacentTurn(next, { direction: "previous" })).request as AssemblyRequest;
    expect(previous.input).toEqual(next.history![0]);
    expect(previous.template).toBeUndefined();
  });

  it("says why there is no previous turn", async () => {
    await expect(
      simulateAdjacentTurn({ model: request.model, input: "hi" }, { direction: "previous" }),
    ).rejects.toThrow(expect.objectContaining({ field: "history", code: "no_previous_turn" }));
    await expect(
      simulateAdjacentTurn(
        { model: request.model, input: "hi", history: [{ role: "assistant", content: "hello" }] },
        { direction: "previous" },
      ),
    ).rejects.toThrow(expect.objectContaining({ field: "history[0]", code: "no_previous_turn" }));
  });
});
