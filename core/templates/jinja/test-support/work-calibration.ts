/**
 * One template per kind of work the render guard charges, each made to run until it passes the
 * work limit: the calibration test (and the bench) time them and divide by the units charged, so
 * an operation that costs more per unit than assumed is caught.
 */
// Sized so one operation charges at most a few thousand units: the calibration measures many of them.
const ascii = "abcdefghij".repeat(5_890); // 58,900 characters
const astral = "a😀".repeat(10_000);
const words = Array.from({ length: 500 }, (_, i) => `w${i}`.padEnd(60, "x"));
const longList = Array.from({ length: 5_000 }, (_, i) => `item${i}`);
const records = Array.from({ length: 1_000 }, (_, i) => ({ name: `n${(i * 7919) % 1_000}`, a: { b: i } }));
const nested = Array.from({ length: 300 }, (_, i) => [
  [`a${i}`, "def"],
  ["ghi", [i]],
]);
const dict = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${(i * 7919) % 1_000}`, i]));

export interface WorkCase {
  readonly id: string;
  /** The body run in a loop until the work limit stops it. */
  readonly body: string;
  readonly args?: Readonly<Record<string, unknown>>;
  /** Wrapped in this many nested `range(100000)` loops (1 or 2). */
  readonly loops?: 1 | 2;
}

export const WORK_ARGS = { B: ascii, U: astral, W: words, L: longList, R: records, N: nested, D: dict };

export const WORK_CASES: readonly WorkCase[] = [
  { id: "loop iteration (empty body)", body: "" },
  { id: "output of a number", body: "{{ i }}" },
  { id: "arithmetic and set", body: "{% set x = i * 2 + 1 - i // 3 %}" },
  { id: "if / elif / is defined", body: "{% if i is defined and i > 5 %}{% elif i %}{% endif %}" },
  { id: "macro call", body: "{{ m(i) }}" },
  { id: "namespace update", body: "{% set ns.x = ns.x + 1 %}" },
  { id: "inner loop over a long list, broken at once", body: "{% for x in L %}{% break %}{% endfor %}" },
  { id: "loop over a dict's items", body: "{% for k, v in D|items %}{% break %}{% endfor %}" },
  { id: "string slice B[:1]", body: "{% set x = B[:1] %}" },
  { id: "string slice B[-3:]", body: "{% set x = B[-3:] %}" },
  { id: "string slice with a step", body: "{% set x = B[::100] %}" },
  { id: "astral string slice", body: "{% set x = U[:1] %}" },
  { id: "list slice", body: "{% set x = L[5:5000] %}" },
  { id: "string index", body: "{% set x = B[1000] %}" },
  { id: "startswith a list", body: "{% set x = B.startswith(W) %}" },
  { id: "endswith a list", body: "{% set x = B.endswith(W) %}" },
  { id: "sort strings", body: "{% set x = W|sort %}" },
  { id: "sort by attribute", body: "{% set x = R|sort(attribute='name') %}" },
  { id: "dictsort", body: "{% set x = D|dictsort %}" },
  { id: "nested list == string", body: "{% set x = N == 'x' %}" },
  { id: "list == number", body: "{% set x = L == 5 %}" },
  { id: "in over a long list", body: "{% set x = 'zz' in L %}" },
  { id: "in over a long string", body: "{% set x = 'zz' in B %}" },
  { id: "string ==", body: "{% set x = B == B ~ '' %}" },
  { id: "join", body: "{% set x = L|join(',') %}" },
  { id: "replace method", body: "{% set x = B.replace('a', 'b') %}" },
  { id: "replace filter", body: "{% set x = B|replace('a', 'bc') %}" },
  { id: "split", body: "{% set x = B.split('j') %}" },
  { id: "split on nothing found", body: "{% set x = B.split('z') %}" },
  { id: "upper / strip", body: "{% set x = B.upper().strip() %}" },
  { id: "is lower", body: "{% set x = B is lower %}" },
  { id: "length filter", body: "{% set x = B|length %}" },
  { id: "concatenation", body: "{% set x = B ~ 'x' %}" },
  { id: "map attribute", body: "{% set x = R|map(attribute='a.b')|list %}" },
  { id: "selectattr", body: "{% set x = R|selectattr('name')|list %}" },
  { id: "unique", body: "{% set x = L|unique|list %}" },
  { id: "reverse", body: "{% set x = L|reverse %}" },
  { id: "tojson of a list", body: "{% set x = N|tojson %}" },
  { id: "string of a list", body: "{% set x = N|string %}" },
  { id: "items", body: "{% set x = D|items %}" },
  { id: "dict keys()", body: "{% set x = D.keys() %}" },
  { id: "list concatenation", body: "{% set x = L + W %}" },
  { id: "print a string", body: "{{ W[0] }}" },
  { id: "indent", body: "{% set x = B|indent(2) %}" },
];

/** The arguments a case's body names (converting all of them would dominate a short run). */
export function workArgs(c: WorkCase): Record<string, unknown> {
  const out: Record<string, unknown> = { ...c.args };
  for (const [name, value] of Object.entries(WORK_ARGS))
    if (new RegExp(`\\b${name}\\b`).test(c.body)) out[name] = value;
  return out;
}

/** The full template of a case: a macro and namespace it may use, then the loops around the body. */
export function workTemplate(c: WorkCase): string {
  const inner = `{% for i in range(100000) %}${c.body}{% endfor %}`;
  const looped = (c.loops ?? 2) === 2 ? `{% for o in range(100000) %}${inner}{% endfor %}` : inner;
  return `{% macro m(x) %}{{ x }}{% endmacro %}{% set ns = namespace(x=0) %}${looped}`;
}
