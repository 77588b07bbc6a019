/**
 * The readers' fast paths give exactly the plain paths' answers. Bodies of every wire format,
 * valid and broken at random places (wrong types, unknown roles, extra and missing keys, nulls,
 * odd prototypes, symbol and `__proto__` keys, holes, cycles), are read with the fast paths on and
 * off (`withoutFastPaths`: zod alone, the full value walk), and the results — parsed requests,
 * warnings, or thrown errors with their code, message and issues — must be deep-equal, key order
 * included. The Chat Completions reader is also compared with its previous version.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRequest } from "../request/parse-request.ts";
import {
  openaiChatSample,
  openaiResponsesSample,
  anthropicSample,
  geminiSample,
} from "../test-support/samples-wire.ts";
import { anthropicBlock, anthropicMessage, anthropicRequest, anthropicTool } from "./anthropic-schema.ts";
import { bedrockRequest } from "./bedrock.ts";
import { RequestFormatError } from "./errors.ts";
import { withoutFastPaths } from "./fast-paths.ts";
import { geminiRequest } from "./gemini-schema.ts";
import { checkJsonValue } from "./guard.ts";
import { chatMessage, chatPart, chatRequest, chatTool } from "./openai-chat-schema.ts";
import { fromOpenAIChat } from "./openai-chat.ts";
import {
  responsesFunctionCall,
  responsesFunctionOutput,
  responsesFunctionTool,
  responsesMessage,
  responsesPart,
  responsesReasoning,
  responsesRequest,
  responsesTool,
} from "./openai-responses-schema.ts";
import { parseWireRequest, readWireFormat } from "./parse.ts";
import { acceptsOf } from "./schema-accepts.ts";
import { referenceFromOpenAIChat } from "./test-support/openai-chat-reference.ts";
import { mutate, mutationArb, wireBodyArbs } from "./test-support/wire-arbitraries.ts";
import { WIRE_FORMATS, type WireFormat } from "./types.ts";

const SCHEMAS = {
  chatRequest,
  chatMessage,
  chatPart,
  chatTool,
  anthropicRequest,
  anthropicMessage,
  anthropicBlock,
  anthropicTool,
  responsesRequest,
  responsesMessage,
  responsesPart,
  responsesFunctionCall,
  responsesFunctionOutput,
  responsesReasoning,
  responsesTool,
  responsesFunctionTool,
  geminiRequest,
  bedrockRequest,
};
const REQUEST_SCHEMAS: Readonly<Record<WireFormat, (typeof SCHEMAS)[keyof typeof SCHEMAS]>> = {
  "openai-chat": chatRequest,
  "openai-responses": responsesRequest,
  anthropic: anthropicRequest,
  "bedrock-converse": bedrockRequest,
  gemini: geminiRequest,
};
const SAMPLES: Readonly<Partial<Record<WireFormat, unknown>>> = {
  "openai-chat": openaiChatSample,
  "openai-responses": openaiResponsesSample,
  anthropic: anthropicSample,
  gemini: geminiSample,
};

/** What a call gave: its value, or the error it threw (a `RequestFormatError` with all its fields). */
function outcome(fn: () => unknown): unknown {
  try {
    return { value: fn() };
  } catch (e) {
    if (e instanceof RequestFormatError)
      return { error: { name: e.name, code: e.code, message: e.message, issues: e.issues, tried: e.tried } };
    if (e instanceof Error) return { error: { name: e.name, message: e.message } };
    return { thrown: e };
  }
}

/** Every key of `v` in the order an own-keys walk meets it (cycle-safe): equal values may differ here. */
function keyOrder(v: unknown, seen = new Set<object>(), out: string[] = []): string[] {
  if (typeof v !== "object" || v === null || seen.has(v)) return out;
  seen.add(v);
  for (const k of Reflect.ownKeys(v)) {
    out.push(String(k));
    keyOrder((v as Record<PropertyKey, unknown>)[k], seen, out);
  }
  out.push("}");
  return out;
}

function expectSame(fast: unknown, reference: unknown): void {
  expect(fast).toStrictEqual(reference);
  expect(keyOrder(fast)).toEqual(keyOrder(reference));
}

/** Every object and array in `v` (cycle-safe), the value itself first. */
function nodes(v: unknown, seen = new Set<object>(), out: unknown[] = []): unknown[] {
  if (typeof v !== "object" || v === null || seen.has(v)) return out;
  seen.add(v);
  out.push(v);
  for (const k of Object.keys(v)) nodes((v as Record<string, unknown>)[k], seen, out);
  return out;
}

/** `v` as JSON text, or undefined when it has none (cycles, BigInt). */
function jsonText(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
}

const stats = { fastAccepted: 0, zodAccepted: 0, cases: 0 };

interface Limits {
  readonly maxDepth?: number;
  readonly maxStringLength?: number;
  readonly format?: "openai-chat" | "anthropic" | "gemini";
}

/** The checks every generated value goes through. */
function checkValue(value: unknown, limits: Limits): void {
  stats.cases++;
  // 1. Each predicate accepts only what its schema accepts, at every node of the value.
  for (const node of nodes(value)) {
    for (const schema of Object.values(SCHEMAS)) {
      if (acceptsOf(schema)(node)) expect(schema.safeParse(node).success).toBe(true);
    }
  }
  // 2. Read as each format: the same parsed request, warnings or issues.
  for (const format of WIRE_FORMATS) {
    const fast = outcome(() => readWireFormat(format, value));
    expectSame(
      fast,
      withoutFastPaths(() => outcome(() => readWireFormat(format, value))),
    );
  }
  // 3. The front doors, from the value and from its text (limits and a format sometimes set).
  const text = jsonText(value);
  for (const input of text === undefined ? [value] : [value, text]) {
    expectSame(
      outcome(() => parseRequest(input, limits)),
      withoutFastPaths(() => outcome(() => parseRequest(input, limits))),
    );
  }
  expectSame(
    outcome(() => parseWireRequest(value)),
    withoutFastPaths(() => outcome(() => parseWireRequest(value))),
  );
  // 4. The JSON data check alone, under tight limits too.
  const { format: _, ...valueLimits } = limits;
  for (const l of [{}, valueLimits, { ...valueLimits, maxIssues: 2 }]) {
    expectSame(
      outcome(() => checkJsonValue(value, l)),
      withoutFastPaths(() => outcome(() => checkJsonValue(value, l))),
    );
  }
  // 5. The Chat Completions reader against its previous version.
  if (chatRequest.safeParse(value).success) {
    expectSame(
      outcome(() => fromOpenAIChat(value as never)),
      outcome(() => referenceFromOpenAIChat(value as never)),
    );
  }
  // 6. On JSON data (what parsing text gives), each request predicate is zod's answer exactly:
  //    the fast path is not just safe, it is taken for every valid request.
  if (text !== undefined) {
    const data: unknown = JSON.parse(text);
    for (const schema of Object.values(REQUEST_SCHEMAS)) {
      const zod = schema.safeParse(data).success;
      expect(acceptsOf(schema)(data)).toBe(zod);
      if (zod) stats.zodAccepted++;
      if (acceptsOf(schema)(data)) stats.fastAccepted++;
    }
  }
}

const limitsArb: fc.Arbitrary<Limits> = fc.record(
  {
    maxDepth: fc.integer({ min: 0, max: 8 }),
    maxStringLength: fc.integer({ min: 0, max: 12 }),
    format: fc.constantFrom("openai-chat", "anthropic", "gemini"),
  },
  { requiredKeys: [] },
);

describe("the readers' fast paths", () => {
  for (const [i, format] of WIRE_FORMATS.entries()) {
    const seed = 2101 + i;
    it(`read valid ${format} bodies exactly as zod alone (seed ${seed})`, () => {
      fc.assert(
        fc.property(wireBodyArbs[format], limitsArb, (body, limits) => checkValue(body, limits)),
        { seed, numRuns: 200 },
      );
    });
    it(`read broken ${format} bodies exactly as zod alone: same issues, same errors (seed ${seed + 10})`, () => {
      fc.assert(
        fc.property(
          wireBodyArbs[format],
          fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
          limitsArb,
          (body, mutations, limits) => checkValue(mutate(body, mutations), limits),
        ),
        { seed: seed + 10, numRuns: 300 },
      );
    });
    const sample = SAMPLES[format];
    if (sample)
      it(`read the ${format} sample broken at random places exactly as zod alone (seed ${seed + 20})`, () => {
        fc.assert(
          fc.property(fc.array(mutationArb, { maxLength: 2 }), limitsArb, (mutations, limits) =>
            checkValue(mutate(sample, mutations), limits),
          ),
          { seed: seed + 20, numRuns: 100 },
        );
      });
  }

  it("take the fast path for valid requests (the checks above are not vacuous)", () => {
    expect(stats.cases).toBe(2900);
    expect(stats.zodAccepted).toBeGreaterThan(1000);
    expect(stats.fastAccepted).toBe(stats.zodAccepted);
  });

  it("check deep shared and cyclic values as the full walk does", () => {
    const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: [nest(depth - 1, leaf)] });
    const shared = { s: "x" };
    const cyclic: Record<string, unknown> = { k: 1 };
    cyclic.self = [cyclic];
    const bodies = [
      nest(6, [shared, shared]),
      { one: nest(12, shared), two: nest(12, shared) },
      nest(10, cyclic),
      [cyclic, nest(9, "\ud800")],
      nest(3, { big: Array.from({ length: 50 }, () => nest(5, cyclic)) }),
    ];
    for (const body of bodies)
      for (const limits of [{}, { maxDepth: 20 }, { maxDepth: 5, maxIssues: 3 }])
        expectSame(
          outcome(() => checkJsonValue(body, limits)),
          withoutFastPaths(() => outcome(() => checkJsonValue(body, limits))),
        );
  });

  it("say no to what they do not model, and zod decides", () => {
    const z = chatRequest.safeParse.bind(chatRequest);
    const cyclic: Record<string, unknown> = { model: "m", messages: [] };
    cyclic.self = cyclic;
    expect(acceptsOf(chatRequest)(cyclic)).toBe(true);
    expect(z(cyclic).success).toBe(true);
    // A symbol-keyed tool schema: zod's record rejects the key, so must the predicate.
    const params = { type: "object", [Symbol("k")]: 1 };
    const body = {
      model: "m",
      messages: [],
      tools: [{ type: "function", function: { name: "f", parameters: params } }],
    };
    expect(acceptsOf(chatRequest)(body)).toBe(false);
    expect(z(body).success).toBe(false);
  });
});
