import { describe, expect, it } from "vitest";
import { TemplateError } from "./errors.ts";
import { CHAT_TEMPLATES } from "./jinja/test-support/chat-templates.ts";
import { TEMPLATE_VOLATILE_VARIABLES, lintTemplateVolatility } from "./volatility.ts";

const brief = (template: string, options = {}) =>
  lintTemplateVolatility(template, options).map((w) => `${w.line}:${w.column} ${w.variable} ${w.volatility}`);

describe("lintTemplateVolatility", () => {
  it.each([
    ["system.current_time", "{{ system.current_time }}", ["1:4 system.current_time per_request"]],
    [
      "system.current_datetime by subscript",
      "{{ system['current_datetime'] }}",
      ["1:4 system.current_datetime per_request"],
    ],
    [
      "system.date_unix and date_unix_ms",
      "{{ system.date_unix }}{{ system.date_unix_ms }}",
      ["1:4 system.date_unix per_request", "1:26 system.date_unix_ms per_request"],
    ],
    ["system.current_date (daily)", "Today: {{ system.current_date }}", ["1:11 system.current_date per_day"]],
    [
      "conversation.duration and updated_date",
      "{{ conversation.duration }} {{ conversation.updated_date }}",
      ["1:4 conversation.duration per_request", "1:32 conversation.updated_date per_request"],
    ],
    [
      "conversation ids",
      "{{ conversation.id }}-{{ conversation.identifier }}",
      ["1:4 conversation.id per_conversation", "1:26 conversation.identifier per_conversation"],
    ],
    ["the current message", "{{ message.text }}", ["1:4 message.text per_request"]],
    [
      "a use in an if test",
      "a\n{% if system.current_time > '12' %}pm{% endif %}",
      ["2:7 system.current_time per_request"],
    ],
    [
      "a use in an elif test",
      "{% if x %}{% elif conversation.id %}{% endif %}",
      ["1:19 conversation.id per_conversation"],
    ],
    [
      "a use in a loop iterable",
      "{% for c in system.current_time %}{% endfor %}",
      ["1:13 system.current_time per_request"],
    ],
    ["an alias made with set", "{% set s = system %}\n{{ s.date_unix }}", ["2:4 system.date_unix per_request"]],
    ["the whole namespace", "{{ system | tojson }}", ["1:4 system per_request"]],
    ["a root-level alias", "{{ current_time }}", ["1:4 current_time per_request"]],
    ["strftime_now with a time format", "{{ strftime_now('%H:%M') }}", ["1:4 strftime_now() per_request"]],
    ["strftime_now with a date format", "{{ strftime_now('%d %b %Y') }}", ["1:4 strftime_now() per_day"]],
    [
      "two uses in one tag, each at its own column",
      "{{ system.current_time ~ system.current_time }}",
      ["1:4 system.current_time per_request", "1:26 system.current_time per_request"],
    ],
  ])("flags %s", (_what, template, expected) => {
    expect(brief(template)).toEqual(expected);
  });

  it.each([
    ["text, comments and strings", "system.current_time {# system.current_time #}{{ 'system.current_time' }}"],
    [
      "stable namespaces and arguments",
      "{{ assistant.name }} {{ assistant.id }} {{ args.tier }} {{ session.mode }} {{ system.unknown }}",
    ],
    ["a loop variable that shadows a namespace", "{% for message in messages %}{{ message.text }}{% endfor %}"],
    ["a macro parameter that shadows a namespace", "{% macro m(system) %}{{ system.current_time }}{% endmacro %}"],
    ["a root name the template sets itself", "{% set current_time = 'noon' %}{{ current_time }}"],
    ["an is-defined test", "{% if system is defined %}x{% endif %}"],
  ])("does not flag %s", (_what, template) => {
    expect(brief(template)).toEqual([]);
  });

  it("explains why the variable breaks provider prompt caches", () => {
    const [warning] = lintTemplateVolatility("{{ system.current_time }}");
    expect(warning).toMatchObject({
      code: "volatile_template_variable",
      variable: "system.current_time",
      volatility: "per_request",
      line: 1,
      column: 4,
    });
    expect(warning!.reason).toMatch(/every second/);
    expect(warning!.reason).toMatch(/prompt caches/);
    expect(warning!.reason).toMatch(/identical prefix/);
  });

  it("honours ignore and rootAliases", () => {
    expect(brief("{{ system.current_date }}{{ system.current_time }}", { ignore: ["system.current_date"] })).toEqual([
      "1:29 system.current_time per_request",
    ]);
    expect(brief("{{ current_time }}", { rootAliases: false })).toEqual([]);
  });

  it("finds the date in the Llama 3.1 chat template", () => {
    expect(brief(CHAT_TEMPLATES.LLAMA_3_1)).toEqual(["4:31 strftime_now() per_day"]);
  });

  it("finds nothing in chat templates that only read messages and tokens", () => {
    for (const name of ["LLAMA_3", "MISTRAL", "CHATML_QWEN2", "QWEN_2_5", "GEMMA_3", "ZEPHYR"] as const) {
      expect(brief(CHAT_TEMPLATES[name]), name).toEqual([]);
    }
  });

  it("covers the volatile prompt-context variables the spec defines", () => {
    for (const variable of [
      "system.current_time",
      "system.current_datetime",
      "system.date_unix",
      "system.date_unix_ms",
      "conversation.duration",
      "conversation.updated_date",
      "conversation.id",
    ]) {
      expect(TEMPLATE_VOLATILE_VARIABLES[variable], variable).toBeDefined();
    }
  });

  it("throws the template's syntax error", () => {
    expect(() => lintTemplateVolatility("{% if %}")).toThrow(TemplateError);
  });
});
