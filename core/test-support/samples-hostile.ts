/**
 * Hostile requests: each must be answered in bounded time (a report or a typed error, under 1 s on
 * the test machine), never a hang, a crash or a polluted prototype. Bodies are generated (some are
 * over 500 KB); the core suite runs them through `inspect` in every runtime, the edge worker test
 * POSTs them into workerd, and `npm run bench` times the worst of each kind.
 */
export interface HostileSample {
  readonly id: string;
  readonly kind:
    | "whitespace"
    | "slice"
    | "method"
    | "sort"
    | "equality"
    | "membership"
    | "escape"
    | "pollution"
    | "comparison"
    | "report";
  readonly title: string;
  /** The request body (JSON text). */
  readonly body: () => string;
  /** The previous turn compared with it (`inspect(body, { previous })`); the edge worker POSTs `body` alone. */
  readonly previous?: () => string;
  /**
   * What `inspect` gives: a report (with a problem of one of these codes, or none when empty; and
   * in `history.issues`, every code of `history`), or a typed error of one of these codes when
   * `throws`.
   */
  readonly expect: {
    readonly problems?: readonly string[];
    readonly history?: readonly string[];
    readonly throws?: readonly string[];
  };
}

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };

/** An AssemblyRequest whose template block is `template` with `args`. */
function templated(template: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ model, input: "Hello", template: { template, args } });
}

const loop = (body: string) => `{% for i in range(100000) %}${body}{% endfor %}`;
const STOPPED = ["template_work_limit", "template_loop_limit", "template_deadline", "template_output_limit"];

export const hostileSamples: readonly HostileSample[] = [
  {
    id: "whitespace-65536",
    kind: "whitespace",
    title: "A template of 65,536 spaces (the library's whitespace regex took 9 s)",
    body: () => templated(" ".repeat(65_536)),
    expect: { problems: [] },
  },
  {
    id: "whitespace-262000",
    kind: "whitespace",
    title: "A template of 262,000 spaces, just under the 256 KiB limit (131 s)",
    body: () => templated(" ".repeat(262_000)),
    expect: { problems: [] },
  },
  {
    id: "whitespace-64k-request",
    kind: "whitespace",
    title: "A 64 KB AssemblyRequest whose template is runs of whitespace around tags (42 s)",
    body: () => templated(`${" ".repeat(30_000)}{% generation %}${"\n\t ".repeat(10_000)}{{ name }}`, { name: "x" }),
    expect: { problems: [] },
  },
  {
    id: "slice-loop",
    kind: "slice",
    title: "range(100000) slices of a 589K-character string (past 30 s)",
    body: () => templated(loop("{% set x = B[:1] %}"), { B: "b".repeat(589_000) }),
    expect: { problems: [] },
  },
  {
    id: "slice-loop-astral",
    kind: "slice",
    title: "range(100000) slices of a 200K-character string with surrogate pairs",
    body: () => templated(loop("{% set x = B[:1] %}"), { B: "a😀".repeat(100_000) }),
    expect: { problems: STOPPED },
  },
  {
    id: "startswith-list",
    kind: "method",
    title: "startswith with a list of 5,000 long prefixes, 100,000 times",
    body: () =>
      templated(loop("{% if B.startswith(L) %}y{% endif %}"), {
        B: "a".repeat(10_000),
        L: Array.from({ length: 5_000 }, () => `${"a".repeat(100)}b`),
      }),
    expect: { problems: STOPPED },
  },
  {
    id: "sort-loop",
    kind: "sort",
    title: "Sorting 20,000 strings (case-insensitive) on every pass of a loop",
    body: () =>
      templated(loop("{% set x = L|sort %}"), {
        L: Array.from({ length: 20_000 }, (_, i) => `${"Prefix ".repeat(6)}${(i * 7919) % 20_000}`),
      }),
    expect: { problems: STOPPED },
  },
  {
    id: "nested-list-equality",
    kind: "equality",
    title: "Loose == of a nested list with a string, 100,000 times (it prints the list: 766 MB)",
    body: () =>
      templated(loop("{% if N == 'x' %}y{% endif %}"), {
        N: Array.from({ length: 5_000 }, (_, i) => [
          [`a${i}`, "def"],
          ["ghi", [i, [i]]],
        ]),
      }),
    expect: { problems: STOPPED },
  },
  {
    id: "in-long-list",
    kind: "membership",
    title: "`in` over a 100,000-item list, 100,000 times",
    body: () =>
      templated(loop("{% if 'zz' in L %}y{% endif %}"), { L: Array.from({ length: 100_000 }, (_, i) => `i${i}`) }),
    expect: { problems: STOPPED },
  },
  {
    id: "escape-attributes",
    kind: "escape",
    title: "Sandbox escapes through attributes: __class__, constructor, __globals__, __proto__",
    body: () =>
      templated(
        "{{ ''.__class__ }}{{ x.constructor }}{{ x.constructor.constructor('return globalThis')() }}" +
          "{{ range.__globals__ }}{{ x.__proto__ }}{{ x['__proto__'] }}{{ raise_exception.toString() }}",
        { x: {} },
      ),
    expect: { problems: ["template_render_error"] },
  },
  {
    id: "escape-namespace",
    kind: "escape",
    title: "A namespace that holds itself, printed",
    body: () => templated("{% set ns = namespace(a=1) %}{% set ns.self = ns %}{{ ns }}"),
    expect: { problems: ["template_render_error"] },
  },
  {
    id: "pollution-args",
    kind: "pollution",
    title: "__proto__ and constructor.prototype keys in template arguments",
    body: () =>
      `{"model":{"provider":"anthropic","model":"claude-sonnet-4-5"},"input":"Hi",` +
      `"template":{"template":"{{ a.polluted }}{{ __proto__ }}{{ constructor.prototype }}","args":` +
      `{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"a":{"__proto__":{"polluted":1}}}}}`,
    expect: { problems: [] },
  },
  {
    id: "pollution-root",
    kind: "pollution",
    title: "A __proto__ key at the top of an AssemblyRequest",
    body: () =>
      `{"__proto__":{"polluted":1},"model":{"provider":"anthropic","model":"claude-sonnet-4-5"},"input":"Hi"}`,
    expect: { throws: ["no_format_matched"] },
  },
  {
    id: "pollution-wire",
    kind: "pollution",
    title: "__proto__ keys inside a wire request's messages",
    body: () =>
      `{"model":"gpt-4o","messages":[{"role":"user","content":"hi","__proto__":{"polluted":1}}],` +
      `"metadata":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}`,
    expect: { problems: [], throws: ["no_format_matched"] },
  },
];

/** The smallest OpenAI Chat message with content. */
const tiny = (i: number) => `{"role":"${i % 2 ? "assistant" : "user"}","content":"${i % 10}"}`;

/** An OpenAI Chat body of at most `bytes`, of the smallest messages with content (64,000 of them in 1 MiB). */
function tinyMessages(bytes: number): string {
  const head = '{"model":"gpt-4o","messages":[';
  const parts: string[] = [];
  let size = head.length + 2;
  for (let i = 0; ; i++) {
    const m = tiny(i);
    if (size + m.length + 1 > bytes) break;
    parts.push(m);
    size += m.length + 1;
  }
  return `${head}${parts.join(",")}]}`;
}

/**
 * One assistant message making `n` parallel tool calls, answered by a tool message each: the last
 * by an id no call made (`unknown` "last"), or every one (`"all"`). The history check read every
 * answer against every call (1.4–1.9 s at n = 33,000, just under inspect's item cap of 100,000
 * messages and blocks), and named every call in each unknown answer's issue (4.6 s at n = 5,000
 * with all unknown; at 33,000 the issues' messages alone would be ~10 GB).
 */
function parallelToolCalls(n: number, unknown: "last" | "all"): string {
  const calls = Array.from(
    { length: n },
    (_, k) => `{"id":"call_${k}","type":"function","function":{"name":"lookup","arguments":"{}"}}`,
  );
  const answers = Array.from(
    { length: n },
    (_, k) =>
      `{"role":"tool","tool_call_id":"${unknown === "all" ? "other" : "call"}_${unknown === "last" && k === n - 1 ? "x" : k}","content":"ok"}`,
  );
  return (
    `{"model":"gpt-4o","messages":[{"role":"user","content":"Look everything up."},` +
    `{"role":"assistant","content":null,"tool_calls":[${calls.join(",")}]},${answers.join(",")}]}`
  );
}

/**
 * The window-shift shape that made comparison quadratic, as OpenAI Chat turns: previous is
 * `[first, (user, assistant) × m, END-A]`, next is `[(user, assistant) × m, END-B]` — next looks
 * like previous without its first message until the very last message.
 */
export function windowShiftBodies(m: number): { previous: string; next: string } {
  const pair = '{"role":"user","content":"Same question?"},{"role":"assistant","content":"Same answer."}';
  const history = Array.from({ length: m }, () => pair).join(",");
  const body = (messages: string) => `{"model":"gpt-4o","messages":[${messages}]}`;
  return {
    previous: body(`{"role":"user","content":"The first message."},${history},{"role":"user","content":"END-A"}`),
    next: body(`${history},{"role":"user","content":"END-B"}`),
  };
}

/** Hostile comparisons and report sizes: window shifts over many messages, 1 MiB of tiny messages, a million messages. */
export const hostileComparisonSamples: readonly HostileSample[] = [
  {
    // m = 16,000 (3.5 s before the linear search) is timed by `npm run bench` through
    // compareRequests; through all of inspect, both turns of it take about 1 s on the test machine.
    id: "window-shift-8000",
    kind: "comparison",
    title: "A window-shift comparison of two 16,000-message turns (m = 8,000, 0.7 MB each, under the edge body cap)",
    body: () => windowShiftBodies(8_000).next,
    previous: () => windowShiftBodies(8_000).previous,
    expect: {},
  },
  {
    id: "window-shift-50000",
    kind: "comparison",
    title: "A window-shift comparison over 100,000 messages (m = 50,000; 36 s), past inspect's item cap",
    body: () => windowShiftBodies(50_000).next,
    previous: () => windowShiftBodies(50_000).previous,
    expect: { throws: ["too_many_messages"] },
  },
  {
    id: "tiny-messages-1mib",
    kind: "report",
    title: "A 1 MiB body of 64,000 tiny messages (its report was 44 MB)",
    body: () => tinyMessages(1_048_576),
    expect: {},
  },
  {
    id: "parallel-tool-calls",
    kind: "report",
    title:
      "One assistant message with 33,000 parallel tool calls, answered by as many tool messages, the last by an unknown id (1.4–1.9 s)",
    body: () => parallelToolCalls(33_000, "last"),
    expect: { history: ["missing_tool_response", "extra_tool_response"] },
  },
  {
    id: "parallel-tool-calls-unknown-ids",
    kind: "report",
    title:
      "33,000 parallel tool calls answered by as many tool messages, every one by an id no call made (4.6 s at 5,000; ~10 GB of messages at 33,000)",
    body: () => parallelToolCalls(33_000, "all"),
    expect: { history: ["missing_tool_response", "extra_tool_response"] },
  },
  {
    id: "million-messages",
    kind: "report",
    title: "A 32 MB body of 1,000,000 tiny messages (47 s and 6 GB)",
    body: () => `{"model":"gpt-4o","messages":[${Array.from({ length: 1_000_000 }, (_, i) => tiny(i)).join(",")}]}`,
    expect: { throws: ["too_many_messages"] },
  },
];
