/**
 * Warming the inspect worker before the first paste. A new worker's first inspection is its
 * slowest by far: it loads OpenAI's tokenizer (its rank tables: ~0.3 s) and runs the inspector's
 * code cold, before the engine has optimized it. In headless Chromium a first 5 MB paste took
 * 0.95–1.0 s, 640–690 ms of it in the worker, against ~0.2 s from the fifth paste on. Users often
 * paste once, so the page asks an idle worker to warm up while nobody is waiting (`WarmRequest`):
 * it loads the tokenizer and inspects a few generated requests, and the first job then takes that
 * worker (runner.ts). A job that comes during the warm-up stops it (the worker checks between
 * rounds), so a paste never waits for more than one round.
 */
import type { Settings } from "../store/settings.ts";

/** Rounds of the warm-up, each a fresh generated request (and a shorter previous turn of it). */
export const WARM_ROUNDS = 3;

/** Turns (a user message, a tool call, its result and an answer) per generated request: ~0.3 MB. */
export const WARM_TURNS = 240;

/** Asked of an idle worker (see the file comment): warm up for jobs with these settings. */
export interface WarmRequest {
  readonly warm: Settings;
}

const WORDS = [
  "order",
  "invoice",
  "shipment",
  "customer",
  "refund",
  "warehouse",
  "delivery",
  "status",
  "account",
  "payment",
  "tracking",
  "address",
  "schedule",
  "report",
  "summary",
  "the",
  "a",
  "is",
  "was",
  "for",
  "with",
  "from",
  "when",
  "which",
  "café",
  "naïve",
  "größe",
  "données",
  "東京",
  "🙂",
];

/**
 * A deterministic OpenAI Chat request of `turns` turns — the shapes real traffic has: a system
 * prompt, function tools, user text, assistant tool calls with JSON arguments, tool results and
 * answers, mostly ASCII with some accented, CJK and emoji text — varied by `seed` so the
 * tokenizer meets words it has not counted yet.
 */
export function warmupRequest(turns: number, seed: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const sentence = (words: number) => {
    const out: string[] = [];
    for (let i = 0; i < words; i++) {
      const word = WORDS[Math.floor(next() * WORDS.length)]!;
      out.push(next() < 0.1 ? `${word}${Math.floor(next() * 100_000)}` : word);
    }
    return `${out.join(" ")}.`;
  };
  const messages: unknown[] = [{ role: "system", content: `You help with orders. ${sentence(60)}` }];
  for (let t = 0; t < turns; t++) {
    const id = `call_${seed}_${t}`;
    messages.push(
      { role: "user", content: sentence(12 + Math.floor(next() * 30)) },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id,
            type: "function",
            function: { name: "lookup_order", arguments: JSON.stringify({ order: `A-${t}`, note: sentence(4) }) },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: id,
        content: JSON.stringify({ order: `A-${t}`, status: sentence(3), items: [sentence(5), sentence(5)] }),
      },
      { role: "assistant", content: sentence(20 + Math.floor(next() * 40)) },
    );
  }
  return JSON.stringify({
    model: "gpt-4o",
    messages,
    tools: [
      {
        type: "function",
        function: {
          name: "lookup_order",
          description: "Looks an order up by its number.",
          parameters: {
            type: "object",
            properties: { order: { type: "string" }, note: { type: "string" } },
            required: ["order"],
          },
        },
      },
    ],
  });
}
