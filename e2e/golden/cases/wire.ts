/** Issue 5: wire formats in and out, prefix segments and comparison, cache simulation, inspect. */
import {
  compareRequests,
  segmentRequest,
  simulateCache,
  suggestCacheBreakpoints,
  toFingerprintBundle,
} from "../../../core/cache/index.ts";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "../../../core/formats/index.ts";
import { inspect } from "../../../core/inspect/index.ts";
import { parseRequest } from "../../../core/request/index.ts";
import type { NormalizedRequest } from "../../../core/formats/index.ts";
import { cases, json, outcome } from "../support.ts";
import { TRICKY_TEXT_WELL_FORMED as TRICKY_TEXT } from "./messages.ts";

const weatherSchema = {
  type: "object",
  properties: { city: { type: "string" }, units: { type: "string", enum: ["metric", "imperial"] } },
  required: ["city"],
};

/** One request per wire format, each with the features that format is known for. */
export const WIRE_INPUTS = {
  "openai-chat": {
    model: "gpt-4o-mini",
    temperature: 0.2,
    messages: [
      { role: "system", content: "You are a support agent. Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: `Where is my parcel? ${TRICKY_TEXT}` },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "track", arguments: '{"id":"PX-1"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status":"in transit"}' },
      { role: "assistant", content: "It is in transit." },
      { role: "user", content: "When will it arrive?" },
    ],
    tools: [
      {
        type: "function",
        function: {
          name: "track",
          description: "Track a parcel.",
          parameters: { type: "object", properties: { id: { type: "string" } } },
        },
      },
    ],
  },
  "openai-responses": {
    model: "gpt-4.1",
    instructions: "You plan city trips.",
    reasoning: { effort: "low" },
    tools: [
      {
        type: "function",
        name: "get_weather",
        description: "Weather for a city.",
        parameters: weatherSchema,
        strict: false,
      },
    ],
    input: [
      { role: "user", content: "Lisbon on Saturday?" },
      { type: "function_call", call_id: "call_w", name: "get_weather", arguments: '{"city":"Lisbon"}' },
      { type: "function_call_output", call_id: "call_w", output: '{"c":21,"sky":"clear"}' },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Clear, 21 °C: go to Belém." }] },
      { role: "user", content: [{ type: "input_text", text: "And in the evening?" }] },
    ],
  },
  anthropic: {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: [
      {
        type: "text",
        text: "You answer questions about the docs. Cite page titles.",
        cache_control: { type: "ephemeral" },
      },
    ],
    tools: [
      {
        name: "search_docs",
        description: "Search the docs.",
        input_schema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    ],
    messages: [
      { role: "user", content: "How do I rotate keys?" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Search for key rotation.", signature: "sig-abc" },
          { type: "tool_use", id: "toolu_1", name: "search_docs", input: { q: "rotate keys" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "Page: Key rotation — run `keys rotate`." }],
      },
      { role: "assistant", content: "Run `keys rotate` (see Key rotation)." },
      {
        role: "user",
        content: [{ type: "text", text: "Thanks! Does it revoke old keys?", cache_control: { type: "ephemeral" } }],
      },
    ],
  },
  gemini: {
    systemInstruction: { parts: [{ text: "You are a travel assistant." }] },
    contents: [
      { role: "user", parts: [{ text: "Weather in Kyoto?" }] },
      { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Kyoto" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { c: 12, sky: "rain" } } }] },
      { role: "model", parts: [{ text: "Rainy, 12 °C." }] },
      { role: "user", parts: [{ text: "Indoor ideas then?" }] },
    ],
    tools: [
      {
        functionDeclarations: [{ name: "get_weather", description: "Weather for a city.", parameters: weatherSchema }],
      },
    ],
    generationConfig: { temperature: 0.4 },
  },
} as const;

/** A Strata AssemblyRequest with tiers, a template on a fixed clock, a context budget and tools. */
export const ASSEMBLY_INPUT = {
  model: { provider: "anthropic", model: "claude-sonnet-4-5", capabilities: { tools: true } },
  input: "Draft the release note.",
  inputLayout: "cache_aware",
  systemInstructions: "You write release notes.",
  history: [
    { role: "user", content: "Last week's note?" },
    { role: "assistant", content: "v1.2: faster search." },
  ],
  attachments: [{ name: "changes.md", text: "- cache-aware layout\n- golden vectors\n- edge worker" }],
  tools: [
    { name: "get_changelog", description: "Read the changelog.", inputSchema: { type: "object", properties: {} } },
  ],
  sections: [
    { id: "persona", tier: "core", content: "You are Strata's release writer." },
    { id: "style", tier: "active", content: "Short sentences. No hype." },
    { id: "examples", tier: "informational", content: "Example note: 'v1.1 — fixes.' ".repeat(12) },
  ],
  tierBudget: { totalBudget: 160 },
  contextBudget: { maxInputTokens: 400, reportOmissions: true },
  template: {
    template:
      "Today is {{ system.current_date }} ({{ system.day_of_week }}). Product: {{ product }}.{% for f in features %}\n- {{ loop.index }}. {{ f | upper }}{% endfor %}",
    args: { product: "Strata", features: ["layouts", "tiers"] },
    defaults: { product: "unnamed" },
    now: "2026-11-29T08:30:00.000Z",
  },
};

const parsedWire = (format: keyof typeof WIRE_INPUTS): NormalizedRequest => {
  const parsed = parseRequest(JSON.stringify(WIRE_INPUTS[format]));
  if (parsed.format === "strata") throw new Error(`${format} sample detected as strata`);
  return parsed.request;
};

const formats = Object.keys(WIRE_INPUTS) as (keyof typeof WIRE_INPUTS)[];

/** Turn 2 of the Anthropic conversation: one more exchange appended. */
const anthropicTurn2 = {
  ...WIRE_INPUTS.anthropic,
  messages: [
    ...WIRE_INPUTS.anthropic.messages,
    { role: "assistant", content: "Yes, after 24 hours." },
    { role: "user", content: "Can I change that?" },
  ],
};
/** Turn 3: the system prompt carries a timestamp — a cache bust. */
const anthropicTurn3 = {
  ...anthropicTurn2,
  system: [{ type: "text", text: "You answer questions about the docs. Now: 2026-11-29T08:31:07Z." }],
};

export const wireCases = [
  ...cases(
    "parse",
    formats.map((format) => [format, () => json(parseRequest(JSON.stringify(WIRE_INPUTS[format])))] as const),
  ),
  ...cases("parse", [
    ["strata assembly request", () => json(parseRequest(ASSEMBLY_INPUT))],
    ["truncated JSON", () => outcome(() => parseRequest('{"model":"gpt-4o","messages":[{"role":"user",'))],
    ["wrong types", () => outcome(() => parseRequest({ model: "gpt-4o", messages: [{ role: "wizard", content: 5 }] }))],
    ["not an object", () => outcome(() => parseRequest("[1,2,3]"))],
    [
      "lone surrogate and BOM",
      () => outcome(() => parseRequest(`\ufeff{"model":"gpt-4o","messages":[{"role":"user","content":"a\\ud800b"}]}`)),
    ],
  ]),
  ...formats.flatMap((from) =>
    cases(`convert/${from}`, [
      ["to openai-chat", () => json(toOpenAIChat(parsedWire(from)).body)],
      ["to openai-responses", () => json(toOpenAIResponses(parsedWire(from)).body)],
      ["to anthropic", () => json(toAnthropic(parsedWire(from)).body)],
      ["to gemini", () => json(toGemini(parsedWire(from)).body)],
    ]),
  ),
  ...cases("cache", [
    [
      "segments, anthropic order",
      () => json(segmentRequest(parsedWire("anthropic"), { provider: "anthropic" }).segments),
    ],
    ["segments, openai order", () => json(segmentRequest(parsedWire("openai-chat"), { provider: "openai" }).segments)],
    ["segments, gemini order", () => json(segmentRequest(parsedWire("gemini"), { provider: "gemini" }).segments)],
    [
      "compare appended turn",
      () =>
        json(
          compareRequests(parsedWire("anthropic"), parseRequest(anthropicTurn2).request as NormalizedRequest, {
            provider: "anthropic",
          }),
        ),
    ],
    [
      "compare system timestamp bust",
      () =>
        json(
          compareRequests(
            parseRequest(anthropicTurn2).request as NormalizedRequest,
            parseRequest(anthropicTurn3).request as NormalizedRequest,
            { provider: "anthropic" },
          ),
        ),
    ],
    [
      "simulate three anthropic turns",
      () =>
        json(
          simulateCache(
            [WIRE_INPUTS.anthropic, anthropicTurn2, anthropicTurn3].map(
              (r) => parseRequest(r).request as NormalizedRequest,
            ),
            { provider: "anthropic" },
          ),
        ),
    ],
    [
      "suggest breakpoints",
      () =>
        json(
          suggestCacheBreakpoints(parseRequest(anthropicTurn2).request as NormalizedRequest, {
            previous: parsedWire("anthropic"),
          }),
        ),
    ],
  ]),
  ...cases(
    "inspect",
    formats.map((format) => [format, async () => json(await inspect(JSON.stringify(WIRE_INPUTS[format])))] as const),
  ),
  ...cases("inspect", [
    ["strata assembly request", async () => json(await inspect(ASSEMBLY_INPUT))],
    ["strata assembly request, legacy layout", async () => json(await inspect(ASSEMBLY_INPUT, { layout: "legacy" }))],
    ["anthropic against previous turn", async () => json(await inspect(anthropicTurn3, { previous: anthropicTurn2 }))],
    [
      "fingerprint bundle of a report",
      async () =>
        json(toFingerprintBundle(await inspect(anthropicTurn2, { previous: JSON.stringify(WIRE_INPUTS.anthropic) }))),
    ],
    ["bad input", () => outcome(() => inspect('{"messages": [}'))],
  ]),
];
