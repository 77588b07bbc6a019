/**
 * Language cases: the spec's patterns (variables, if, for, autoescape, namespaced and root
 * arguments, defaults) and the expressions, filters, tests and whitespace rules real chat
 * templates rely on. Expected outputs were written by hand and cross-checked with Python
 * Jinja2 (trim_blocks, lstrip_blocks, a non-HTML `tojson`); differences are marked.
 */
import { buildPromptContext } from "../../../conversation/prompt-context.ts";
import type { JinjaCorpusCase } from "./corpus-types.ts";

const NOW = new Date("2024-05-06T07:08:09.123Z");
const users = [
  { name: "Ada", role: "admin", active: true },
  { name: "Bob", role: "user", active: false },
  { name: "Cy", role: "user", active: true },
];
const chat = [
  { role: "user", content: "Hi" },
  { role: "assistant", content: "Hello!" },
  { role: "user", content: "Bye" },
];

const specContext = buildPromptContext({
  now: NOW,
  assistant: { id: 42, name: "Helper", language: "en", description: "A helpful assistant" },
  conversation: {
    id: 7,
    identifier: "conv-7",
    source: "web",
    direction: "inbound",
    createdDate: new Date("2024-05-06T06:00:00Z"),
  },
  session: { mode: "text" },
  message: { text: "What time is it?", language: "en" },
  args: { name: "Ada", plan: { tier: "pro" } },
});

export const basicCases: readonly JinjaCorpusCase[] = [
  // ── template patterns ──
  {
    name: "spec: variable interpolation",
    template: "Hello {{ name }}!",
    context: { name: "Ada" },
    expected: "Hello Ada!",
  },
  {
    name: "spec: conditional block (true)",
    template: "{% if age > 20 %}adult{% endif %}",
    context: { age: 30 },
    expected: "adult",
  },
  {
    name: "spec: conditional block (false)",
    template: "{% if age > 20 %}adult{% endif %}",
    context: { age: 10 },
    expected: "",
  },
  {
    name: "spec: loop block over messages",
    template: "{% for message in messages %}{{ message.role }}: {{ message.content }}\n{% endfor %}",
    context: { messages: chat },
    expected: "user: Hi\nassistant: Hello!\nuser: Bye\n",
  },
  {
    name: "spec: autoescape off keeps markup",
    template: "{% autoescape off %}{{ html }}{% endautoescape %}",
    context: { html: "<b>Tom & Jerry</b>" },
    expected: "<b>Tom & Jerry</b>",
  },
  {
    name: "spec: autoescape on is accepted and prompts are still not escaped",
    template: "{% autoescape true %}{{ html }}{% endautoescape %}",
    context: { html: "<b>&</b>" },
    expected: "<b>&</b>",
    differsFromJinja2: "Jinja2 escapes HTML inside autoescape true; prompts are never HTML-escaped",
  },
  {
    name: "spec: autoescape tags with whitespace control vanish cleanly",
    template: "A\n{%- autoescape off -%}\n  {{ x }}\n{%- endautoescape -%}\nB",
    context: { x: "<x>" },
    expected: "A<x>B",
  },
  {
    name: "spec: args both namespaced and at the root",
    template: "{{ args.name }}/{{ name }}/{{ plan.tier }}",
    context: specContext,
    expected: "Ada/Ada/pro",
  },
  {
    name: "spec: system namespace from the injected clock (UTC)",
    template:
      "{{ system.current_date }} {{ system.current_time }} {{ system.current_datetime }} {{ system.day_of_week }}",
    context: specContext,
    expected: "2024-05-06 07:08:09 2024-05-06T07:08:09Z Monday",
  },
  {
    name: "spec: system unix and RFC 1123 values",
    template: "{{ system.date_unix }} {{ system.date_unix_ms }} {{ system.date_rfc1123 }}",
    context: specContext,
    expected: "1714979289 1714979289123 Mon, 06 May 2024 07:08:09 UTC",
  },
  {
    name: "spec: assistant, conversation, session and message namespaces",
    template:
      "{{ assistant.name }}#{{ assistant.id }} ({{ assistant.language }}) {{ conversation.id }}/{{ conversation.identifier }} " +
      "{{ conversation.source }} {{ conversation.direction }} {{ conversation.duration }} {{ session.mode }} [{{ message.language }}] {{ message.text }}",
    context: specContext,
    expected: "Helper#42 (en) 7/conv-7 web inbound 1h8m9s text [en] What time is it?",
  },
  {
    name: "spec: template defaults sit below runtime arguments",
    template: "{{ name }} is {{ tone }}",
    context: { name: "Ada" },
    options: { defaults: { name: "someone", tone: "formal" } },
    expected: "Ada is formal",
  },

  // ── variables and access ──
  { name: "an undefined variable prints nothing", template: "[{{ missing }}]", context: {}, expected: "[]" },
  { name: "attribute access", template: "{{ user.name }}", context: { user: { name: "Ada" } }, expected: "Ada" },
  {
    name: "subscript access with a string key",
    template: "{{ user['name'] }}",
    context: { user: { name: "Ada" } },
    expected: "Ada",
  },
  { name: "nested attribute access", template: "{{ a.b.c }}", context: { a: { b: { c: "deep" } } }, expected: "deep" },
  { name: "list index", template: "{{ items[1] }}", context: { items: ["x", "y", "z"] }, expected: "y" },
  { name: "negative list index", template: "{{ items[-1] }}", context: { items: ["x", "y", "z"] }, expected: "z" },
  { name: "dotted integer index", template: "{{ items.0 }}", context: { items: ["x", "y"] }, expected: "x" },
  { name: "string slicing", template: "{{ word[1:3] }}", context: { word: "prompt" }, expected: "ro" },
  {
    name: "reversed slice",
    template: "{{ items[::-1] | join(',') }}",
    context: { items: ["x", "y", "z"] },
    expected: "z,y,x",
  },
  { name: "string indexing", template: "{{ 'Hello'[0] }}", context: {}, expected: "H" },
  {
    name: "attribute of a missing object is empty",
    template: "[{{ user.missing }}]",
    context: { user: {} },
    expected: "[]",
  },

  // ── expressions ──
  { name: "integer arithmetic precedence", template: "{{ 1 + 2 * 3 }}", context: {}, expected: "7" },
  { name: "true division gives a float", template: "{{ 7 / 2 }}", context: {}, expected: "3.5" },
  { name: "floor division and modulo", template: "{{ 7 // 2 }} {{ 7 % 3 }}", context: {}, expected: "3 1" },
  { name: "float printing keeps .0", template: "{{ 1.5 + 1.5 }}", context: {}, expected: "3.0" },
  { name: "tilde concatenation converts to strings", template: "{{ 'a' ~ 1 ~ 'b' }}", context: {}, expected: "a1b" },
  { name: "plus concatenation of strings", template: "{{ 'a' + 'b' }}", context: {}, expected: "ab" },
  { name: "list concatenation", template: "{{ ([1] + [2, 3]) | join('-') }}", context: {}, expected: "1-2-3" },
  {
    name: "booleans print lower-case",
    template: "{{ 1 < 2 }} {{ not true }}",
    context: {},
    expected: "true false",
    differsFromJinja2: "Jinja2 prints True/False",
  },
  {
    name: "none prints nothing",
    template: "[{{ none }}]",
    context: {},
    expected: "[]",
    differsFromJinja2: "Jinja2 prints None",
  },
  { name: "inline if expression", template: "{{ 'yes' if flag else 'no' }}", context: { flag: false }, expected: "no" },
  {
    name: "and/or short-circuit values",
    template: "{{ '' or 'fallback' }} {{ 'a' and 'b' }}",
    context: {},
    expected: "fallback b",
  },
  {
    name: "membership in a list",
    template: "{% if 'y' in items %}in{% endif %}{% if 'q' not in items %} out{% endif %}",
    context: { items: ["x", "y"] },
    expected: "in out",
  },
  {
    name: "substring membership",
    template: "{% if 'ell' in 'hello' %}found{% endif %}",
    context: {},
    expected: "found",
  },
  {
    name: "key membership in a dict",
    template: "{% if 'a' in d %}has a{% endif %}",
    context: { d: { a: 1 } },
    expected: "has a",
  },
  { name: "dict literal access", template: "{{ {'k': 'v'}['k'] }}", context: {}, expected: "v" },
  {
    name: "string escapes in literals",
    template: "{{ 'tab:\\t|quote:\\'|nl:\\n.' }}",
    context: {},
    expected: "tab:\t|quote:'|nl:\n.",
  },
  { name: "adjacent string literals join", template: "{{ 'a' 'b' \"c\" }}", context: {}, expected: "abc" },

  // ── conditionals and tests ──
  {
    name: "if / elif / else chain",
    template: "{% for n in [1, 5, 10] %}{% if n < 3 %}low{% elif n < 7 %}mid{% else %}high{% endif %} {% endfor %}",
    context: {},
    expected: "low mid high ",
  },
  {
    name: "is defined and is not defined",
    template: "{% if a is defined %}A{% endif %}{% if b is not defined %}B{% endif %}",
    context: { a: 0 },
    expected: "AB",
  },
  { name: "is none", template: "{% if x is none %}none{% endif %}", context: { x: null }, expected: "none" },
  {
    name: "is string / is number / is mapping",
    template: "{{ 's' if a is string }}{{ 'n' if b is number }}{{ 'm' if c is mapping }}",
    context: { a: "x", b: 1.5, c: {} },
    expected: "snm",
  },
  {
    name: "odd and even tests",
    template: "{% for i in range(4) %}{{ 'o' if i is odd else 'e' }}{% endfor %}",
    context: {},
    expected: "eoeo",
  },
  {
    name: "empty list is falsy",
    template: "{% if items %}some{% else %}none{% endif %}",
    context: { items: [] },
    expected: "none",
  },
  {
    name: "negated compound condition",
    template: "{% if not (a and b) %}not both{% endif %}",
    context: { a: true, b: false },
    expected: "not both",
  },

  // ── loops ──
  {
    name: "loop variables",
    template:
      "{% for x in items %}{{ loop.index }}/{{ loop.length }}{{ '^' if loop.first }}{{ '$' if loop.last }}({{ loop.index0 }},{{ loop.revindex }}) {% endfor %}",
    context: { items: ["a", "b", "c"] },
    expected: "1/3^(0,3) 2/3(1,2) 3/3$(2,1) ",
  },
  {
    name: "for-else on an empty list",
    template: "{% for x in items %}{{ x }}{% else %}empty{% endfor %}",
    context: { items: [] },
    expected: "empty",
  },
  {
    name: "loop filter with if",
    template: "{% for x in items if x != 'b' %}{{ x }}{{ loop.index }}{% endfor %}",
    context: { items: ["a", "b", "c"] },
    expected: "a1c2",
  },
  {
    name: "tuple unpacking over dict items",
    template: "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}",
    context: { d: { a: 1, b: 2 } },
    expected: "a=1;b=2;",
  },
  {
    name: "iterating a dict yields keys",
    template: "{% for k in d %}{{ k }}{% endfor %}",
    context: { d: { x: 1, y: 2 } },
    expected: "xy",
  },
  {
    name: "nested loops",
    template: "{% for a in [1, 2] %}{% for b in ['x', 'y'] %}{{ a }}{{ b }} {% endfor %}{% endfor %}",
    context: {},
    expected: "1x 1y 2x 2y ",
  },
  {
    name: "break and continue",
    template:
      "{% for i in range(10) %}{% if i == 1 %}{% continue %}{% endif %}{% if i == 4 %}{% break %}{% endif %}{{ i }}{% endfor %}",
    context: {},
    expected: "023",
  },
  {
    name: "range with start, stop and step",
    template: "{{ range(10, 0, -3) | join(',') }}",
    context: {},
    expected: "10,7,4,1",
  },
  {
    name: "previous and next items",
    template:
      "{% for x in [1, 2, 3] %}{{ loop.previtem | default('-') }}{{ x }}{{ loop.nextitem | default('-') }} {% endfor %}",
    context: {},
    expected: "-12 123 23- ",
  },

  // ── set, namespace, macros ──
  { name: "set and reuse", template: "{% set x = 5 %}{{ x * 2 }}", context: {}, expected: "10" },
  {
    name: "block set captures output",
    template: "{% set greeting %}Hi {{ name }}{% endset %}{{ greeting | upper }}",
    context: { name: "Ada" },
    expected: "HI ADA",
  },
  { name: "tuple assignment", template: "{% set a, b = 1, 2 %}{{ a }}{{ b }}", context: {}, expected: "12" },
  {
    name: "set inside a loop does not leak out",
    template: "{% set x = 1 %}{% for i in [1] %}{% set x = 2 %}{% endfor %}{{ x }}",
    context: {},
    expected: "1",
  },
  {
    name: "namespace carries state out of a loop",
    template:
      "{% set ns = namespace(total=0) %}{% for i in [1, 2, 3] %}{% set ns.total = ns.total + i %}{% endfor %}{{ ns.total }}",
    context: {},
    expected: "6",
  },
  {
    name: "macro with a default argument",
    template:
      "{% macro greet(name, greeting='Hello') %}{{ greeting }}, {{ name }}!{% endmacro %}{{ greet('Ada') }} {{ greet('Bob', 'Hi') }} {{ greet(name='Cy', greeting='Yo') }}",
    context: {},
    expected: "Hello, Ada! Hi, Bob! Yo, Cy!",
  },
  {
    name: "call block with caller()",
    template: "{% macro wrap() %}<{{ caller() }}>{% endmacro %}{% call wrap() %}inner{% endcall %}",
    context: {},
    expected: "<inner>",
  },
  {
    name: "bounded recursive macro",
    template: "{% macro count(n) %}{% if n > 0 %}{{ n }}{{ count(n - 1) }}{% endif %}{% endmacro %}{{ count(3) }}",
    context: {},
    expected: "321",
  },
  {
    name: "filter block",
    template: "{% filter upper %}shout {{ name }}{% endfilter %}",
    context: { name: "ada" },
    expected: "SHOUT ADA",
  },

  // ── filters ──
  {
    name: "case filters",
    template:
      "{{ 'hello world' | upper }} {{ 'HeLLo' | lower }} {{ 'hello world' | title }} {{ 'hello' | capitalize }}",
    context: {},
    expected: "HELLO WORLD hello Hello World Hello",
  },
  {
    name: "trim and length",
    template: "[{{ '  x  ' | trim }}] {{ 'four' | length }} {{ [1, 2] | length }} {{ {'a': 1} | length }}",
    context: {},
    expected: "[x] 4 2 1",
  },
  {
    name: "first, last and reverse",
    template: "{{ items | first }}{{ items | last }}{{ items | reverse | join }}",
    context: { items: ["a", "b", "c"] },
    expected: "accba",
  },
  {
    name: "sort and unique",
    template: "{{ [3, 1, 2, 1] | unique | sort | join(',') }}",
    context: {},
    expected: "1,2,3",
  },
  {
    name: "default for undefined and for falsy with boolean=true",
    template: "{{ missing | default('fallback') }} {{ '' | default('empty', true) }}",
    context: {},
    expected: "fallback empty",
  },
  {
    name: "replace filter and method",
    template: "{{ 'a-b-c' | replace('-', '+') }} {{ 'aaa'.replace('a', 'b', 2) }}",
    context: {},
    expected: "a+b+c bba",
  },
  {
    name: "indent filter",
    template: "{{ text | indent(2) }}|{{ text | indent(2, true) }}",
    context: { text: "a\nb" },
    expected: "a\n  b|  a\n  b",
  },
  {
    name: "int, float and abs",
    template: "{{ '42' | int + 1 }} {{ '3.5' | float + 1 }} {{ -3 | abs }}",
    context: {},
    expected: "43 4.5 3",
  },
  {
    name: "string filter and join of numbers",
    template: "{{ 5 | string ~ '!' }} {{ [1, 2, 3] | join(' ') }}",
    context: {},
    expected: "5! 1 2 3",
  },
  {
    name: "tojson of a dict, a list and unicode",
    template: "{{ data | tojson }}",
    context: { data: { a: "é", b: [1, true, null], c: 'q"uote' } },
    expected: '{"a": "é", "b": [1, true, null], "c": "q\\"uote"}',
  },
  {
    name: "tojson with indent",
    template: "{{ data | tojson(indent=2) }}",
    context: { data: { a: [1, 2], b: {} } },
    expected: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {}\n}',
  },
  {
    name: "map by attribute",
    template: "{{ users | map(attribute='name') | join(', ') }}",
    context: { users },
    expected: "Ada, Bob, Cy",
  },
  {
    name: "selectattr by truthiness",
    template: "{{ users | selectattr('active') | map(attribute='name') | join(',') }}",
    context: { users },
    expected: "Ada,Cy",
  },
  {
    name: "selectattr with equalto and rejectattr",
    template:
      "{{ users | selectattr('role', 'equalto', 'user') | list | length }} {{ users | rejectattr('active') | map(attribute='name') | first }}",
    context: { users },
    expected: "2 Bob",
  },
  {
    name: "dictsort in a loop",
    template: "{% for k, v in d | dictsort %}{{ k }}{{ v }}{% endfor %}",
    context: { d: { b: 2, a: 1 } },
    expected: "a1b2",
  },
  {
    name: "dict get with a fallback",
    template: "{{ d.get('x', 'dflt') }} {{ d.get('a') }}",
    context: { d: { a: "A" } },
    expected: "dflt A",
  },
  {
    name: "string methods",
    template:
      "{{ '  x '.strip() }}|{{ 'abc'.upper() }}|{{ 'a,b,c'.split(',') | length }}|{{ 'prompt'.startswith('pro') }}",
    context: {},
    expected: "x|ABC|3|true",
    differsFromJinja2: "Jinja2 prints True",
  },

  // ── whitespace control and comments ──
  {
    name: "trim_blocks removes the newline after a block tag",
    template: "{% if true %}\nline\n{% endif %}\nend",
    context: {},
    expected: "line\nend",
  },
  {
    name: "lstrip_blocks removes indentation before a block tag",
    template: "  {% if true %}\nx\n  {% endif %}\ny",
    context: {},
    expected: "x\ny",
  },
  { name: "dash whitespace control on expressions", template: "a  {{- 'b' -}}  c", context: {}, expected: "abc" },
  {
    name: "dash whitespace control on statements",
    template: "x\n  {%- if true -%}\n  y\n  {%- endif -%}\n  z",
    context: {},
    expected: "xyz",
  },
  { name: "comments render nothing", template: "a{# a comment with {{ tags }} #}b", context: {}, expected: "ab" },
  { name: "one trailing newline of the template is dropped", template: "text\n", context: {}, expected: "text" },
  {
    name: "trimBlocks and lstripBlocks can be turned off",
    template: "  {% if true %}\nx\n{% endif %}",
    context: {},
    options: { trimBlocks: false, lstripBlocks: false },
    expected: "  \nx\n",
  },
  {
    name: "strftime_now formats the injected clock in UTC",
    template: "{{ strftime_now('%d %b %Y %H:%M') }}",
    context: {},
    options: { now: NOW },
    expected: "06 May 2024 07:08",
  },
  {
    name: "strftime_now is undefined without a clock",
    template: "{{ 'has clock' if strftime_now is defined else 'no clock' }}",
    context: {},
    expected: "no clock",
  },

  // ── errors (onError "original" returns the template) ──
  {
    name: "raise_exception aborts the render",
    template: "{{ raise_exception('bad input') }}",
    context: {},
    expected: "{{ raise_exception('bad input') }}",
    error: "template_raised",
  },
  {
    name: "an unknown filter is a render error",
    template: "{{ 'x' | frobnicate }}",
    context: {},
    expected: "{{ 'x' | frobnicate }}",
    error: "template_render_error",
  },
  {
    name: "an unclosed block is a syntax error",
    template: "{% if x %}never closed",
    context: {},
    expected: "{% if x %}never closed",
    error: "template_syntax_error",
  },
  {
    name: "include is not supported",
    template: "{% include 'other.j2' %}",
    context: {},
    expected: "{% include 'other.j2' %}",
    error: "template_syntax_error",
  },
];
