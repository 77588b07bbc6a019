/** Spec 003: Jinja-style templates on a fixed clock, prompt context, history validation, pipeline. */
import { assistantMessage, toolCallBlock, toolResultMessage, userMessage } from "../../../core/index.ts";
import {
  buildPromptContext,
  resolveResponseLanguage,
  runRequestPipeline,
  validateHistory,
} from "../../../core/conversation/index.ts";
import { lintTemplateVolatility, renderJinjaTemplate, strftimeUtc } from "../../../core/templates/index.ts";
import type { Message } from "../../../core/index.ts";
import { cases, json, outcome } from "../support.ts";
import { TRICKY_TEXT } from "./messages.ts";

/** The one clock every case uses: a Sunday, just after a leap second would have been. */
const NOW = new Date("2026-11-29T08:30:07.250Z");

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message.role + '\\n' + message.content | trim + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const LLAMA3 =
  "{{ bos_token }}{% if strftime_now is defined %}{% set date_string = strftime_now('%d %b %Y') %}{% else %}{% set date_string = '26 Jul 2024' %}{% endif %}" +
  "<|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: {{ date_string }}\n\n{{ system_message }}<|eot_id|>" +
  "{% for message in messages %}<|start_header_id|>{{ message['role'] }}<|end_header_id|>\n\n{{ message['content'] | trim }}<|eot_id|>{% endfor %}" +
  "{% if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>\n\n{% endif %}";

const TOOLS_TEMPLATE =
  "{%- if tools %}Tools:\n{%- for tool in tools | sort(attribute='name') %}\n- {{ tool.name }}: {{ tool | tojson }}{% endfor %}\n{%- endif %}\n" +
  "{%- for k, v in settings | dictsort %}{{ k }}={{ v }}{{ ', ' if not loop.last }}{% endfor %}\n" +
  "{{ missing | default('fallback') }} {{ items | length }} {{ items | join('|') }} {{ title | upper }} {{ title | replace('a', '4') }} {{ 7 / 2 }} {{ 7 // 2 }} {{ 2 ** 10 }}";

const chat = [
  { role: "system", content: "You are terse. " },
  { role: "user", content: `  ${TRICKY_TEXT.replace("\ud800", "")}  ` },
  { role: "assistant", content: "Noted." },
];

const templateArgs = {
  messages: chat,
  add_generation_prompt: true,
  bos_token: "<|begin_of_text|>",
  system_message: "Answer briefly.",
  tools: [
    { name: "search", parameters: { type: "object", properties: { q: { type: "string" } } } },
    { name: "calc", parameters: { type: "object", properties: { expr: { type: "string" } } } },
  ],
  settings: { temperature: 0.2, top_p: 1, model: "m" },
  items: ["a", "b", "c"],
  title: "banana",
};

const ESCAPES = [
  "{{ ''.constructor }}",
  "{{ ''.__class__.__mro__ }}",
  "{{ x.__proto__ }}",
  "{{ x.constructor.constructor('return globalThis')() }}",
  "{{ cycler.__init__.__globals__ }}",
  "{{ range.constructor }}",
  "{{ self }}",
  "{{ [].pop }}",
];

const valid: Message[] = [
  userMessage("Weather?"),
  { role: "assistant", content: [toolCallBlock("a", "weather", { city: "Oslo" }), toolCallBlock("b", "clock")] },
  toolResultMessage("a", "weather", { c: -3 }),
  toolResultMessage("b", "clock", "08:30"),
  assistantMessage("−3 °C at 08:30."),
];
const broken: Message[] = [
  userMessage("Hi"),
  { role: "assistant", content: [toolCallBlock("x", "f"), toolCallBlock("y", "g")] },
  toolResultMessage("x", "f", 1),
  toolResultMessage("z", "h", 2),
  userMessage("Too early"),
  toolResultMessage("orphan", "f", 3),
];

export const templateCases = [
  ...cases("jinja", [
    ["chatml with generation prompt", () => renderJinjaTemplate(CHATML, templateArgs, { onError: "throw" })],
    [
      "llama 3 with the injected clock",
      () => renderJinjaTemplate(LLAMA3, templateArgs, { onError: "throw", now: NOW }),
    ],
    [
      "llama 3 without a clock takes the fallback",
      () => renderJinjaTemplate(LLAMA3, templateArgs, { onError: "throw" }),
    ],
    ["filters, tests and arithmetic", () => renderJinjaTemplate(TOOLS_TEMPLATE, templateArgs, { onError: "throw" })],
    [
      "defaults lose to args",
      () =>
        renderJinjaTemplate(
          "{{ a }} {{ b }}",
          { a: "arg" },
          { onError: "throw", defaults: { a: "default", b: "default" } },
        ),
    ],
    ["syntax error returns the original", () => renderJinjaTemplate("Hello {% if %}", {})],
    [
      "syntax error throws with a position",
      () => outcome(() => renderJinjaTemplate("line one\nHello {{ name }\n", { name: "x" }, { onError: "throw" })),
    ],
    [
      "loop limit",
      () =>
        outcome(() =>
          renderJinjaTemplate(
            "{% for i in range(50) %}{% for j in range(50) %}.{% endfor %}{% endfor %}",
            {},
            { onError: "throw", limits: { maxLoopIterations: 1_000 } },
          ),
        ),
    ],
    [
      "output limit",
      () =>
        outcome(() =>
          renderJinjaTemplate(
            "{% for i in range(100) %}{{ 'abcdefghij' }}{% endfor %}",
            {},
            { onError: "throw", limits: { maxOutputChars: 500 } },
          ),
        ),
    ],
    [
      "range limit",
      () => outcome(() => renderJinjaTemplate("{{ range(1000000) | length }}", {}, { onError: "throw" })),
    ],
    [
      "sandbox escapes",
      () => json(ESCAPES.map((t) => [t, renderJinjaTemplate(t, { x: { a: 1 } }, { onError: "original" })])),
    ],
    [
      "strftime",
      () => json(["%Y-%m-%d %H:%M:%S", "%a %A %b %B %d %e %I %j %p %y %Z %z %%"].map((f) => strftimeUtc(NOW, f))),
    ],
  ]),
  ...cases("prompt-context", [
    [
      "every namespace on a fixed clock",
      () =>
        json(
          buildPromptContext({
            now: NOW,
            assistant: { id: 42, name: "Strata", language: "en" },
            conversation: {
              id: "c-1",
              createdDate: new Date("2026-11-29T06:58:01Z"),
              updatedDate: "2026-11-29T08:29:00Z",
            },
            session: { mode: "review" },
            message: { text: "Bonjour", language: "fr" },
            args: { topic: "tides", nested: { list: [1, 2, { k: "v" }] } },
          }),
        ),
    ],
    [
      "a rendered system prompt",
      () =>
        renderJinjaTemplate(
          "Date {{ system.current_date }} {{ system.current_time }} ({{ system.day_of_week }}), {{ system.date_rfc1123 }}, {{ system.date_unix }}. Topic: {{ topic }} / {{ args.topic }}.",
          buildPromptContext({ now: NOW, args: { topic: "tides" } }) as unknown as Record<string, unknown>,
          { onError: "throw" },
        ),
    ],
    [
      "volatility lint",
      () =>
        json(
          lintTemplateVolatility(
            "Now {{ system.current_time }} on {{ system.current_date }}.\n{% if conversation.duration %}{{ conversation.duration }}{% endif %} {{ current_datetime }} {{ topic }}",
          ),
        ),
    ],
  ]),
  ...cases("history", [
    ["valid parallel calls", () => json(validateHistory(valid))],
    ["every rule broken", () => json(validateHistory(broken))],
    [
      "pipeline on a valid history",
      () =>
        json(
          runRequestPipeline({
            packet: { text: "Danke", language: "de" },
            history: valid,
            now: NOW,
            args: { tone: "dry" },
          }),
        ),
    ],
    [
      "pipeline stops on an invalid history",
      () => outcome(() => runRequestPipeline({ packet: { text: "x" }, history: broken, now: NOW })),
    ],
    [
      "response language precedence",
      () =>
        json([
          resolveResponseLanguage(
            [{ ...userMessage("hola"), metadata: { language: "es" } }, assistantMessage("¡hola!")],
            { "client.language": "pt" },
          ),
          resolveResponseLanguage([userMessage("no language")], { "client.language": "pt" }),
          resolveResponseLanguage([], {}),
        ]),
    ],
  ]),
];
