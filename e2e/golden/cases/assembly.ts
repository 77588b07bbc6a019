/** Spec 000: input + prompt assembly, both layouts, context budgets, {{name}} templates. */
import {
  assembleProviderInput,
  explainProviderInput,
  getContextBudgetReport,
  renderPromptTemplate,
  textBlock,
  toolCallBlock,
  toolResultMessage,
  userMessage,
  assistantMessage,
} from "../../../core/index.ts";
import type { AssembleProviderInputOptions, Message, ProviderRequest } from "../../../core/index.ts";
import { cases, json, outcome } from "../support.ts";
import { TRICKY_TEXT } from "./messages.ts";

const history: Message[] = [
  userMessage("What's the weather in Paris?"),
  { role: "assistant", content: [toolCallBlock("call_w", "weather", { city: "Paris", units: "metric" })] },
  toolResultMessage("call_w", "weather", { tempC: 17, sky: "overcast" }),
  assistantMessage("17 °C and overcast."),
  userMessage("And tomorrow? " + "Some padding so eviction has something to drop. ".repeat(6)),
  assistantMessage("Tomorrow looks sunny, 21 °C."),
];

/** Everything the default builders take, once; each case picks a layout, a model and a budget. */
function fullOptions(extra: Partial<AssembleProviderInputOptions> = {}): AssembleProviderInputOptions {
  return {
    model: { provider: "openai", model: "gpt-4o-mini", capabilities: { tools: false, input: ["text", "image"] } },
    input: `Plan a day in Paris. ${TRICKY_TEXT}`,
    systemInstructions: ["You are a careful travel planner.", { label: "Policy", text: "Never invent opening hours." }],
    developerInstructions: "Answer in at most five bullet points.",
    history,
    summaries: [
      { id: "sum-1", text: "The user is vegetarian and dislikes queues." },
      "Earlier: they asked about museums.",
    ],
    attachments: [
      { name: "itinerary.md", text: "# Day 1\n- Louvre (closed Tuesdays)\n- Lunch at 12:30" },
      { name: "photo", content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] },
    ],
    toolResults: [
      { toolCallId: "call_m", name: "museum_hours", value: { louvre: "09:00-18:00", orsay: "09:30-18:00" } },
      { toolCallId: "call_e", name: "events", error: { message: "upstream timeout", code: "ETIMEDOUT" } },
      { toolCallId: "call_n", name: "noop" },
    ],
    tools: [
      {
        name: "weather",
        description: "Current weather for a city.",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
      {
        name: "museum_hours",
        description: "Opening hours.",
        inputSchema: { type: "object", properties: { name: { type: "string" } } },
      },
    ],
    skills: [
      { name: "itinerary", description: "Builds day plans.", instructions: "Group sights by arrondissement." },
      { name: "budgeting", description: "Estimates costs." },
    ],
    contextProviders: [
      {
        name: "profile",
        resolve: () => [{ id: "profile", title: "User profile", content: "Home city: Lyon. Walks slowly." }],
      },
      { name: "calendar", resolve: () => [{ id: "cal", content: [textBlock("Free all day Saturday.")] }] },
    ],
    providerOptions: { temperature: 0.2, max_tokens: 512 },
    sessionId: "session-42",
    metadata: { tenant: "acme" },
    ...extra,
  };
}

/** A request without its AbortSignal (not JSON) — everything else is output. */
const requestJson = (request: ProviderRequest): string => {
  const { signal: _signal, ...rest } = request;
  return json(rest);
};

export const assemblyCases = cases("assembly", [
  ["cache_aware layout, text tool declarations", async () => requestJson(await assembleProviderInput(fullOptions()))],
  [
    "legacy layout, text tool declarations",
    async () => requestJson(await assembleProviderInput(fullOptions({ inputLayout: "legacy" }))),
  ],
  [
    "native tools model",
    async () =>
      requestJson(
        await assembleProviderInput(
          fullOptions({ model: { provider: "anthropic", model: "claude-sonnet-4-5", capabilities: { tools: true } } }),
        ),
      ),
  ],
  [
    "tail segments across two turns",
    async () => {
      const tailSegments = new Map<string, Message>();
      const loader = { load: (uri: string) => `contents of ${uri}` };
      const base = { resourceUris: ["mem://notes", "mem://prefs"], resourceLoader: loader, tailSegments };
      const first = await assembleProviderInput(fullOptions(base));
      const second = await assembleProviderInput(
        fullOptions({ ...base, input: "Now a rainy-day plan.", resourceUris: ["mem://prefs", "mem://new"] }),
      );
      return `${requestJson(first)}\n${requestJson(second)}\n${json([...tailSegments.keys()])}`;
    },
  ],
  [
    "token budget evicts in spec order and reports",
    async () => {
      const request = await assembleProviderInput(
        fullOptions({ contextBudget: { maxInputTokens: 260, reportOmissions: true } }),
      );
      return `${requestJson(request)}\n${json(getContextBudgetReport(request))}`;
    },
  ],
  [
    "byte budget evicts whole tool exchanges",
    async () => {
      const request = await assembleProviderInput(
        fullOptions({ inputLayout: "legacy", contextBudget: { maxInputBytes: 1_400, reportOmissions: true } }),
      );
      return `${requestJson(request)}\n${json(getContextBudgetReport(request))}`;
    },
  ],
  [
    "budget too small for protected parts",
    () => outcome(() => assembleProviderInput(fullOptions({ contextBudget: { maxInputTokens: 10 } }))),
  ],
  [
    "explain trace, cache_aware",
    async () => {
      const { request, trace } = await explainProviderInput(
        fullOptions({ contextBudget: { maxInputTokens: 300, reportOmissions: true } }),
      );
      return `${requestJson(request)}\n${json(trace)}`;
    },
  ],
  [
    "unsupported modality",
    () =>
      outcome(() =>
        assembleProviderInput(
          fullOptions({ model: { provider: "x", model: "text-only", capabilities: { input: ["text"] } } }),
        ),
      ),
  ],
  ["bad attachment", () => outcome(() => assembleProviderInput(fullOptions({ attachments: [{ name: "empty" }] })))],
]);

const templateVariables = {
  name: "Ada",
  count: 3,
  ratio: 0.1 + 0.2,
  ok: true,
  none: null,
  list: [3, "b", { z: 1, a: [2, 1] }],
  nested: { zeta: { b: 2, a: 1 }, alpha: "x" },
  unicode: TRICKY_TEXT,
};

export const promptTemplateCases = cases("prompt-template", [
  [
    "every value kind",
    () =>
      renderPromptTemplate(
        "Hi {{name}} ({{count}}, {{ratio}}, {{ok}}, {{none}})\n{{list}}\n{{nested}}\n{{unicode}}",
        templateVariables,
      ),
  ],
  [
    "missing preserved",
    () =>
      renderPromptTemplate("{{name}} {{missing}} {{ spaced }} {{constructor}} {{__proto__}}", templateVariables, {
        missing: "preserve",
      }),
  ],
  ["missing throws", () => outcome(() => renderPromptTemplate("Hello {{who}}", templateVariables))],
]);
